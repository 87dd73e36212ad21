"""What an import reads: the format named, the shape found at the path, and its facts.

One format name covers every shape its tool leaves on disk, told apart by what is at
the path, so a user never has to know which of a tool's files they hold:

* `claude-code`: an auto-memory folder (it has `MEMORY.md`), a project folder (it has
  `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` or `.claude/rules/`), `~/.claude`,
  or one CLAUDE.md file;
* `letta`: a MemFS folder, or an agent file (`.af`, one JSON document);
* `mem0`: mem0's `get_all` output as one JSON document (a document starts with `[`, or
  with a `{` that does not close on its first line, or is one line holding a `results`
  list), or its memories one per line;
* `openmemory`: OpenMemory's export zip, its `memories.json` or `memories.jsonl.gz`;
* `jsonl`: one memory per line, or any of the JSON documents above.

However a file is packed (zipped, gzipped, UTF-16, double-encoded) it is unpacked first
(`import_files`), and an OpenMemory export is read as one under any JSON format name, so
its deleted memories never import as live facts because of the name it was given.

Each shape has a title (commit messages) and a stem (`imports/<stem>.md`): a mem0
document lands in `imports/mem0.md` whichever name it was imported under, so importing
it again under the other name still finds what the first import wrote. A Claude Code
project's memory also has a label, the project's name, so each project lands in
`imports/claude-code/<project>.md` and names its project in every `source`; the user's
own `~/.claude` has none and lands in `imports/claude-code.md`.

A mem0 document and JSONL are streamed, so neither has a size limit (a one-line
document of 40,000 memories is one document, not a JSONL line too long to read). A
Letta agent file and OpenMemory's `memories.json` are read whole, up to 64 MiB.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import Fact, Rejected, read_agent_file
from memrepo.formats.importers.claude_code import INDEX_FILE
from memrepo.formats.importers.mem0 import LIST_KEYS, read_stream
from memrepo.formats.importers.openmemory import (
    DOCUMENT_MEMBER,
    LINES_MEMBER,
    is_openmemory,
    read_openmemory,
)
from memrepo.layout import slugify
from memrepo.transfer.import_claude import RULES_DIR, auto_memory, claude_md, has_claude_md
from memrepo.transfer.import_files import (
    MAX_DOCUMENT_BYTES,
    Input,
    file_input,
    inputs_of,
    is_zip,
    member,
    unpacked,
    zip_names,
)
from memrepo.transfer.sources import MAX_LINE_BYTES, read_jsonl_stream, read_source

Item = Fact | Rejected
__all__ = ["MAX_DOCUMENT_BYTES", "Source", "is_json_document", "open_source"]
_BLANK_LINES = 100  # blank lines looked past for the first line that says the shape
# OpenMemory writes `json.dumps(payload, indent=2)` with `user` first, then `apps`.
_OPENMEMORY_HEAD = re.compile(rb'^\s*\{\s*"user"\s*:\s*\{')
_STREAM_ERRORS = (EOFError, OSError, zlib.error, zipfile.BadZipFile)
_NAMES = {"jsonl": ("JSONL", "jsonl"), "mem0": ("mem0", "mem0")}


@dataclass(frozen=True, slots=True)
class Source:
    """The facts at a path, lazily, with how the import names what it read: a title
    for commit messages, a stem for `imports/<stem>.md`, and a label (the project a
    Claude Code memory belongs to) when the source belongs to one."""

    title: str
    stem: str
    items: Iterator[Item]
    label: str | None = None


def open_source(fmt: str, path: Path, *, home: Path) -> Source:
    """The source at `path` read as `fmt`; ImportSourceError at once when `path` is no
    shape of that format or a whole document is broken (streamed shapes may still raise
    while read, which is before the import writes anything)."""
    opener = _OPENERS.get(fmt)
    if opener is None:
        raise ImportSourceError(f"unknown import format {fmt!r}: use {', '.join(_OPENERS)}")
    return opener(path, home)


def _claude_code(path: Path, home: Path) -> Source:
    if path.is_dir() and has_claude_md(path):
        return Source("Claude Code", "claude-code", claude_md(path, home), _project(path, home))
    if path.is_dir() and (path / INDEX_FILE).is_file():
        return Source("Claude Code", "claude-code", auto_memory(path), _memory_project(path, home))
    if path.is_file() and path.suffix.lower() == ".md":
        label = _project(path.parent, home)
        return Source("Claude Code", "claude-code", claude_md(path, home), label)
    raise ImportSourceError(
        f"{path}: no {INDEX_FILE}, CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md or "
        f"{RULES_DIR}/; --from claude-code reads an auto-memory folder (~/.claude/projects/"
        "<project>/memory), a project folder, ~/.claude or a CLAUDE.md file"
    )


def _project(folder: Path, home: Path) -> str | None:
    """The project a CLAUDE.md folder belongs to: its name; None for the user's own
    (`~/.claude`, or the home folder itself)."""
    folder = Path(os.path.normpath(folder.absolute()))
    if folder in (home, home / ".claude"):
        return None
    if folder.name == ".claude":
        folder = folder.parent  # a project's .claude/CLAUDE.md named directly
    return slugify(folder.name) or None


def _memory_project(folder: Path, home: Path) -> str | None:
    """The project of an auto-memory folder, `~/.claude/projects/<project>/memory`.

    Claude Code names `<project>` after the project's path with every `/` made `-`
    (`-home-dana-code-acme-api`); the home folder's part is dropped, so the label says
    which project without naming this machine's folders (`code-acme-api`)."""
    folder = Path(os.path.normpath(folder.absolute()))
    if folder.name != "memory":
        return slugify(folder.name) or None
    encoded = folder.parent.name
    if folder.parent.parent.name == "projects":
        home_part = re.sub(r"[^A-Za-z0-9]", "-", str(home))
        encoded = encoded.removeprefix(home_part)
    return slugify(encoded.strip("-")) or None


