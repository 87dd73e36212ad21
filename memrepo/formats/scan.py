"""The fast path: classify a file line by line when its block structure is obvious.

markdown-it costs about twenty times a plain line loop, and almost every memory file is
made only of blank lines, ATX headings, plain paragraph lines and top-level ``- `` bullets.
For those, block structure needs no parser: every bullet at column 0 followed by a space
and a non-space is a top-level list item, and it spans one line because nothing after it
can continue it. The scanner accepts a file only when every line is one of those simple
kinds and returns ``None`` for anything it is not sure about, so the caller falls back to
markdown-it. A property test checks both give the same answer on every file accepted here.

Sent to markdown-it: any line starting with whitespace (except a line of only spaces),
a tab, a fence (```` ``` ````, ``~~~``), ``>``, ``<``, ``|``, ``[`` (reference definition),
``=``, ``_``, a digit (ordered list), a ``#`` line that is no ATX heading, a ``-``/``*``/``+``
line that is not "marker, space, non-space" or is a thematic break, and a paragraph line
right after a bullet (a lazy continuation makes the item span two lines).
"""

from __future__ import annotations

from memrepo.formats.layout import Layout, atx_heading_text, is_index_title

__all__ = ["scan"]

# First characters that can open a block construct (or indent one) in CommonMark;
# "#", "-", "*" and "+" are checked more closely below.
_UNSURE = frozenset(" \t>`~_<[|=0123456789")
_BLANK, _HEADING, _PARAGRAPH, _BULLET = range(4)


def _heading_level(text: str) -> int:
    """The level of a simple ATX heading line, or 0 when it is not one."""
    level = len(text) - len(text.lstrip("#"))
    if level > 6 or (len(text) > level and text[level] != " "):
        return 0
    return level


def scan(texts: list[str], start: int, with_index: bool) -> Layout | None:
    """Classify ``texts[start:]`` (``start`` skips frontmatter), or ``None`` if unsure.

    ``with_index`` turns on the ``## Index`` section (only in the root ``MEMORY.md``).
    """
    layout = Layout()
    entry_lines = layout.entry_lines
    in_index = False
    previous = _BLANK
    for i in range(start, len(texts)):
        text = texts[i]
        if not text:
            previous = _BLANK
            continue
        first = text[0]
        if first == "-" or first == "*" or first == "+":
            if len(text) < 3 or text[1] != " " or text[2] == " " or text[2] == "\t":
                return None
            if text[2] == first and not text.replace(" ", "").replace("\t", "").strip(first):
                return None  # "- - -" / "* * *" is a thematic break, not a list
            (layout.index_lines if in_index else entry_lines).append(i)
            previous = _BULLET
        elif first == "#":
            level = _heading_level(text)
            if not level:
                return None
            if level <= 2 and with_index:
                if in_index and layout.index_end is None:
                    layout.index_end = i
                in_index = level == 2 and is_index_title(atx_heading_text(text))
                if in_index and layout.index_heading is None:
                    layout.index_heading = i
            previous = _HEADING
        elif first in _UNSURE:
            if first != " " or text.strip(" "):
                return None
            previous = _BLANK
        elif previous == _BULLET:
            return None  # lazy continuation: the bullet spans two lines
        else:
            previous = _PARAGRAPH
    if layout.index_heading is not None and layout.index_end is None:
        layout.index_end = len(texts)
    return layout
