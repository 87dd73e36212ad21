"""Markdown bodies as facts, and the frontmatter check every markdown reader shares.

Another tool's memory file is prose as often as a list: each top-level bullet is a fact
(continuation and nested lines join it), each paragraph is a fact, and headings, code
blocks, HTML comments and blank lines are structure, not facts.
"""

from __future__ import annotations

import re

from memrepo.formats.frontmatter import Frontmatter, find_frontmatter
from memrepo.formats.importers.model import Rejected
from memrepo.formats.lines import split_text

_BULLET = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_RULE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")


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
    found: list[tuple[int, str]] = []
    current: list[str] = []
    first = 0
    fence: str | None = None
    in_comment = False
    bullet_indent: int | None = None  # indent of the open bullet; deeper bullets join it

    def close() -> None:
        if current:
            found.append((first + 1, " ".join(part.strip() for part in current)))
            current.clear()

    for n in range(start, len(texts)):
        line = texts[n]
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if in_comment or line.lstrip().startswith("<!--"):
            in_comment = "-->" not in line
            close()
            continue
        opened = _FENCE.match(line)
        if opened:
            close()
            fence = opened.group(1)[:3]
            continue
        if not line.strip() or _HEADING.match(line) or _RULE.match(line):
            close()
            continue
        bullet = _BULLET.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if bullet and (bullet_indent is None or indent <= bullet_indent or not current):
            close()
            first, bullet_indent = n, indent
            current.append(line[bullet.end() :])
            continue
        if not current:
            first, bullet_indent = n, None
        current.append(re.sub(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+", "", line))
    close()
    return [(line, text) for line, text in found if text.strip()]


def string_field(data: dict[str, object], key: str) -> str | None:
    """A frontmatter value as one line of text (YAML may give numbers or dates)."""
    value = data.get(key)
    if value is None or isinstance(value, dict | list):
        return None
    text = " ".join(str(value).split())
    return text or None