def _letta(path: Path, home: Path) -> Source:
    if path.is_file():
        return Source("Letta", "letta", _agent_files(path))
    if not path.is_dir():
        raise ImportSourceError(
            f"{path}: not a folder; --from letta reads a MemFS memory folder or an .af file"
        )
    return Source("Letta", "letta", read_source("letta", path))


def _agent_files(path: Path) -> Iterator[Item]:
    for got in inputs_of(path):
        if isinstance(got, Rejected):
            yield got
        else:
            yield from read_agent_file(got.whole(), got.name)


def _jsonl(path: Path, home: Path) -> Source:
    return _json_source("jsonl", path)


def _mem0(path: Path, home: Path) -> Source:
    return _json_source("mem0", path)


def _openmemory(path: Path, home: Path) -> Source:
    _require_file(path, "openmemory", "OpenMemory's export zip or its memories.json")
    if is_zip(path):
        return _openmemory_zip(path) or _refuse_zip(path)
    raw = unpacked(file_input(path))
    if is_json_document(raw):
        return Source("OpenMemory", "openmemory", _openmemory_document(raw))
    return Source("OpenMemory", "openmemory", _lines(raw))


def _json_source(fmt: str, path: Path) -> Source:
    """A JSON or JSONL file under `--from jsonl` or `mem0`, however it is packed."""
    _require_file(path, fmt, "one JSONL file or JSON document")
    if is_zip(path):
        openmemory = _openmemory_zip(path)
        if openmemory is not None:
            return openmemory
        title, stem = _NAMES[fmt]
        return Source(title, stem, _zip_items(path))
    raw = unpacked(file_input(path))
    if not is_json_document(raw):
        title, stem = _NAMES[fmt]
        return Source(title, stem, _lines(raw))
    if _OPENMEMORY_HEAD.match(raw.head(4096)):
        return Source("OpenMemory", "openmemory", _openmemory_document(raw))
    return Source("mem0", "mem0", _streamed(raw))


