"""Helpers the dreaming tests share: the fixed time, the git CLI, MEMORY.md text."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

Commit = Callable[..., None]  # (files: {path: text}, message=...)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def memory(*entries: str, index: tuple[str, ...] = ()) -> str:
    """MEMORY.md text with these entry lines and Index links."""
    body = "".join(f"{e}\n" for e in entries)
    links = "".join(f"- [[{t}]]\n" for t in index)
    return f"# Memory\n\n{body}\n## Index\n{links}"
