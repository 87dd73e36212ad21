"""A whole markdown memory as entry text: every part kept, in parts that fit an entry.

A Claude Code memory file is one memory, often with a lead-in, bullets, **Why:** and
**How to apply:** lines and a fenced command. A folder entry is one line of at most
`MAX_ENTRY_CHARS` characters, so the body is flattened without losing what a reader
needs to tell its pieces apart:

* bullets are joined with `; ` (not run together), paragraphs and headings keep a
  sentence end (`. ` is added only where the text has no punctuation of its own, and
  never after code);
* a fenced code block becomes one code span with its lines joined by ` ⏎ `, so a
  command keeps its exact text (a span holding backticks is fenced with more of them);
* HTML comments and blank lines are structure, not text.

A body longer than one entry is split between pieces into numbered parts, never inside
a piece; only a single piece longer than an entry is cut (by the screen, which the
import reports). The pieces' first line numbers are kept so each part names its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.formats.importers.markdown import FENCE, fence_end

#: What one folder entry holds (the hygiene screen's default `max_chars`).
MAX_ENTRY_CHARS = 1000
CODE_LINE_JOIN = " ⏎ "

_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s+(.*?))?\s*#*\s*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_ENDS_SENTENCE = tuple(".!?:;,")
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True, slots=True)
class Piece:
    """One bullet, paragraph, heading or code block: its first line (1-based), its text
    as it goes into the entry, and what it is (for choosing the separator)."""

    line: int
    text: str
    kind: str  # "bullet", "paragraph", "heading" or "code"


def pieces_of(texts: list[str], start: int) -> list[Piece]:
    """Every piece of the body from line index `start` on, in order."""
    found: list[Piece] = []
    current: list[str] = []
    first = 0
    kind = "paragraph"

    def close() -> None:
        nonlocal current
        text = " ".join(" ".join(current).split())
        if text:
            found.append(Piece(first, text, kind))
        current = []

    n = start
    while n < len(texts):
        line = texts[n]
        opened = FENCE.match(line)
        if opened:
            close()
            end = fence_end(texts, n + 1, opened.group(1))
            code = [texts[i].strip() for i in range(n + 1, end) if texts[i].strip()]
            if code:
                found.append(Piece(n + 1, _code_span(code), "code"))
            n = end + 1
            continue
        if line.lstrip().startswith("<!--"):
            close()
            while n < len(texts) and "-->" not in texts[n]:
                n += 1
            n += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            close()
            title = " ".join((heading.group(1) or "").split())
            if title:
                found.append(Piece(n + 1, title, "heading"))
        elif not line.strip() or _RULE.match(line):
            close()
        elif bullet := _BULLET.match(line):
            close()
            first, kind = n + 1, "bullet"
            current.append(line[bullet.end() :])
        else:
            if not current:
                first, kind = n + 1, "paragraph"
            current.append(line)
        n += 1
    close()
    return found


def join_pieces(pieces: list[Piece]) -> str:
    """The pieces as one line of text (see the module docstring for the separators)."""
    out: list[str] = []
    previous: Piece | None = None
    for piece in pieces:
        if previous is not None:
            out.append(_separator(previous, piece))
        out.append(piece.text)
        previous = piece
    return "".join(out)


def split_parts(pieces: list[Piece], limit: int = MAX_ENTRY_CHARS) -> list[list[Piece]]:
    """The pieces grouped into parts whose joined text fits `limit`, in order; a piece
    longer than `limit` is a part of its own."""
    parts: list[list[Piece]] = []
    for piece in pieces:
        if parts and len(join_pieces([*parts[-1], piece])) <= limit:
            parts[-1].append(piece)
        else:
            parts.append([piece])
    return parts


def _separator(previous: Piece, piece: Piece) -> str:
    if previous.kind == "heading":
        return " " if previous.text.endswith(_ENDS_SENTENCE) else ": "
    if previous.kind == "code" or previous.text.endswith(_ENDS_SENTENCE):
        return " "
    if previous.kind == "bullet" and piece.kind == "bullet":
        return "; "
    return ". "


def _code_span(lines: list[str]) -> str:
    code = CODE_LINE_JOIN.join(lines)
    longest = max((len(run) for run in _BACKTICKS.findall(code)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"
