"""A stand-in for the Messages API on 127.0.0.1 that plays a scripted conversation.

The Anthropic SDK's tool runner talks to it over real HTTP as it talks to the API: each
request gets the next scripted assistant turn (tool_use blocks for the memory tool, then
a closing text), and every request body is kept, so a test reads the tool results the
runner sent back (`is_error` and the text the model would have read).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Script:
    """Turns of tool calls (each a list of memory-command inputs) the model makes."""

    def __init__(self, turns: Sequence[Sequence[dict[str, Any]]]) -> None:
        self.turns = list(turns)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests) - 1
        if n < len(self.turns):
            content = [
                {"type": "tool_use", "id": f"toolu_{n}_{k}", "name": "memory", "input": call}
                for k, call in enumerate(self.turns[n])
            ]
            stop = "tool_use"
        else:
            content, stop = [{"type": "text", "text": "Done."}], "end_turn"
        return {
            "id": f"msg_{n}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-test"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block the runner sent, in order."""
        found = []
        for body in self.requests:
            last = body["messages"][-1]
            if last["role"] == "user" and isinstance(last["content"], list):
                found += [b for b in last["content"] if b.get("type") == "tool_result"]
        return found


@contextmanager
def serving(script: Script) -> Iterator[str]:
    """The base URL of a loopback server answering with `script`."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            body = json.loads(self.rfile.read(length))
            data = json.dumps(script.answer(body)).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def result_text(block: dict[str, Any]) -> str:
    """The text of one tool_result block (a string or text blocks)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])
