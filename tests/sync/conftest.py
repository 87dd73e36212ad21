"""Real remotes for the sync tests: bare repositories on disk and a real `git daemon`.

The daemon runs on 127.0.0.1 on a free port with receive-pack enabled, in its own
process group so a test can kill it (and the upload/receive-pack children serving a
transfer) at once, then start it again on the same port. `CutProxy` sits between
memrepo and the daemon and kills the daemon once a transfer is under way: a network
drop in the middle of a fetch or a push, at a point the test chooses.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.clock import FixedClock
from memrepo.sync import api

Git = Callable[..., str]
STARTUP_SECONDS = 20.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, *, up: bool = True) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise RuntimeError(f"port {port} did not come {'up' if up else 'down'}")


@dataclass
class GitDaemon:
    """A real `git daemon` serving every repository under `base`."""

    base: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def url(self, name: str) -> str:
        return f"git://127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        command = [
            "git", "daemon", "--reuseaddr", f"--base-path={self.base}", "--export-all",
            "--enable=receive-pack", f"--port={self.port}", "--listen=127.0.0.1",
            "--informative-errors", str(self.base),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for_port(self.port)

    def kill(self) -> None:
        """SIGKILL the daemon and every transfer it is serving (its process group)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=STARTUP_SECONDS)
        self.process = None


@pytest.fixture
def git_daemon(tmp_path: Path) -> Iterator[GitDaemon]:
    base = tmp_path / "served"
    base.mkdir()
    daemon = GitDaemon(base)
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.kill()


def make_bare(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


@pytest.fixture(params=["disk", "daemon"])
def remote_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty bare repository, as a path on disk or served by a real git daemon."""
    if request.param == "disk":
        return str(make_bare(tmp_path / "remote.git"))
    daemon: GitDaemon = request.getfixturevalue("git_daemon")
    make_bare(daemon.base / "remote.git")
    return daemon.url("remote.git")


def bare_path(url: str, tmp_path: Path) -> Path:
    """The bare repository behind a URL of `remote_url`."""
    if url.startswith("git://"):
        return tmp_path / "served" / url.rsplit("/", 1)[1]
    return Path(url)


CLOCK = FixedClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def first_machine(root: Path, url: str) -> MemoryRepo:
    """A new memory with the remote set and pushed once (what people do first)."""
    repo = MemoryRepo.init(root, clock=CLOCK)
    api.set_remote(repo.folder, url, confirm_private=True)
    api.sync(repo.folder)
    return repo


def second_machine(root: Path, url: str) -> MemoryRepo:
    """A clone of the remote (what people do on their next machine)."""
    return MemoryRepo(api.clone(url, root, confirm_private=True, clock=CLOCK))


def remote_refs(git: Git, url: str) -> set[str]:
    """The refs the remote has, as `git ls-remote` lists them (HEAD excluded)."""
    out = git(".", "ls-remote", url)
    return {line.split("\t")[1] for line in out.splitlines() if not line.endswith("\tHEAD")}


def texts(repo: MemoryRepo) -> list[str]:
    return sorted(e.text for e in repo.entries())


def snapshot(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """Every ref and every object file of a bare repository (to prove nothing was written)."""
    refs = subprocess.run(
        ["git", "-C", str(path), "for-each-ref", "--format=%(refname) %(objectname)"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    objects = {str(p.relative_to(path)) for p in (path / "objects").rglob("*") if p.is_file()}
    return frozenset(refs.splitlines()), frozenset(objects)


class _Proxy:
    """A TCP proxy in front of the daemon: listens on a free port, hands each accepted
    connection (numbered from 1) to `_serve` on its own thread."""

    def __init__(self, daemon: GitDaemon) -> None:
        self.daemon = daemon
        self.port = free_port()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._threads: list[threading.Thread] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, name: str) -> str:
        return f"git://127.0.0.1:{self.port}/{name}"

    def _accept(self) -> None:
        number = 0
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            number += 1
            thread = threading.Thread(target=self._serve, args=(client, number), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _serve(self, client: socket.socket, number: int) -> None:
        raise NotImplementedError

    def _upstream(self, client: socket.socket) -> socket.socket | None:
        """A connection to the daemon, or None (client closed) when it is down: git
        then sees the connection refused."""
        try:
            return socket.create_connection(("127.0.0.1", self.daemon.port))
        except OSError:
            client.close()
            return None

    def close(self) -> None:
        _stop_listening(self._server)
        for thread in self._threads:
            thread.join(timeout=STARTUP_SECONDS)


class CutProxy(_Proxy):
    """A proxy that kills the daemon after `after_bytes` in one direction.

    `direction` "down" counts bytes the server sends (a fetch's pack), "up" bytes the
    client sends (a push's pack). Once the count is passed the daemon's process group is
    killed and both sockets are closed: the transfer dies in the middle. It cuts once;
    later connections (after the daemon is started again) pass through untouched.
    """

    def __init__(self, daemon: GitDaemon, direction: str, after_bytes: int) -> None:
        self.direction = direction
        self.after_bytes = after_bytes
        self.cut = threading.Event()
        super().__init__(daemon)

    def _serve(self, client: socket.socket, number: int) -> None:
        upstream = self._upstream(client)
        if upstream is None:
            return
        counted = {"up": 0, "down": 0}
        back = threading.Thread(
            target=self._pump, args=(upstream, client, "down", counted, (client, upstream)),
            daemon=True,
        )  # fmt: skip
        back.start()
        self._pump(client, upstream, "up", counted, (client, upstream))
        back.join(timeout=STARTUP_SECONDS)

    def _pump(
        self,
        src: socket.socket,
        dst: socket.socket,
        name: str,
        counted: dict[str, int],
        pair: tuple[socket.socket, socket.socket],
    ) -> None:
        try:
            while data := src.recv(4096):
                counted[name] += len(data)
                cutting = name == self.direction and not self.cut.is_set()
                if cutting and counted[name] > self.after_bytes:
                    self.cut.set()
                    self.daemon.kill()
                    return
                dst.sendall(data)
        except OSError:
            return
        finally:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


class GateProxy(_Proxy):
    """A proxy that holds its `hold`-th connection (a sync's fetch is its first git
    command, its push the second) until `release()`: a remote that hangs in the middle
    of a sync. Other connections pass straight through.
    """

    def __init__(self, daemon: GitDaemon, hold: int) -> None:
        self.hold = hold
        self.holding = threading.Event()
        self._released = threading.Event()
        super().__init__(daemon)

    def release(self) -> None:
        self._released.set()

    def _serve(self, client: socket.socket, number: int) -> None:
        if number == self.hold:
            self.holding.set()
            self._released.wait(timeout=60)
        upstream = self._upstream(client)
        if upstream is None:
            return
        with client, upstream:
            back = threading.Thread(target=_pipe, args=(upstream, client), daemon=True)
            back.start()
            _pipe(client, upstream)
            back.join(timeout=60)

    def close(self) -> None:
        self.release()
        super().close()


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    """Copy until `src` ends, then end the write side of `dst`."""
    with contextlib.suppress(OSError):
        while data := src.recv(65536):
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)


def _stop_listening(server: socket.socket) -> None:
    """Close a listening socket so that its port is free again. `close()` alone does not
    wake a thread blocked in `accept()`, which keeps the socket listening; a later test
    that got the same port from `free_port` would then share it with a dead proxy."""
    with contextlib.suppress(OSError):
        server.shutdown(socket.SHUT_RDWR)
    server.close()
