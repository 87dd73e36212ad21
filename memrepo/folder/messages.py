"""Commit messages memrepo writes: one summary line, a blank line, git trailers.

Trailers (`Memrepo-Origin:`, `Memrepo-By:`, `Memrepo-Task:`, `Memrepo-Undoes:`) are how
`log` and `undo` tell memrepo's commits and their intent apart from commits people make.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pygit2

from memrepo.hygiene import redact_secrets
from memrepo.models import CommitInfo

ORIGIN = "Memrepo-Origin"
BY = "Memrepo-By"
TASK = "Memrepo-Task"
UNDOES = "Memrepo-Undoes"

_TRAILER = re.compile(r"^(Memrepo-[A-Za-z]+):[ \t]*(.*?)\s*$")
_SUMMARY_CHARS = 72


def summarize(verb: str, text: str) -> str:
    """A one-line summary that never carries a line break (or a secret: redacted before
    the cut, which could leave half a token no detector knows) from memory text."""
    flat = " ".join(redact_secrets(text)[0].split())
    line = f"{verb}: {flat}"
    if len(line) > _SUMMARY_CHARS:
        line = line[: _SUMMARY_CHARS - 1].rstrip() + "…"
    return line


def build_message(
    summary: str,
    *,
    origin: str,
    by: str,
    task: str | None = None,
    undoes: str | None = None,
    body: str = "",
) -> str:
    """The full commit message with memrepo's trailers. Summary, body and task are
    screened: they may quote entry text or names people wrote (no secret in history)."""
    summary, body = redact_secrets(summary)[0], redact_secrets(body)[0]
    task = redact_secrets(task)[0] if task else task
    trailers = [f"{ORIGIN}: {origin}", f"{BY}: {by}"]
    if task:
        trailers.append(f"{TASK}: {' '.join(task.split())}")
    if undoes:
        trailers.append(f"{UNDOES}: {undoes}")
    parts = [summary]
    if body:
        parts.append(body.rstrip("\n"))
    parts.append("\n".join(trailers))
    return "\n\n".join(parts) + "\n"


def parse_trailers(message: str) -> dict[str, str]:
    """Memrepo trailers of the message's last paragraph (where git puts trailers)."""
    last = message.rstrip("\n").rsplit("\n\n", 1)[-1]
    found: dict[str, str] = {}
    for line in last.splitlines():
        match = _TRAILER.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def commit_info(commit: pygit2.Commit, paths: tuple[str, ...] = ()) -> CommitInfo:
    """A CommitInfo for a pygit2 commit."""
    message = commit.message
    trailers = parse_trailers(message)
    tz = timezone(timedelta(minutes=commit.author.offset))
    return CommitInfo(
        id=str(commit.id),
        summary=message.split("\n", 1)[0],
        message=message,
        author=f"{commit.author.name} <{commit.author.email}>",
        time=datetime.fromtimestamp(commit.author.time, tz),
        origin=trailers.get(ORIGIN),
        by=trailers.get(BY),
        task=trailers.get(TASK),
        undoes=trailers.get(UNDOES),
        paths=paths,
    )
