"""What an import reads: the format named, the shape found at the path, and its facts.

One format name covers every shape its tool leaves on disk, told apart by what is at
the path, so a user never has to know which of a tool's files they hold:

* `claude-code`: an auto-memory folder (it has `MEMORY.md`), a project folder or
  `~/.claude` (it has `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md`), or one
  CLAUDE.md file;
* `letta`: a MemFS folder, or an agent file (`.af`, one JSON document);
* `jsonl`: one memory per line, or one JSON document of memories (mem0's `get_all`
  output, whatever the file is called): a document starts with `[`, or with a `{` that
  does not close on its first line, or is one line holding a `results` list;
* `mem0` (when the format list names it): the same two shapes, as mem0.

Each shape has a title (commit messages) and a stem (`imports/<stem>.md`): a mem0
document lands in `imports/mem0.md` whichever name it was imported under, so importing
it again under the other name still finds what the first import wrote.

A mem0 document and JSONL are streamed, so neither has a size limit (a one-line
document of 40,000 memories is one document, not a JSONL line too long to read). A
Letta agent file is read whole, so it is refused above `MAX_DOCUMENT_BYTES` with a hint.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import Fact, Rejected, read_agent_file
from memrepo.formats.importers.claude_code import INDEX_FILE
from memrepo.formats.importers.mem0 import LIST_KEYS, read_stream
from memrepo.transfer.import_claude import auto_memory, claude_md, has_claude_md
from memrepo.transfer.sources import MAX_LINE_BYTES, read_jsonl_stream, read_source

Item = Fact | Rejected
MAX_DOCUMENT_BYTES = 64 << 20
_BLANK_LINES = 100  # blank lines looked past for the first line that says the shape


@dataclass(frozen=True, slots=True)
class Source:
    """The facts at a path, lazily, with how the import names what it read."""

    title: str
    stem: str
    items: Iterator[Item]


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
        return Source("Claude Code", "claude-code", claude_md(path, home))
    if path.is_dir() and (path / INDEX_FILE).is_file():
        return Source("Claude Code", "claude-code", auto_memory(path))
    if path.is_file() and path.suffix.lower() == ".md":
        return Source("Claude Code", "claude-code", claude_md(path, home))
    raise ImportSourceError(
        f"{path}: no {INDEX_FILE}, CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md; "
        "--from claude-code reads an auto-memory folder (~/.claude/projects/<project>/"
        "memory), a project folder, ~/.claude or a CLAUDE.md file"
    )


def _letta(path: Path, home: Path) -> Source:
    if path.is_file():
        return Source("Letta", "letta", iter(read_agent_file(_document(path), path.name)))
    if not path.is_dir():
        raise ImportSourceError(
            f"{path}: not a folder; --from letta reads a MemFS memory folder or an .af file"
        )
    return Source("Letta", "letta", read_source("letta", path))


def _jsonl(path: Path, home: Path) -> Source:
    if not path.is_file():
        raise ImportSourceError(f"{path}: not a file; --from jsonl reads one JSONL file")
    if is_json_document(path):
        return _mem0_document(path)
    return Source("JSONL", "jsonl", _lines(path))


def _mem0(path: Path, home: Path) -> Source:
    if not path.is_file():
        raise ImportSourceError(
            f"{path}: not a file; --from mem0 reads a get_all export (JSON or JSONL)"
        )
    if is_json_document(path):
        return _mem0_document(path)
    return Source("mem0", "mem0", _lines(path))


_OPENERS: dict[str, Callable[[Path, Path], Source]] = {
    "claude-code": _claude_code,
    "letta": _letta,
    "jsonl": _jsonl,
    "mem0": _mem0,
}


def is_json_document(path: Path) -> bool:
    """Whether a file is one JSON document rather than JSON lines (see the module)."""
    with open(path, "rb") as handle:
        raw = handle.readline(MAX_LINE_BYTES + 1).removeprefix(b"\xef\xbb\xbf")
        for _ in range(_BLANK_LINES):
            if raw.strip():
                break
            raw = handle.readline(MAX_LINE_BYTES + 1)
    text = raw.strip()
    if text.startswith(b"["):
        return True
    if not text.startswith(b"{"):
        return False
    if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
        return True  # longer than any JSONL line may be: one document on one line
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(text)  # the object goes on past its first line: pretty JSON
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and any(isinstance(value.get(k), list) for k in LIST_KEYS)


def _mem0_document(path: Path) -> Source:
    return Source("mem0", "mem0", _streamed(path))


def _streamed(path: Path) -> Iterator[Item]:
    with open(path, "rb") as handle:
        yield from read_stream(handle.read, path.name)


def _document(path: Path) -> bytes:
    """A whole JSON document, refused when it is too large to hold."""
    size = path.stat().st_size
    if size > MAX_DOCUMENT_BYTES:
        raise ImportSourceError(
            f"{path.name}: {size:,} bytes; a JSON document is read whole, at most "
            f"{MAX_DOCUMENT_BYTES >> 20} MiB: export it in parts, or as JSONL (one memory "
            "per line), which is streamed (nothing was imported)"
        )
    with open(path, "rb") as handle:
        return handle.read(MAX_DOCUMENT_BYTES + 1)


def _lines(path: Path) -> Iterator[Item]:
    with open(path, "rb") as handle:
        yield from read_jsonl_stream(handle, path.name)
