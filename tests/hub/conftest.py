"""A real hub: uvicorn on a free 127.0.0.1 port in a thread, over a real memory repo,
and an HTTP client that signs in the way a browser does (the one-time URL, then the
cookie). Nothing here stands in for the repo, git, SQLite or the index."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the Memory Hub is the optional extra memrepo[hub]")

import httpx2

from memrepo import MemoryRepo
from memrepo.hub.app import Hub
from memrepo.hub.serve import bind, server_for
from memrepo.serving import ReadyServer

#: Only a guard against a hang; nothing asserts how fast anything is.
PATIENCE = 60.0
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass
class Served:
    """One running hub and the lines its gate logged."""

    server: ReadyServer
    hub: Hub
    thread: threading.Thread
    root: Path
    lines: list[str] = field(default_factory=list)
    clients: list[httpx2.Client] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.hub.port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> dict[str, str]:
        """The Origin header a browser sends with the hub's own forms."""
        return {"Origin": self.base}

    def client(self) -> httpx2.Client:
        """A client without a session (closed when the hub stops)."""
        client = httpx2.Client(base_url=self.base, timeout=PATIENCE, follow_redirects=False)
        self.clients.append(client)
        return client

    def login(self) -> Browserish:
        """A client that opened a fresh login URL, as a person does."""
        client = self.client()
        response = client.get(self.hub.login_url.removeprefix(self.base))
        assert response.status_code == 303, response.text
        return Browserish(self, client)

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        self.server.should_exit = True
        self.thread.join(timeout=PATIENCE)
        self.clients.clear()


@dataclass
class Browserish:
    """A signed-in HTTP client that posts forms with the CSRF token of the page it read."""

    served: Served
    http: httpx2.Client

    def get(self, to: str, /, **params: str) -> httpx2.Response:
        return self.http.get(to, params=params)

    def csrf(self, path: str = "/") -> str:
        page = self.get(path)
        found = _CSRF.search(page.text)
        assert found is not None, page.text
        return found.group(1)

    def post(
        self, path: str, data: Mapping[str, str | list[str]], *, csrf: bool = True
    ) -> httpx2.Response:
        fields: dict[str, str | list[str]] = dict(data)
        if csrf:
            fields.setdefault("csrf", self.csrf())
        return self.http.post(path, data=fields, headers=self.served.origin)

    def follow(self, response: httpx2.Response) -> httpx2.Response:
        """The page a form's redirect leads to (its message shown once)."""
        assert response.status_code == 303, response.text
        return self.http.get(response.headers["location"])


Serve = Callable[..., Served]


def start_hub(root: Path, port: int = 0) -> Served:
    """Serve the memory repo at `root` on `port` (0: a free one) until `stop()`."""
    repo = MemoryRepo.open(root)
    sock = bind(port)
    ready = threading.Event()
    lines: list[str] = []
    server, hub = server_for(repo, sock, lambda hub: ready.set(), lines.append)

    def run() -> None:
        try:
            server.run(sockets=[sock])
        finally:
            sock.close()
            repo.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(PATIENCE), "the hub did not start"
    return Served(server, hub, thread, root, lines)


@pytest.fixture
def serve() -> Iterator[Serve]:
    """Start hubs (`serve(root)`); each is stopped when the test ends."""
    started: list[Served] = []

    def start(root: Path, port: int = 0) -> Served:
        served = start_hub(root, port)
        started.append(served)
        return served

    try:
        yield start
    finally:
        for served in started:
            served.stop()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "mem"
    MemoryRepo.init(path).close()
    return path
