"""JSONL fact dumps: one JSON object per line with at least a text field.

Field names differ between tools (mem0 writes `memory`, others `text`, `content` or
`fact`), so each meaning accepts the usual spellings; the first one present wins. A
created time may be an ISO date or datetime or a Unix timestamp (seconds or milliseconds)
and is kept as its UTC date. `user_id` and `agent_id` are kept as who the fact concerns
and who wrote it. `private`, `contact`, `task_id`, `scope` and `workspace` let a dump say
where a fact belongs (memrepo's own `export --format jsonl` writes them).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

from memrepo.formats.importers.model import Fact, Rejected

TEXT_KEYS = ("text", "content", "memory", "fact")
CREATED_KEYS = ("created_at", "created", "date", "timestamp", "added")
_ALIASES: dict[str, tuple[str, ...]] = {
    "subject": ("subject", "subject_key"),
    "kind": ("kind", "type", "category"),
    "user_id": ("user_id", "user"),
    "agent_id": ("agent_id", "agent"),
    "workspace": ("workspace", "workspace_id"),
    "contact": ("contact", "contact_ref"),
    "task_id": ("task_id", "task"),
    "scope": ("scope",),
}
_MS_THRESHOLD = 100_000_000_000  # a Unix time this large is in milliseconds


def read_line(raw: bytes, line: int, path: str) -> Fact | Rejected | None:
    """The fact on one line (`line` is 1-based); None for a blank line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Rejected(path, line, "not_utf8", f"line {line} is not UTF-8 (byte {exc.start})")
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return Rejected(path, line, "invalid_json", f"line {line} is not JSON: {exc}")
    if not isinstance(data, dict):
        return Rejected(path, line, "not_an_object", f"line {line} is not a JSON object")
    body = _first_text(data, TEXT_KEYS)
    if body is None:
        wanted = ", ".join(TEXT_KEYS)
        return Rejected(path, line, "no_text", f"line {line} has no text field ({wanted})")
    fields = {name: _first_id(data, keys) for name, keys in _ALIASES.items()}
    private = data.get("private") is True or data.get("privacy") == "private"
    return Fact(body, path, line, created=_created(data), private=private, **fields)


def _first_text(data: dict[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _first_id(data: dict[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, str | int):
            text = " ".join(str(value).split())
            if text:
                return text
    return None


def _created(data: dict[str, object]) -> str | None:
    """The UTC date of the first usable created time, else None (the import date is used)."""
    for key in CREATED_KEYS:
        value = data.get(key)
        day = _as_date(value)
        if day is not None:
            return day.isoformat()
    return None


def _as_date(value: object) -> date | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = value / 1000 if value > _MS_THRESHOLD else value
        try:
            return datetime.fromtimestamp(seconds, UTC).date()
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        text = value.strip()
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            try:
                return date.fromisoformat(text[:10])
            except ValueError:
                return None
        return moment.astimezone(UTC).date() if moment.tzinfo else moment.date()
    return None
