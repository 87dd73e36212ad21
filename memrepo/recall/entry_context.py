"""What an entry means beside its own words: its neighbours, heading and file description.

Entries are one short line, and in conversation-like memory their topic often sits in
the lines around them ("Yep, last month I drove somewhere fun" answers a question about
a road trip named two turns before). Measured on two conversational benchmarks
(``../shared/research/recall.md``), indexing each entry with its two neighbours on each
side at weight 0.35, in the same scored field as its own words, moved recall@10 from
0.62 to 0.73 (the weights here are by offset: `NEIGHBOUR_WEIGHTS`). Neighbours count
only within the entry's section: a heading starts a new topic. The heading path and the
file's frontmatter ``description`` say what the whole section is about, at a lower weight
still.

The label is who said the entry: a ``Name:`` lead ("Kate: I went skiing"), else the
``author`` metadata.

Neighbours weigh in full inside a dialogue (most entries lead with a speaker, and
speakers repeat), where turns are elliptic; in a list of facts each line mostly stands
alone, so there they weigh `LIST_SCALE` of that (the evals' ranking was the same at 0
and 0.3, and a note like "She works on compilers" still gets its neighbour's name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.formats.document import Document
from memrepo.formats.layout import atx_heading_text
from memrepo.formats.model import Entry

__all__ = ["NEIGHBOUR_WEIGHTS", "EntryContext", "entry_contexts", "label_of"]

NEIGHBOUR_WEIGHTS = {-2: 0.175, -1: 0.25, 1: 0.2, 2: 0.14}
"""The weight of a neighbour's words beside the entry's own (1.0), by its offset: the
line before weighs most (a question or the topic it answers), the next a little less,
two lines away less again. Tuned on REALTALK chats 1-5 (``benchmarks/bench_quality.py``):
a flat 0.35 over two neighbours each side scored R@10 0.614 there, these 0.617, and
chats 6-10, which only report, 0.559 and 0.563."""
SECTION_WEIGHT = 0.2
"""The weight of the heading path and the file's description."""

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LEAD = re.compile(r"\s*([^\W\d_][\w.'\u2019-]*(?: [\w.'\u2019-]+){0,2})\s*:\s+\S")


@dataclass(frozen=True, slots=True)
class EntryContext:
    """The context segments and label of one entry (see the module docstring)."""

    segments: tuple[tuple[str, float], ...]
    label: str


def label_of(entry: Entry) -> str:
    """The entry's label: its ``Name:`` lead, else its ``author``. A ``subject`` is not
    one: its words are searchable as the entry's own (`IndexDoc`), and boosting them
    again would rank a fact with a subject above the same fact without one."""
    return _label(entry, _LEAD.match(entry.text))


def _label(entry: Entry, lead: re.Match[str] | None) -> str:
    return lead.group(1) if lead is not None else entry.metadata.get("author") or ""


CONTEXT_CHARS = 600
"""A neighbour lends at most this many characters: a pasted 100,000-character line would
otherwise be indexed again in each of the four entries beside it."""


def _unlabelled(entry: Entry, lead: re.Match[str] | None) -> str:
    """A neighbour's words without its lead (every turn's speaker would be noise), cut
    to `CONTEXT_CHARS`."""
    text = entry.text[lead.end(1) :].lstrip(" :") if lead else entry.text
    return text[:CONTEXT_CHARS]


LIST_SCALE = 0.3
"""The share of `NEIGHBOUR_WEIGHTS` a neighbour weighs outside a dialogue."""


def is_dialogue(group: list[Entry]) -> bool:
    """Whether a section's entries read as turns of a conversation: at least half of
    them lead with a speaker, and a speaker comes back (``Ana: ...``, ``Bo: ...``,
    ``Ana: ...``); leads that never repeat (``Home address: ...``) are labels of facts."""
    return _dialogue([_LEAD.match(entry.text) for entry in group])


def _dialogue(leads: list[re.Match[str] | None]) -> bool:
    names = [lead.group(1).casefold() for lead in leads if lead is not None]
    return len(names) >= 3 and 2 * len(names) >= len(leads) and len(set(names)) < len(names)


def _sections(doc: Document) -> dict[int, tuple[int, str]]:
    """For each line: the first line of its section and the section's heading path."""
    sections: dict[int, tuple[int, str]] = {}
    path: list[tuple[int, str]] = []
    start, fence = 0, ""
    for line_no, text in enumerate(doc.line_texts()):
        opening = _FENCE.match(text)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
        elif opening:
            fence = opening.group(1)
        else:
            heading = _HEADING.match(text)
            if heading:
                level = len(heading.group(1))
                path = [(lvl, title) for lvl, title in path if lvl < level]
                path.append((level, atx_heading_text(text)))
                start = line_no
        sections[line_no] = (start, " ".join(title for _level, title in path))
    return sections


def _description(doc: Document) -> str:
    if doc.frontmatter is None:
        return ""
    value = doc.frontmatter.data.get("description")
    return value if isinstance(value, str) else ""


def entry_contexts(doc: Document) -> dict[int, EntryContext]:
    """The context of every entry of ``doc``, by the entry's line number."""
    entries = doc.entries
    sections = _sections(doc)
    description = _description(doc)
    by_section: dict[int, list[Entry]] = {}
    for entry in entries:
        by_section.setdefault(sections.get(entry.line_no, (0, ""))[0], []).append(entry)
    contexts: dict[int, EntryContext] = {}
    for start, group in by_section.items():
        heading = sections.get(start, (0, ""))[1]
        about = " ".join(part for part in (heading, description) if part)[:CONTEXT_CHARS]
        leads = [_LEAD.match(entry.text) for entry in group]
        words = [_unlabelled(entry, lead) for entry, lead in zip(group, leads, strict=True)]
        scale = 1.0 if _dialogue(leads) else LIST_SCALE
        for i, entry in enumerate(group):
            segments = [
                (words[i + offset], weight * scale)
                for offset, weight in NEIGHBOUR_WEIGHTS.items()
                if scale and 0 <= i + offset < len(group)
            ]
            if about:
                segments.append((about, SECTION_WEIGHT))
            contexts[entry.line_no] = EntryContext(tuple(segments), _label(entry, leads[i]))
    return contexts
