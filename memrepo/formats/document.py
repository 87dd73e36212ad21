"""A memory file as lines plus what they mean, with edits that touch only their lines.

The lines (text and ending) are the source of truth: serializing joins them back, so a
file round-trips byte for byte. Entries, index links and problems are derived from the
lines and recomputed after every edit, which is cheap on the fast path.
"""

from __future__ import annotations

from bisect import bisect_left

from memrepo.errors import InvalidUtf8
from memrepo.formats.blocks import classify
from memrepo.formats.frontmatter import Frontmatter, find_frontmatter
from memrepo.formats.layout import Layout, is_blank
from memrepo.formats.lines import Line, dominant_ending, one_line, split_text
from memrepo.formats.metadata import parse_metadata
from memrepo.formats.model import Entry, IndexLink, Problem
from memrepo.formats.scan import scan
from memrepo.formats.text import find_links
from memrepo.layout import ENTRY_POINT

__all__ = ["ROOT_ENTRY_POINT", "Document", "parse", "serialize"]

#: The one file whose ``## Index`` section holds index links instead of entries.
ROOT_ENTRY_POINT = ENTRY_POINT
MULTI_LINE = "bullet spans several lines; only one-line bullets are entries"
ENTRY_IN_INDEX = (
    "entry below ## Index (a bullet without [[link]]); `memrepo lint --fix` moves it above"
)
_BOM = "\ufeff"


def _entry(line_no: int, raw: str, problems: list[Problem]) -> Entry:
    # A top-level item starts with at most three spaces, then its one-character marker.
    text, metadata, problem = parse_metadata(raw.lstrip(" ")[1:])
    if problem is not None:
        problems.append(Problem(line_no, problem))
    return Entry(line_no, text, metadata, find_links(text), raw)


