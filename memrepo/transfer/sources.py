"""Reading an import's input from disk: folders walked safely, JSONL streamed.

A folder is walked without following any symlink: one pointing outside the folder could
pull in any file the user can read (`~/.ssh/...`), so it is reported and skipped; one
pointing inside is skipped silently because its target is imported where it lives. Files
are opened with O_NOFOLLOW so a file swapped for a symlink mid-walk is refused too, and a
markdown file larger than any memory file is refused before it is read.

A JSONL file is read line by line with a bounded line length, so a 2 GB dump (or a file
that is one 2 GB line) costs a bounded amount of memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import (
    Fact,
    Rejected,
    read_block_file,
    read_line,
    read_memory_file,
)
from memrepo.formats.importers.claude_code import INDEX_FILE
from memrepo.models.transfer import ImportFormat

MAX_FILE_BYTES = 8 << 20
MAX_LINE_BYTES = 1 << 20
_PIECE = 1 << 20

Item = Fact | Rejected
FileReader = Callable[[bytes, str], list[Item]]


def read_source(fmt: ImportFormat, path: Path) -> Iterator[Item]:
    """Every fact and rejected piece of input at `path`, in file order, lazily.

    Raises ImportSourceError at once when `path` is not that kind of source at all.
    """
    if fmt == "jsonl":
        if not path.is_file():
            raise ImportSourceError(f"{path}: not a file; --from jsonl reads one JSONL file")
        return _jsonl(path)
    if not path.is_dir():
        raise ImportSourceError(f"{path}: not a folder; --from {fmt} reads a memory folder")
    if fmt == "claude-code":
        if not (path / INDEX_FILE).is_file():
            raise ImportSourceError(
                f"{path}: no {INDEX_FILE}; a Claude Code memory folder has one "
                "(usually ~/.claude/projects/<project>/memory)"
            )
        return _folder(path, read_memory_file)
    if fmt == "letta":
        return _folder(path, read_block_file)
    raise ImportSourceError(f"unknown import format {fmt!r}: use claude-code, letta or jsonl")


def _folder(root: Path, reader: FileReader) -> Iterator[Item]:
    root = root.resolve()
    for relative, data in walk_markdown(root):
        if isinstance(data, Rejected):
            yield data
        else:
            yield from reader(data, relative)


def walk_markdown(root: Path) -> Iterator[tuple[str, bytes | Rejected]]:
    """(relative path, bytes or why not) of every `.md` file under `root`, sorted; hidden
    files and folders (`.git`, Letta's `.sync-state.json`) are skipped."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in [d for d in dirs if (here / d).is_symlink()]:
            dirs.remove(name)
            problem = _symlink_problem(root, here / name)
            if problem is not None:
                yield problem.path, problem
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(".md"):
                continue
            full = here / name
            relative = full.relative_to(root).as_posix()
            if full.is_symlink():
                problem = _symlink_problem(root, full)
                if problem is not None:
                    yield relative, problem
                continue
            yield relative, _read_file(full, relative)


def _symlink_problem(root: Path, link: Path) -> Rejected | None:
    relative = link.relative_to(root).as_posix()
    target = link.resolve()
    if target == root or root in target.parents:
        return None
    return Rejected(
        relative,
        None,
        "symlink_outside",
        f"a symlink to {target}, outside the imported folder; not followed",
    )


def _read_file(full: Path, relative: str) -> bytes | Rejected:
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        return Rejected(relative, None, "unreadable", f"cannot be read: {exc.strerror}")
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_FILE_BYTES:
            return Rejected(
                relative,
                None,
                "too_large",
                f"{size} bytes; memory files are at most {MAX_FILE_BYTES} bytes",
            )
        return handle.read(MAX_FILE_BYTES + 1)


def _jsonl(path: Path) -> Iterator[Item]:
    with open(path, "rb") as handle:
        yield from read_jsonl_stream(handle, path.name)


def read_jsonl_stream(handle: BinaryIO, name: str) -> Iterator[Item]:
    """The facts of a JSONL stream, one line at a time (see `bounded_lines`)."""
    for number, raw in bounded_lines(handle):
        if raw is None:
            yield Rejected(
                name,
                number,
                "line_too_long",
                f"line {number} is longer than {MAX_LINE_BYTES} bytes; skipped",
            )
            continue
        got = read_line(raw, number, name)
        if got is not None:
            yield got


def bounded_lines(
    handle: BinaryIO, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None]]:
    """(1-based number, line) of a binary stream; None for a line over `limit` bytes,
    which is skipped in pieces without ever being held whole."""
    number = 0
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) <= limit or line.endswith(b"\n"):
            yield number, line
            continue
        while line and not line.endswith(b"\n"):
            line = handle.readline(_PIECE)
        yield number, None
