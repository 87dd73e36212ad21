"""What `view` answers: a directory two levels deep, or a file with line numbers.

The shapes are the memory tool's own (the Anthropic SDK's backend answers them so, and
models are tuned on them): a header line, then `size<TAB>path` rows for a directory,
or `number<TAB>line` rows (numbers right-aligned in six columns) for a file. A directory
lists only what the caller may see: markdown files and the folders holding them, never
a hidden name, a symlink, a swarm folder or another workspace's file.
"""

from __future__ import annotations

import os
from pathlib import Path

from memrepo.errors import MemoryToolError
from memrepo.memtool.mount import Mount, shown_name

#: Levels below the directory a listing shows (the contract's "up to 2 levels deep").
DEPTH = 2
#: The most lines a file may have to be shown (the SDK's limit).
MAX_LINES = 999_999


def listing(mount: Mount, relative: str, path: str) -> str:
    """The directory `relative` (shown as `path`) and what is below it."""
    base = mount.root / relative if relative else mount.root
    rows: list[tuple[int, str]] = []
    _collect(mount, base, relative, "", 1, rows)
    total = sum(size for size, name in rows if not name.endswith("/"))
    lines = [f"{_size(total)}\t{path}"]
    lines += [f"{_size(size)}\t{path.rstrip('/')}/{name}" for size, name in rows]
    header = (
        f"Here're the files and directories up to {DEPTH} levels deep in {path}, "
        "excluding hidden items:"
    )
    return header + "\n" + "\n".join(lines)


def _collect(
    mount: Mount, folder: Path, relative: str, shown: str, depth: int, rows: list[tuple[int, str]]
) -> int:
    """Add the visible rows below `folder` to `rows`; the bytes of its files."""
    try:
        children = sorted(os.scandir(folder), key=lambda child: child.name)
    except OSError:
        return 0
    total = 0
    for child in children:
        if child.name.startswith(".") or child.is_symlink():
            continue
        inner = f"{relative}/{child.name}" if relative else child.name
        name = f"{shown}{child.name}"
        if child.is_dir():
            if not mount.visible(inner):
                continue
            at = len(rows)
            rows.append((0, f"{name}/"))
            below = Path(child.path)
            if depth < DEPTH:
                size = _collect(mount, below, inner, f"{name}/", depth + 1, rows)
            else:
                size = _bytes_below(mount, below)
            rows[at] = (size, f"{name}/")
            total += size
        elif child.name.endswith(".md") and mount.visible(inner):
            size = child.stat().st_size
            rows.append((size, shown_name(name)))
            total += size
    return total


def _bytes_below(mount: Mount, folder: Path) -> int:
    """The bytes of the visible memory files below `folder`, not listed."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            inner = os.path.relpath(os.path.join(dirpath, name), mount.root)
            if name.endswith(".md") and mount.visible(inner):
                total += os.path.getsize(os.path.join(dirpath, name))
    return total


def numbered(path: str, text: str, view_range: list[int] | None) -> str:
    """The file's text with line numbers, whole or the 1-based `view_range` [start, end]
    (end -1: to the last line)."""
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise MemoryToolError(f"File {path} exceeds maximum line limit of 999,999 lines.")
    start = 1
    if view_range:
        start, end = _checked_range(view_range, len(lines))
        lines = lines[start - 1 : end]
    body = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start))
    return f"Here's the content of {path} with line numbers:\n{body}"


def _checked_range(view_range: list[int], count: int) -> tuple[int, int]:
    if len(view_range) != 2:
        raise MemoryToolError("Invalid `view_range`: give two numbers, [start, end]")
    start, end = view_range
    if start < 1 or start > count:
        raise MemoryToolError(
            f"Invalid `view_range`: {view_range}. Its first element `{start}` should be "
            f"within the range of lines of the file: [1, {count}]"
        )
    if end == -1:
        return start, count
    if end < start:
        raise MemoryToolError(
            f"Invalid `view_range`: {view_range}. Its second element `{end}` should be "
            f"larger or equal than its first `{start}`"
        )
    return start, min(end, count)


def _size(size: int) -> str:
    """A byte count as `du -h` shows it (the contract's listing sizes)."""
    value = float(size)
    for unit in ("K", "M", "G"):
        if value < 1024:
            return f"{int(value)}B" if unit == "K" else f"{value:.1f}{unit}"
        value /= 1024
    return f"{value:.1f}G"
