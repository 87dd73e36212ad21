"""Applying operations to file contents, in memory, all or nothing.

Each operation finds its lines again by their exact text (nearest to where they were),
so it applies to a main that moved on, and raises ReviewConflict when a line it needs
changed or is gone. Only lines an operation names change; a new file gets a title and a
link from the Index in the same change, as a write would give it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

from memrepo.dreaming.snapshot import ENTRY_POINT
from memrepo.errors import ReviewConflict
from memrepo.folder.paths import link_target
from memrepo.formats import Document, parse, serialize
from memrepo.models.dream import LineRef, Op

Reader = Callable[[str], bytes | None]


class _Files:
    """Documents being edited, read on first use."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self.docs: dict[str, Document] = {}
        self.created: list[str] = []

    def get(self, path: str, *, create: bool = False) -> Document:
        if path not in self.docs:
            data = self.read(path)
            if data is None:
                if not create:
                    raise ReviewConflict(f"{path} is no longer in the memory repo; dream again")
                title = PurePosixPath(path).stem.replace("-", " ").replace("_", " ").title()
                data = f"# {title}\n\n".encode()
                self.created.append(path)
            self.docs[path] = parse(data, path)
        return self.docs[path]


def apply_ops(read: Reader, ops: Iterable[Op]) -> dict[str, bytes | None]:
    """The new contents of every file the operations change (nothing is written)."""
    files = _Files(read)
    for op in ops:
        _apply(files, op)
    for path in files.created:
        index = files.get(ENTRY_POINT)
        target = link_target(path)
        if not any(link.target == target for link in index.index_links):
            index.add_index_link(target)
    return {path: serialize(doc) for path, doc in files.docs.items()}


def _apply(files: _Files, op: Op) -> None:
    if op.kind == "add":
        assert op.text is not None
        files.get(op.path, create=True).add_entry(op.text)
    elif op.kind == "link":
        assert op.dest is not None
        index = files.get(ENTRY_POINT)
        target = link_target(op.dest)
        if not any(link.target == target for link in index.index_links):
            index.add_index_link(target)
    elif op.kind in ("remove", "move"):
        lines = _remove(files, op.targets)
        if op.kind == "move":
            assert op.dest is not None
            dest = files.get(op.dest, create=True)
            for raw in lines:
                dest.add_entry(raw.strip())
    else:  # merge, rewrite: the first target becomes the new line, the others go
        assert op.text is not None
        first, *rest = op.targets
        doc = files.get(first.path)
        line_no = _locate(doc, first, set())
        doc.replace_line(line_no, op.text)
        _remove(files, rest, keep=(first.path, line_no))


def _remove(
    files: _Files, targets: Iterable[LineRef], keep: tuple[str, int] | None = None
) -> list[str]:
    """Remove the target lines (never the `keep` line); returns their text in order."""
    by_path: dict[str, list[LineRef]] = {}
    for ref in targets:
        by_path.setdefault(ref.path, []).append(ref)
    removed: list[str] = []
    for path, refs in by_path.items():
        doc = files.get(path)
        taken = {keep[1]} if keep is not None and keep[0] == path else set()
        found = [_locate(doc, ref, taken) for ref in refs]
        removed += [doc.lines[n].text for n in found]
        for line_no in sorted(found, reverse=True):
            doc.remove_line(line_no)
    return removed


def _locate(doc: Document, ref: LineRef, taken: set[int]) -> int:
    best: int | None = None
    for i, line in enumerate(doc.lines):
        if line.text != ref.raw or i in taken:
            continue
        if best is None or abs(i - ref.line) < abs(best - ref.line):
            best = i
    if best is None:
        raise ReviewConflict(
            f"{ref.path}: the line {ref.raw.strip()[:80]!r} changed or is gone since the "
            "dream; reject this review and dream again"
        )
    taken.add(best)
    return best
