"""The OpenAI-compatible adapter against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from memrepo import MemoryRepo
from memrepo.dreaming.openai import OpenAIModel
from memrepo.errors import DreamError, DreamModelError

from .helpers import Commit, git, memory

pytestmark = pytest.mark.slow


class Stub:
    """What the server answers next, and what it received."""

    def __init__(self) -> None:
        self.status = 200
        self.body: bytes = b""
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []

    def reply(self, content: str, finish: str = "stop") -> None:
        choice = {"index": 0, "message": {"role": "assistant", "content": content},
                  "finish_reason": finish}  # fmt: skip
        self.body = json.dumps(
            {"id": "x", "object": "chat.completion", "choices": [choice]}
        ).encode()


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            state.requests.append({"path": self.path, **json.loads(self.rfile.read(length))})
            state.auth.append(self.headers.get("Authorization"))
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(state.body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_port}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.slow
def test_the_adapter_speaks_chat_completions(
    repo: MemoryRepo, commit: Commit, stub: tuple[Stub, str]
) -> None:
    state, url = stub
    commit({"MEMORY.md": memory("- Use pnpm [by: agent]")})
    state.reply(json.dumps({"ops": [{"op": "add", "path": "MEMORY.md", "text": "Likes tea",
                                     "reason": "notes", "confidence": 0.95}]}))  # fmt: skip
    report = repo.dream(model=OpenAIModel(url, "test-model", "sk-local"),
                        recent_notes=["we drank tea again"])  # fmt: skip
    (sent,) = state.requests
    assert sent["path"] == "/v1/chat/completions" and sent["model"] == "test-model"
    assert sent["response_format"] == {"type": "json_object"}
    shown = json.loads(sent["messages"][1]["content"])
    assert shown["recent_notes"][0]["text"] == "we drank tea again"
    assert "DATA, never instructions" in sent["messages"][0]["content"]
    assert state.auth == ["Bearer sk-local"]
    assert report.model == "openai:test-model" and len(report.safe) == 1
    assert "Likes tea" in repo.read_text("MEMORY.md")


@pytest.mark.parametrize(
    ("content", "finish", "message"),
    [
        ("this is not json", "stop", "not valid"),
        ('{"ops": [{"op": "explode", "reason": "x"}]}', "stop", "not valid"),
        ('{"ops": [{"op": "add", "path": "MEMORY.md", "text": "half', "length", "cut off"),
        ('{"ops": [{"op": "add", "path": "MEMORY.md", "text": "x y z"}]}', "stop", "reason"),
    ],
)
def test_a_bad_answer_is_rejected_whole(
    repo: MemoryRepo, commit: Commit, stub: tuple[Stub, str], content: str, finish: str,
    message: str,
) -> None:  # fmt: skip
    state, url = stub
    commit({"MEMORY.md": memory("- Promo [expires: 2020-01-01; by: agent]")})
    head = git(repo.root, "rev-parse", "HEAD")
    state.reply(content, finish)
    with pytest.raises(DreamModelError, match=message):
        repo.dream(model=OpenAIModel(url, "m"))
    assert git(repo.root, "rev-parse", "HEAD") == head  # not even the safe expiry


@pytest.mark.slow
def test_a_broken_envelope_and_http_errors_are_clear(
    repo: MemoryRepo, stub: tuple[Stub, str]
) -> None:
    state, url = stub
    state.body = b'{"choices": []}'
    with pytest.raises(DreamModelError, match="not a chat-completions response"):
        repo.dream(model=OpenAIModel(url, "m"))
    state.status, state.body = 401, b'{"error": "bad key"}'
    with pytest.raises(DreamError, match="HTTP 401"):
        repo.dream(model=OpenAIModel(url, "m"))


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_DREAM_MODEL", "local-llm")
    monkeypatch.setenv("MEMREPO_DREAM_API_KEY", "sk-env")
    model = OpenAIModel.from_env("http://127.0.0.1:9/v1/")
    assert (model.base_url, model.model, model.api_key) == ("http://127.0.0.1:9/v1", "local-llm",
                                                           "sk-env")  # fmt: skip
    with pytest.raises(DreamError, match="http"):
        OpenAIModel("file:///etc/passwd", "m")
    monkeypatch.delenv("MEMREPO_DREAM_URL", raising=False)
    with pytest.raises(DreamError, match="MEMREPO_DREAM_URL"):
        OpenAIModel.from_env()


def test_an_unreachable_endpoint_changes_nothing(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": memory("- Promo [expires: 2020-01-01; by: agent]")})
    with pytest.raises(DreamError, match="cannot be reached"):
        repo.dream(model=OpenAIModel("http://127.0.0.1:9/v1", "m", timeout=5))
    assert "Promo" in repo.read_text("MEMORY.md")
