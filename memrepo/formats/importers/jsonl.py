"""JSONL fact dumps: one JSON object per line with at least a text field.

Field names differ between tools (mem0 writes `memory`, others `text`, `content` or
`fact`), so each meaning accepts the usual spellings; the first one present wins. A
created time may be an ISO date or datetime or a Unix timestamp (seconds or milliseconds)
and is kept as its UTC date. `user_id` and `agent_id` are kept as who the fact concerns
and who wrote it. `private`, `contact`, `task_id`, `scope` and `workspace` let a dump say
where a fact belongs (memrepo's own `export --format jsonl` writes them); they are read
from the object or from its `metadata` object, where mem0 keeps what its caller added.
Privacy and the person a row is about are read in every spelling exporters use (see
`privacy.py`); a row whose privacy cannot be read is rejected (`privacy_unreadable`),
and so is a row holding a lone UTF-16 surrogate (`\\ud800` in JSON is valid JSON but
no character: it could be neither stored nor committed).

A mem0 memory (see `mem0.py`) also keeps its `id` (the memory's identity: a changed
memory supersedes the old one, a deleted one is reported), `categories`, `updated_at`,
`expiration_date` (memrepo's `expires`), `immutable` (kept as `immutable: yes`) and the
rest of its `metadata`.

A row with a `state` other than `active` (OpenMemory's `paused`, `archived` and
`deleted`; see `openmemory.py`) is not live memory in its own tool: it is skipped, by
that state as its reason. A line holding a JSON string of an object (a row encoded
twice) is read as that object. A string holding bytes that were not UTF-8 (decoded with
`surrogateescape` by the document reader) is rejected as `not_utf8`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime

from memrepo.formats.importers.model import Fact, Rejected
from memrepo.formats.importers.privacy import PRIVATE_SCOPES, fold, is_privacy_key, read_privacy

TEXT_KEYS = ("text", "content", "memory", "fact")
CREATED_KEYS = ("created_at", "created", "date", "timestamp", "added")
UPDATED_KEYS = ("updated_at", "updated")
EXPIRES_KEYS = ("expiration_date", "expires_at", "expires")
_ALIASES: dict[str, tuple[str, ...]] = {
    "subject": ("subject", "subject_key"),
    "kind": ("kind", "type", "category"),
    "user_id": ("user_id", "user"),
    "agent_id": ("agent_id", "agent"),
    "workspace": ("workspace", "workspace_id"),
    "task_id": ("task_id", "task"),
    "scope": ("scope",),
}
#: Metadata keys memrepo reads as routing (above), never repeated as plain metadata.
_ROUTING = frozenset(k for keys in _ALIASES.values() for k in keys)
_MS_THRESHOLD = 100_000_000_000  # a Unix time this large is in milliseconds
_MAX_META_CHARS = 300
_MAX_WALK = 64
_BAD_BYTES = "bytes:"
_META_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,40}$")
#: States in which a memory is not live in its tool (OpenMemory's `MemoryState`).
NOT_LIVE = frozenset({"paused", "archived", "deleted"})
_NOT_LIVE_WHY = {
    "paused": "paused there (apps are not given it)",
    "archived": "archived there",
    "deleted": "deleted there",
}


def read_line(raw: bytes, line: int, path: str) -> Fact | Rejected | None:
    """The fact on one line (`line` is 1-based); None for a blank line."""
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")  # a UTF-8 BOM opens line 1
    except UnicodeDecodeError as exc:
        return Rejected(path, line, "not_utf8", f"line {line} is not UTF-8 (byte {exc.start})")
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return Rejected(path, line, "invalid_json", f"line {line} is not JSON: {exc}")
    if isinstance(data, str) and data.lstrip().startswith("{"):
        try:
            data = json.loads(data)  # a row encoded twice: a string holding its JSON
        except (ValueError, RecursionError) as exc:
            return Rejected(path, line, "invalid_json", f"line {line} is not JSON: {exc}")
    if not isinstance(data, dict):
        return Rejected(path, line, "not_an_object", f"line {line} is not a JSON object")
    return read_object(data, path, line, where=f"line {line}")


def read_object(data: Mapping[str, object], path: str, line: int, *, where: str) -> Fact | Rejected:
    """The fact of one JSON object (a JSONL line, or one memory of a document)."""
    surrogate = _surrogate_in(data)
    if surrogate is not None and surrogate.startswith(_BAD_BYTES):
        return Rejected(
            path,
            line,
            "not_utf8",
            f"{where}: {surrogate.removeprefix(_BAD_BYTES)} holds bytes that are not UTF-8; "
            "skipped (re-export the file as UTF-8)",
        )
    if surrogate is not None:
        return Rejected(
            path,
            line,
            "lone_surrogate",
            f"{where}: {surrogate} holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape "
            "without its pair), which is no character; skipped",
        )
    state = data.get("state")
    if isinstance(state, str) and state.strip().lower() in NOT_LIVE:
        state = state.strip().lower()
        return Rejected(path, line, state, f"{where}: {_NOT_LIVE_WHY[state]}", quiet=True)
    body = _first_text(data, TEXT_KEYS)
    if body is None:
        wanted = ", ".join(TEXT_KEYS)
        return Rejected(path, line, "no_text", f"{where} has no text field ({wanted})")
    privacy = read_privacy(data)
    if privacy.held_back:
        return Rejected(
            path,
            line,
            "privacy_unreadable",
            f"{where}: its privacy cannot be read: {privacy.unreadable}; held back, not "
            "imported (fix the value to true/false or private/public and import again)",
        )
    extra = data.get("metadata")
    notes = {str(k): v for k, v in extra.items()} if isinstance(extra, dict) and extra else {}
    merged = {**notes, **data} if notes else data  # the object's own fields win
    fields = {name: _first_id(merged, keys) for name, keys in _ALIASES.items()}
    if fields["scope"] is not None and fold(fields["scope"]) in PRIVATE_SCOPES:
        fields["scope"] = None  # `scope: private` is privacy, not one of memrepo's scopes
    private = privacy.private
    created = _date_of(data, CREATED_KEYS)
    memory_id = _first_id(data, ("id",))
    if memory_id and "memory" in data and fields["subject"] is None:
        fields["subject"] = f"mem0:{memory_id}"  # a changed mem0 memory supersedes its old text
    return Fact(
        body,
        path,
        line,
        created=created,
        private=private,
        contact=privacy.contact,
        expires=_date_of(data, EXPIRES_KEYS),
        anchor=memory_id,
        key=f"id:{memory_id}" if memory_id else None,
        meta=_kept(data, notes, created),
        **fields,
    )


def _kept(
    data: Mapping[str, object], notes: dict[str, object], created: str | None
) -> tuple[tuple[str, str], ...]:
    """What an entry keeps of a memory beyond its text: categories, the update date and
    the caller's metadata (as `metadata: key=value, ...`, so its keys never collide
    with memrepo's own)."""
    kept: list[tuple[str, str]] = []
    categories = data.get("categories")
    if isinstance(categories, list):
        names = [" ".join(str(c).split()) for c in categories if isinstance(c, str | int)]
        if names := [n for n in names if n]:
            kept.append(("categories", ", ".join(names)))
    updated = _date_of(data, UPDATED_KEYS)
    if updated and updated != created:
        kept.append(("updated", updated))
    if data.get("immutable") is True:
        kept.append(("immutable", "yes"))  # mem0 refuses to update it; say so here too
    pairs = [
        f"{key}={_compact(value)}"
        for key, value in sorted(notes.items())
        if key not in _ROUTING
        and not is_privacy_key(key)
        and _META_KEY.match(key)
        and value not in (None, "", [], {})
    ]
    if pairs:
        joined = ", ".join(pairs)
        cut = joined[:_MAX_META_CHARS]
        kept.append(("metadata", cut if cut == joined else cut.rstrip() + "..."))
    return tuple(kept)


