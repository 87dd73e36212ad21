"""Split text into lines exactly the way markdown-it counts them.

markdown-it normalizes ``\\r\\n`` and ``\\r`` to ``\\n`` and splits on nothing else, so we
split on those three endings only (never on ``\\u2028``, ``\\x0b``, ...): that keeps our
line numbers equal to markdown-it's token maps, and keeping each ending lets a file be
written back byte for byte.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["LINE_BREAKS", "Line", "dominant_ending", "one_line", "split_lines", "split_text"]

_ENDING = re.compile(r"(\r\n|\r|\n)")

#: Every character ``str.splitlines`` breaks on. Text and values a machine writes are made
#: single-line with these, so no editor or tool can ever see two lines where we wrote one.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_TO_SPACE = str.maketrans(dict.fromkeys(LINE_BREAKS, " "))


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a file: its text and the ending that followed it in the file."""

    text: str
    #: ``"\\n"``, ``"\\r\\n"``, ``"\\r"``, or ``""`` for a last line without an ending.
    ending: str


def split_text(text: str) -> tuple[list[str], list[str]]:
    """Return the texts and the endings of the lines of ``text`` (two parallel lists).

    This is the hot path of parsing, so it avoids building objects; an empty text has no
    lines, and a final line without an ending gets ``""``.
    """
    if not text:
        return [], []
    if "\r" not in text:
        texts = text.split("\n")
        if texts[-1]:
            endings = ["\n"] * len(texts)
            endings[-1] = ""
        else:
            texts.pop()
            endings = ["\n"] * len(texts)
        return texts, endings
    parts = _ENDING.split(text)
    texts = parts[0::2]
    endings = parts[1::2]
    if texts[-1]:
        endings.append("")
    else:
        texts.pop()
    return texts, endings


def split_lines(text: str) -> list[Line]:
    """Split ``text`` into :class:`Line` objects; ``"".join`` of text + ending gives it back."""
    texts, endings = split_text(text)
    return [Line(t, e) for t, e in zip(texts, endings, strict=True)]


def dominant_ending(endings: list[str]) -> str:
    """The ending most lines use (first seen wins a tie); ``"\\n"`` when no line has one.

    New lines take it so a CRLF file stays CRLF.
    """
    counts = Counter(e for e in endings if e)
    if not counts:
        return "\n"
    return counts.most_common(1)[0][0]


def one_line(text: str) -> str:
    """Make ``text`` one line: every line-break character becomes a space, ends stripped."""
    return text.translate(_TO_SPACE).strip()
