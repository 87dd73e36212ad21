"""Applying operations to file contents, in memory, all or nothing.

Each operation finds its lines again by their exact text (nearest to where they were),
so it applies to a main that moved on, and raises ReviewConflict when a line it needs
changed or is gone. Only lines an operation names change; a new file gets a title and a
link from the Index in the same change, as a write would give it.

Removing and replacing lines needs no parser: a file's bytes are its lines and endings
joined, so those edits are collected per file and joined once. Only a file that gains
lines (an added or moved entry, an Index link) is parsed, because where a line goes
depends on the file's structure; those edits run after the removals, in operation order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from memrepo.dreaming.snapshot import ENTRY_POINT
from memrepo.errors import DreamError, InvalidUtf8, ReviewConflict
from memrepo.folder.paths import link_target
from memrepo.formats import Document, parse, serialize
from memrepo.formats.lines import split_text
from memrepo.models.dream import LineRef, Op

Reader = Callable[[str], bytes | None]
_BOM = "\ufeff"


@dataclass(slots=True)
class _File:
    """One file being edited: its lines as read, and what the operations do to them."""

    path: str
    bom: bool
    texts: list[str]
    endings: list[str]
    created: bool = False
    #: Line number -> new text, or None when the line goes.
    edits: dict[int, str | None] = field(default_factory=dict)
    #: Entries and Index links to add once the line edits are done, in order.
    additions: list[tuple[str, str]] = field(default_factory=list)
    _where: dict[str, list[int]] | None = None

    def locate(self, ref: LineRef) -> int:
        """The unedited line with the ref's exact text nearest to where it was."""
        line = ref.line
        if 0 <= line < len(self.texts) and self.texts[line] == ref.raw and line not in self.edits:
            return line  # still where it was (nearly always): no search needed
        if self._where is None:
            self._where = {}
            for i, text in enumerate(self.texts):
                self._where.setdefault(text, []).append(i)
        found = [i for i in self._where.get(ref.raw, ()) if i not in self.edits]
        if not found:
            raise ReviewConflict(
                f"{ref.path}: the line {ref.raw.strip()[:80]!r} changed or is gone since the "
                "dream; reject this review and dream again"
            )
        return min(found, key=lambda i: abs(i - ref.line))

    def content(self) -> bytes:
        texts, endings = list(self.texts), list(self.endings)
        for line_no in sorted(self.edits, reverse=True):
            new = self.edits[line_no]
            if new is None:
                del texts[line_no], endings[line_no]
            else:
                texts[line_no] = new
        body = "".join([t + e for t, e in zip(texts, endings, strict=True)])
        data = ((_BOM if self.bom else "") + body).encode("utf-8")
        if not self.additions:
            return data
        doc = parse(data, self.path)
        for kind, value in self.additions:
            if kind == "link":
                _link(doc, value)
            else:
                doc.add_entry(value)
        return serialize(doc)


class _Files:
    """Files being edited, read on first use."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self.files: dict[str, _File] = {}

    def get(self, path: str, *, create: bool = False) -> _File:
        found = self.files.get(path)
        if found is not None:
            return found
        data = self.read(path)
        created = data is None
        if data is None:
            if not create:
                raise ReviewConflict(f"{path} is no longer in the memory repo; dream again")
            title = PurePosixPath(path).stem.replace("-", " ").replace("_", " ").title()
            data = f"# {title}\n\n".encode()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(path, exc.start) from exc
        bom = text.startswith(_BOM)
        texts, endings = split_text(text[1:] if bom else text)
        self.files[path] = _File(path, bom, texts, endings, created)
        return self.files[path]


def apply_ops(read: Reader, ops: Iterable[Op]) -> dict[str, bytes | None]:
    """The new contents of every file the operations change (nothing is written; files
    they leave as they were are not in the result)."""
    files = _Files(read)
    for op in ops:
        _apply(files, op)
    created = [f.path for f in files.files.values() if f.created]
    for path in created:
        files.get(ENTRY_POINT).additions.append(("link", link_target(path)))
    changes: dict[str, bytes | None] = {}
    for path, edited in files.files.items():
        data = edited.content()
        if data != read(path):
            changes[path] = data
    return changes


def _apply(files: _Files, op: Op) -> None:
    if op.kind == "add":
        assert op.text is not None
        files.get(op.path, create=True).additions.append(("entry", _one_line(op.text)))
    elif op.kind == "link":
        assert op.dest is not None
        files.get(ENTRY_POINT).additions.append(("link", link_target(op.dest)))
    elif op.kind in ("remove", "move"):
        lines = _remove(files, op.targets)
        if op.kind == "move":
            assert op.dest is not None
            dest = files.get(op.dest, create=True)
            dest.additions += [("entry", raw.strip()) for raw in lines]
    else:  # merge, rewrite: the first target becomes the new line, the others go
        assert op.text is not None
        first, *rest = op.targets
        edited = files.get(first.path)
        edited.edits[edited.locate(first)] = _one_line(op.text)
        _remove(files, rest)


def _remove(files: _Files, targets: Iterable[LineRef]) -> list[str]:
    """Remove the target lines; returns their text in order."""
    removed: list[str] = []
    for ref in targets:
        edited = files.get(ref.path)
        line_no = edited.locate(ref)
        edited.edits[line_no] = None
        removed.append(edited.texts[line_no])
    return removed


def _link(doc: Document, target: str) -> None:
    if not any(link.target == target for link in doc.index_links):
        doc.add_index_link(target)


def _one_line(text: str) -> str:
    """A line an operation writes must stay one line (a model's text is screened, but
    the file's structure must not depend on that)."""
    if "\n" in text or "\r" in text:
        raise DreamError(f"an operation would write a line break into a file: {text[:80]!r}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise DreamError(f"an operation would write text that is not UTF-8 ({exc})") from exc
    return text
