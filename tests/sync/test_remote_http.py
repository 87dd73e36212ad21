"""HTTP(S) credentials come from the user's git credential helper, never from memrepo.

A real smart-HTTP server: Python's http.server requiring basic auth in front of
`git http-backend` (plain HTTP on 127.0.0.1; git asks helpers the same way for HTTPS).
"""

from __future__ import annotations

import base64
import subprocess
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import CredentialMissing
from memrepo.sync import api

from .conftest import make_bare

pytestmark = pytest.mark.slow

Git = Callable[..., str]

USER, PASSWORD = "alice", "correct-horse-battery"
HELPER = f"!f() {{ echo username={USER}; echo password={PASSWORD}; }}; f"


class GitHttp(BaseHTTPRequestHandler):
    """Basic auth, then the request handed to `git http-backend` as CGI."""

    root: Path

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: object) -> None:
        return None

    def _serve(self) -> None:
        expected = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != f"Basic {expected}":
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="memory"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path, _, query = self.path.partition("?")
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        env = {
            "GIT_PROJECT_ROOT": str(self.root), "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path, "QUERY_STRING": query, "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)), "REMOTE_USER": USER, "REMOTE_ADDR": "127.0.0.1",
            "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""), "PATH": "/usr/bin:/bin",
        }  # fmt: skip
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        head, _, payload = out.stdout.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode().split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture
def http_remote(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "http"
    root.mkdir()
    make_bare(root / "memory.git")
    handler = type("Handler", (GitHttp,), {"root": root})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/memory.git"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_no_credential_is_a_clear_error_not_a_prompt(
    memory_repo: MemoryRepo, http_remote: str
) -> None:
    api.set_remote(memory_repo.folder, http_remote, confirm_private=True)
    with pytest.raises(CredentialMissing, match="credential helper") as caught:
        api.sync(memory_repo.folder)
    assert "memrepo never stores one" in str(caught.value)
    assert api.sync_status(memory_repo.folder).last_error_kind == "CredentialMissing"


def test_the_users_credential_helper_is_used_and_nothing_is_stored(
    memory_repo: MemoryRepo, http_remote: str, git: Git
) -> None:
    git(memory_repo.root, "config", "credential.helper", HELPER)
    api.set_remote(memory_repo.folder, http_remote, confirm_private=True)
    memory_repo.remember("Synced over HTTP with the user's own helper")
    report = api.sync(memory_repo.folder)
    assert report.pushed
    helper = git(memory_repo.root, "config", "--get", "credential.helper")
    assert helper.strip() == HELPER  # the user's setting, untouched
    for path in memory_repo.folder.state_dir.rglob("*"):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes(), path
    # Inside the repo, so its credential helper answers `git ls-remote` too.
    listed = git(memory_repo.root, "ls-remote", http_remote).split()
    assert listed == [report.head, "HEAD", report.head, "refs/heads/main"]
