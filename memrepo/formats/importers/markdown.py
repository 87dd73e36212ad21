"""Markdown bodies as facts, and the frontmatter check every markdown reader shares.

Another tool's memory file is prose as often as a list: each top-level bullet is a fact
(continuation and nested lines join it), each paragraph is a fact, and headings, code
blocks, HTML comments and blank lines are structure, not facts. The headings above a
fact are kept with it (`Block.headings`): "Use tabs" under `## Go` is a Go rule.

A paragraph whose every line is `Key: value` is a record, not prose (Letta's human block
is written `First name: Chad` / `Last name: ?` / `Occupation: ...`): each line is a fact
of its own, and a line whose value is a placeholder (`?`, `unknown`, `{name}`) says
nothing and is left out (`is_placeholder`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.formats.frontmatter import Frontmatter, find_frontmatter
from memrepo.formats.importers.model import Rejected
from memrepo.formats.lines import split_text

_BULLET = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
#: A CommonMark code fence: three or more backticks or tildes, indented three spaces at most.
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_KEY_VALUE = re.compile(r"^(?P<key>[A-Za-z][\w '()/&.-]{0,40}?)\s*:(?:\s+(?P<value>.*))?$")
_PLACEHOLDERS = frozenset(
    {"", "?", "??", "???", "-", "--", "—", "...", "…", "n/a", "na", "null", "tbd",
     "todo", "unknown", "not known", "not sure", "not specified", "unspecified", "tba"}
)  # fmt: skip
_TEMPLATE_VARIABLE = re.compile(r"^(?:\{\{?[^{}]*\}\}?|\[[^\[\]]*\]|<[^<>]*>)$")


@dataclass(frozen=True, slots=True)
class Block:
    """One bullet or paragraph: its first line (1-based), its text, the headings above it
    (outermost first), and each source line's own (line, text) for record splitting."""

    line: int
    text: str
    headings: tuple[str, ...]
    bullet: bool
    parts: tuple[tuple[int, str], ...]


def decode(data: bytes, path: str) -> tuple[list[str], Frontmatter | None] | Rejected:
    """The lines of a UTF-8 markdown file and its frontmatter, or why it cannot be read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Rejected(
            path, None, "not_utf8", f"not valid UTF-8 at byte {exc.start}; re-save it as UTF-8"
        )
    texts, endings = split_text(text.removeprefix("\ufeff"))
    front = find_frontmatter(texts, endings)
    if front is None and texts and texts[0] == "---":
        return Rejected(path, 1, "malformed_frontmatter", "frontmatter has no closing ---")
    if front is not None and front.error is not None:
        return Rejected(path, 1, "malformed_frontmatter", front.error)
    return texts, front


def body_start(front: Frontmatter | None) -> int:
    return front.line_count if front is not None else 0


def facts_in_markdown(texts: list[str], start: int) -> list[tuple[int, str]]:
    """(1-based line, text) of every bullet and paragraph from line index `start` on."""
    return [(block.line, block.text) for block in blocks_in_markdown(texts, start)]


def blocks_in_markdown(texts: list[str], start: int) -> list[Block]:
    """Every bullet and paragraph from line index `start` on, with its headings."""
    return _Scanner().scan(texts, start)


class _Scanner:
    """One pass over the lines; state that a closure would otherwise carry."""

    def __init__(self) -> None:
        self.found: list[Block] = []
        self.parts: list[tuple[int, str]] = []
        self.headings: list[tuple[int, str]] = []  # (level, title) of the open headings
        self.bullet = False

    def close(self) -> None:
        if self.parts:
            text = " ".join(part for _, part in self.parts)
            if text.strip():
                trail = tuple(title for _, title in self.headings if title)
                first = self.parts[0][0]
                self.found.append(Block(first, text, trail, self.bullet, tuple(self.parts)))
            self.parts = []

    def heading(self, level: int, title: str) -> None:
        self.close()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, " ".join(title.split())))

    def scan(self, texts: list[str], start: int) -> list[Block]:
        after_fence = start  # the first line past the code fence last closed
        in_comment = False
        bullet_indent: int | None = None  # indent of the open bullet; deeper bullets join it
        for n in range(start, len(texts)):
            if n < after_fence:
                continue
            line = texts[n]
            if in_comment or line.lstrip().startswith("<!--"):
                in_comment = "-->" not in line
                self.close()
                continue
            opened = FENCE.match(line)
            if opened:
                self.close()
                after_fence = fence_end(texts, n + 1, opened.group(1)) + 1
                continue
            heading = _HEADING.match(line)
            if heading:
                self.heading(len(heading.group(1)), heading.group(2) or "")
                continue
            if not line.strip() or _RULE.match(line):
                self.close()
                continue
            bullet = _BULLET.match(line)
            indent = len(line) - len(line.lstrip(" "))
            if bullet and (bullet_indent is None or indent <= bullet_indent or not self.parts):
                self.close()
                bullet_indent, self.bullet = indent, True
                self.parts.append((n + 1, line[bullet.end() :].strip()))
                continue
            if not self.parts:
                bullet_indent, self.bullet = None, False
            self.parts.append((n + 1, re.sub(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+", "", line).strip()))
        self.close()
        return self.found


def fence_end(texts: list[str], start: int, fence: str) -> int:
    """The index of the line closing a fence opened with `fence` (or the end): what is
    between is code, an example, never a fact or an import."""
    mark = fence[0] * 3
    for n in range(start, len(texts)):
        if texts[n].strip().startswith(mark):
            return n
    return len(texts)


def split_records(block: Block) -> list[tuple[int, str]]:
    """(line, text) of the facts in a block: one per line when the block is a paragraph
    of `Key: value` lines (a record), else the block as one fact."""
    records = not block.bullet and len(block.parts) > 1
    if records and all(_KEY_VALUE.match(part) for _, part in block.parts):
        return list(block.parts)
    return [(block.line, block.text)]


def is_placeholder(text: str) -> bool:
    """`Last name: ?`, `Age: unknown`, `Name: {name}`: a key whose value is not known."""
    match = _KEY_VALUE.match(text.strip())
    if match is None:
        return False
    value = (match.group("value") or "").strip()
    return value.lower().rstrip(".") in _PLACEHOLDERS or bool(_TEMPLATE_VARIABLE.match(value))


def string_field(data: dict[str, object], key: str) -> str | None:
    """A frontmatter value as one line of text (YAML may give numbers or dates)."""
    value = data.get(key)
    if value is None or isinstance(value, dict | list):
        return None
    text = " ".join(str(value).split())
    return text or None