def _openmemory_zip(path: Path) -> Source | None:
    """OpenMemory's export zip (its `memories.json`, else `memories.jsonl.gz`), or None
    when the zip is not one."""
    names = {name.rsplit("/", 1)[-1]: name for name in zip_names(path)}
    if DOCUMENT_MEMBER in names:
        document = member(path, names[DOCUMENT_MEMBER])
        return Source("OpenMemory", "openmemory", _openmemory_document(document))
    if LINES_MEMBER in names:
        return Source("OpenMemory", "openmemory", _lines(member(path, names[LINES_MEMBER])))
    return None


def _refuse_zip(path: Path) -> Source:
    names = ", ".join(zip_names(path)[:5]) or "nothing"
    raise ImportSourceError(
        f"{path.name}: a zip without {DOCUMENT_MEMBER} or {LINES_MEMBER} (it holds {names}): "
        "not an OpenMemory export"
    )


def _zip_items(path: Path) -> Iterator[Item]:
    """Every memory file of a zip, each read as what it is (a document or lines)."""
    for got in inputs_of(path):
        if isinstance(got, Rejected):
            yield got
        elif is_json_document(got):
            yield from _streamed(got)
        else:
            yield from _lines(got)


def _openmemory_document(raw: Input) -> Iterator[Item]:
    data = raw.whole()
    try:
        document = json.loads(data.decode("utf-8", "surrogateescape").lstrip("\ufeff"))
    except (ValueError, RecursionError):
        document = None  # read_openmemory says what is wrong with it
    mem0 = isinstance(document, dict) and not is_openmemory(document)
    if mem0 and any(isinstance(document.get(k), list) for k in LIST_KEYS):
        yield from _streamed(raw)  # a mem0 document after all
        return
    yield from read_openmemory(data, raw.name)


def _require_file(path: Path, fmt: str, what: str) -> None:
    if not path.is_file():
        raise ImportSourceError(f"{path}: not a file; --from {fmt} reads {what}")


_OPENERS: dict[str, Callable[[Path, Path], Source]] = {
    "claude-code": _claude_code,
    "letta": _letta,
    "mem0": _mem0,
    "openmemory": _openmemory,
    "jsonl": _jsonl,
}


def is_json_document(raw: Input) -> bool:
    """Whether an input is one JSON document rather than JSON lines (see the module)."""
    with raw.open() as handle:
        line = handle.readline(MAX_LINE_BYTES + 1).removeprefix(b"\xef\xbb\xbf")
        for _ in range(_BLANK_LINES):
            if line.strip():
                break
            line = handle.readline(MAX_LINE_BYTES + 1)
    text = line.strip()
    if text.startswith(b"["):
        return True
    if not text.startswith(b"{"):
        return False
    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
        return True  # longer than any JSONL line may be: one document on one line
    decoded = text.decode("utf-8", "surrogateescape")  # a bad byte is one row's problem
    try:
        value = json.loads(decoded)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(decoded)  # the object goes on past its first line: pretty JSON
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and any(isinstance(value.get(k), list) for k in LIST_KEYS)


def _streamed(raw: Input) -> Iterator[Item]:
    with raw.open() as handle:
        yield from _guarded(raw.name, read_stream(handle.read, raw.name))


def _lines(raw: Input) -> Iterator[Item]:
    with raw.open() as handle:
        yield from _guarded(raw.name, read_jsonl_stream(handle, raw.name))


def _guarded(name: str, items: Iterator[Item]) -> Iterator[Item]:
    """The items of a stream that may break off (a truncated gzip or zip member): what
    was read is kept, the break is one problem."""
    count = 0
    try:
        for item in items:
            count += 1
            yield item
    except _STREAM_ERRORS as exc:
        yield Rejected(
            name,
            None,
            "truncated",
            f"breaks off after {count} rows ({exc or type(exc).__name__}); the rows before "
            "it were read",
        )
