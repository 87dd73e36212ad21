"""The careful path: classify a file's blocks with markdown-it (CommonMark).

Used whenever the fast scanner is not sure. markdown-it gives each block token a ``map``
of ``[first line, end line)`` and a nesting ``level``; a top-level bullet list opens at
level 0 and its items at level 1, so entries are level-1 ``list_item_open`` tokens of a
``bullet_list_open`` at level 0. An item's map runs over the blank lines after it, so an
item "spans one line" when every other line of its map is blank.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

from memrepo.formats.layout import Layout, atx_heading_text, is_blank, is_index_title

__all__ = ["classify"]


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    """One shared CommonMark parser for block structure only.

    Inline parsing (emphasis, links) never decides what is an entry, costs most of the
    time, and has slow cases on long lines full of brackets, so it is switched off.
    Imported here: most files take the fast path and never need markdown-it.
    """
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").disable(["inline", "text_join"])


def _heading_title(texts: list[str], first: int, markup: str, inline: str) -> str:
    """The heading's text: from the raw line for ATX headings, as both classifiers do."""
    return atx_heading_text(texts[first]) if markup.startswith("#") else inline


def classify(texts: list[str], start: int, with_index: bool) -> Layout:
    """Classify ``texts[start:]`` with markdown-it; line numbers are in the whole file.

    ``with_index`` turns on the ``## Index`` section (only in the root ``MEMORY.md``).
    """
    tokens = _parser().parse("\n".join(texts[start:]))
    layout = Layout()
    in_index = False
    top_list_is_bullet = False
    for position, token in enumerate(tokens):
        if token.level == 0 and token.type in ("bullet_list_open", "ordered_list_open"):
            top_list_is_bullet = token.type == "bullet_list_open"
        elif token.level == 0 and token.type == "heading_open" and token.map is not None:
            level = int(token.tag[1:])
            if level > 2 or not with_index:
                continue
            first = token.map[0] + start
            if in_index and layout.index_end is None:
                layout.index_end = first
            title = _heading_title(texts, first, token.markup, tokens[position + 1].content)
            in_index = level == 2 and is_index_title(title)
            if in_index and layout.index_heading is None:
                layout.index_heading = first
        elif (
            token.level == 1
            and token.type == "list_item_open"
            and top_list_is_bullet
            and token.map is not None
        ):
            first, end = token.map[0] + start, token.map[1] + start
            if not all(is_blank(texts[n]) for n in range(first + 1, end)):
                layout.multi_line.append(first)
            elif in_index:
                layout.index_lines.append(first)
            else:
                layout.entry_lines.append(first)
    if layout.index_heading is not None and layout.index_end is None:
        layout.index_end = len(texts)
    return layout