def _surrogate_in(value: object, where: str = "the row", depth: int = 0) -> str | None:
    """Where a string of a parsed row holds a lone surrogate (None if nowhere).

    Python's json module decodes a lone `\\ud800` escape into a str that UTF-8 cannot
    encode; such a row would fail at the first hash, file or commit it reached. A place
    holding an escaped undecodable byte (U+DC80-U+DCFF, `surrogateescape`) is prefixed
    with `_BAD_BYTES`."""
    if isinstance(value, str):
        if value.isascii():
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = value[exc.start]
            return f"{_BAD_BYTES}{where}" if "\udc80" <= bad <= "\udcff" else where
        return None
    if depth > _MAX_WALK:
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _surrogate_in(key, "a key", depth + 1) or _surrogate_in(
                item, f"`{key}`" if key.isascii() else "a value", depth + 1
            )
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _surrogate_in(item, where, depth + 1)
            if found is not None:
                return found
    return None


def _compact(value: object) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _first_text(data: Mapping[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _first_id(data: Mapping[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, str | int):
            text = " ".join(str(value).split())
            if text:
                return text
    return None


def _date_of(data: Mapping[str, object], keys: tuple[str, ...]) -> str | None:
    """The UTC date of the first usable time under `keys`, else None."""
    for key in keys:
        value = data.get(key)
        if value is None:
            continue
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