def _check_line(text: str) -> None:
    """Refuse text that would not stay one line or could not be written as UTF-8."""
    if "\n" in text or "\r" in text:
        raise ValueError(f"a line cannot contain a line ending: {text!r}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"a line must be encodable as UTF-8: {exc}") from exc


class Document:
    """One parsed memory file. Read the attributes; change it only through the edit methods."""

    __slots__ = (
        "_endings",
        "_entries",
        "_in_index",
        "_layout",
        "_lines",
        "_problems",
        "_texts",
        "bom",
        "frontmatter",
        "index_heading",
        "index_links",
        "path",
    )

    def __init__(self, path: str, bom: bool, texts: list[str], endings: list[str]) -> None:
        self.path = path
        self.bom = bom
        self._texts = texts
        self._endings = endings
        self._lines: list[Line] | None = None
        self.frontmatter: Frontmatter | None = None
        self.index_links: list[IndexLink] = []
        self.index_heading: int | None = None
        self._layout = Layout()
        self._in_index: tuple[int, ...] = ()
        self._entries: list[Entry] | None = None
        self._problems: list[Problem] = []
        self._analyze()

    def __repr__(self) -> str:
        return (
            f"Document(path={self.path!r}, lines={len(self._texts)}, entries={len(self.entries)})"
        )

    @property
    def lines(self) -> list[Line]:
        """The file's lines with their endings (built on first use; do not mutate)."""
        if self._lines is None:
            self._lines = [Line(t, e) for t, e in zip(self._texts, self._endings, strict=True)]
        return self._lines

    def line_texts(self) -> tuple[str, ...]:
        """The text of every line, without endings (no `Line` objects built)."""
        return tuple(self._texts)

    @property
    def entries(self) -> list[Entry]:
        """The entries in file order (decoded on first use: most reads need few of them)."""
        if self._entries is None:
            self._derive_entries()
        assert self._entries is not None
        return self._entries

    @property
    def index_entries(self) -> list[Entry]:
        """Entries in ``MEMORY.md``'s Index section (bullets without a link, added by
        hand there): entries like any other, which `lint --fix` moves above the Index."""
        in_index = set(self._in_index)  # a script may append a million lines there
        return [e for e in self.entries if e.line_no in in_index]

    @property
    def entry_line_numbers(self) -> tuple[int, ...]:
        """Where the entries are, without decoding them (what a folder-wide scan needs)."""
        return tuple(self._layout.entry_lines)

    def entry_lines(self) -> list[tuple[int, str]]:
        """Each entry's line number and line as written, not decoded: for a folder-wide
        pass that decodes only the entries it needs (see `metadata.split_group`)."""
        texts = self._texts
        return [(n, texts[n]) for n in self._layout.entry_lines]

    def entry_at(self, line_no: int) -> Entry | None:
        """The entry on one line, decoding only that line (None when it is not an entry).

        Diffs look at the few lines a commit touched; decoding the whole file for them
        would cost more than the rest of an undo.
        """
        lines = self._layout.entry_lines  # sorted: a lookup is a bisection, not a scan
        at = bisect_left(lines, line_no)
        if at == len(lines) or lines[at] != line_no:
            return None
        if self._entries is not None:
            return self._entries[at]  # one entry per entry line, in the same order
        return _entry(line_no, self._texts[line_no], [])

    @property
    def problems(self) -> list[Problem]:
        """What reads, but probably not as meant, in line order."""
        if self._entries is None:
            self._derive_entries()
        return self._problems

    def _analyze(self) -> None:
        """Classify the lines: frontmatter, where entries are, the Index and its links.

        Only the block structure is worked out here; entries are decoded lazily, because
        parsing a whole folder to find a few files must stay close to a bare line scan.
        """
        texts = self._texts
        self._lines = None
        self._entries = None
        self.frontmatter = find_frontmatter(texts, self._endings)
        start = self.frontmatter.line_count if self.frontmatter else 0
        with_index = self.path == ROOT_ENTRY_POINT
        layout: Layout | None = scan(texts, start, with_index)
        if layout is None:
            layout = classify(texts, start, with_index)
        self._layout = layout
        self.index_heading = layout.index_heading
        self.index_links = []
        in_index: list[int] = []
        for n in layout.index_lines:
            links = find_links(texts[n])
            if links:
                self.index_links.append(IndexLink(n, links[0], texts[n]))
            else:
                in_index.append(n)
        if in_index:
            # A bullet without a link under the Index is a person's entry (appended by
            # hand, `echo "- fact" >> MEMORY.md`), not an index line.
            layout.index_lines = [link.line_no for link in self.index_links]
            layout.entry_lines = sorted([*layout.entry_lines, *in_index])
        self._in_index = tuple(in_index)

    def _derive_entries(self) -> None:
        texts, layout = self._texts, self._layout
        problems = [Problem(n, MULTI_LINE) for n in layout.multi_line]
        self._entries = [_entry(n, texts[n], problems) for n in layout.entry_lines]
        problems.extend(Problem(n, ENTRY_IN_INDEX) for n in self._in_index)
        problems.sort(key=lambda p: -1 if p.line_no is None else p.line_no)
        self._problems = problems

    # -- edits -------------------------------------------------------------------------

    def _edited(self) -> None:
        """Re-split the edited lines the way a reader will, then re-classify.

        Edits can leave a seam a reader splits differently: a blank line with a ``\n``
        ending after a line ending in a lone ``\r`` reads as one ``\r\n``, and an empty
        last line without an ending vanishes. Re-splitting (fast, all in C) keeps
        ``lines`` equal to what ``parse(serialize(doc))`` sees; bytes never change.
        """
        joined = "".join([t + e for t, e in zip(self._texts, self._endings, strict=True)])
        self._texts, self._endings = split_text(joined)
        self._analyze()

    def _insert(self, line_no: int, text: str, ending: str) -> None:
        """Insert a line; a last line without an ending gets one so the two stay apart."""
        if line_no == len(self._texts) and self._endings and not self._endings[-1]:
            self._endings[-1] = ending
        self._texts.insert(line_no, text)
        self._endings.insert(line_no, ending)

    def _check_index(self, line_no: int, *, end_ok: bool = False) -> None:
        limit = len(self._texts) + (1 if end_ok else 0)
        if not 0 <= line_no < limit:
            raise IndexError(f"line {line_no} is outside {self.path or 'the document'}")

    def replace_line(self, line_no: int, text: str) -> None:
        """Replace the text of one line; its ending stays."""
        self._check_index(line_no)
        _check_line(text)
        self._texts[line_no] = text
        self._edited()

    def remove_line(self, line_no: int) -> None:
        """Remove one line together with its ending."""
        self._check_index(line_no)
        del self._texts[line_no]
        del self._endings[line_no]
        self._edited()

    def insert_line(self, line_no: int, text: str) -> None:
        """Insert a line before ``line_no`` (``len(lines)`` appends), with the file's ending."""
        self._check_index(line_no, end_ok=True)
        _check_line(text)
        self._insert(line_no, text, dominant_ending(self._endings))
        self._edited()

    def add_entry(self, line: str) -> int:
        """Add an entry line (see ``format_entry``) where it belongs; return its line number.

        In ``MEMORY.md`` with an Index it goes after the last non-blank line above
        ``## Index``, keeping a blank line before the heading; elsewhere it is appended at
        the end of the file. When the line before it is not a bullet (a title, a
        paragraph), one blank line keeps the new list apart from it, as people write it.
        """
        _check_line(line)
        ending = dominant_ending(self._endings)
        heading = self.index_heading
        if heading is None:
            line_no = len(self._texts)
            if line_no > 0 and not is_blank(self._texts[-1]) and not self._is_bullet(line_no - 1):
                self._insert(line_no, "", ending)
                line_no += 1
            self._insert(line_no, line, ending)
            self._edited()
            return line_no
        line_no = heading
        while line_no > 0 and is_blank(self._texts[line_no - 1]):
            line_no -= 1
        if line_no > 0 and not self._is_bullet(line_no - 1):
            if line_no == heading:
                self._insert(line_no, "", ending)
                heading += 1
            line_no += 1  # after the blank line that follows the title or paragraph
        self._insert(line_no, line, ending)
        if line_no == heading:
            self._insert(line_no + 1, "", ending)  # keep the heading apart
        self._edited()
        return line_no

    def _is_bullet(self, line_no: int) -> bool:
        layout = self._layout
        return (
            line_no in layout.entry_lines
            or line_no in layout.multi_line
            or line_no in layout.index_lines
        )

    def add_index_link(self, target: str) -> int:
        """Add ``- [[target]]`` at the end of the Index (made if missing); return its line.

        Only ``MEMORY.md`` has an Index, so any other path raises ``ValueError``, as does a
        target that is empty or holds brackets, ``|`` or line breaks.
        """
        if self.path != ROOT_ENTRY_POINT:
            raise ValueError(f"only {ROOT_ENTRY_POINT} has an Index, not {self.path!r}")
        target = target.strip()
        if not target or any(c in target for c in "[]|") or one_line(target) != target:
            raise ValueError(f"not a usable link target: {target!r}")
        line = f"- [[{target}]]"
        _check_line(line)
        ending = dominant_ending(self._endings)
        if self.index_heading is None or self._layout.index_end is None:
            if self._texts and not is_blank(self._texts[-1]):
                self._insert(len(self._texts), "", ending)
            self._insert(len(self._texts), "## Index", ending)
            line_no = len(self._texts)
        else:
            line_no = self._layout.index_end
            while line_no - 1 > self.index_heading and is_blank(self._texts[line_no - 1]):
                line_no -= 1
        self._insert(line_no, line, ending)
        self._edited()
        return line_no


def parse(data: bytes, path: str = "") -> Document:
    """Parse a memory file. ``path`` is relative to the memory root (``MEMORY.md`` is root).

    Raises :class:`~memrepo.errors.InvalidUtf8` with the offset of the first bad byte.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidUtf8(path, exc.start) from exc
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    texts, endings = split_text(text)
    return Document(path, bom, texts, endings)


def serialize(doc: Document) -> bytes:
    """The file's bytes: lines and endings exactly as parsed, plus the edits made."""
    texts, endings = doc._texts, doc._endings
    body = "".join([t + e for t, e in zip(texts, endings, strict=True)])
    return ((_BOM if doc.bom else "") + body).encode("utf-8")
