"""Lines of prompt context: what sources hand in, and how they become safe, tagged, unique.

A source (the folder, memory_items, a team repo, a swarm folder) hands in `SourceLine`s
with raw text. `to_context_line` sanitizes and tags each one, whoever wrote the source:
memory text is never trusted to be safe. `dedupe` keeps a named subject once (highest
trust, then newest) and any other fact once per normalized text, across sources.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from memrepo.formats import normalize_text
from memrepo.items.vocab import SOURCES, trust_rank
from memrepo.models.items import PERSON_SOURCES
from memrepo.models.prompt_context import ContextLine, ContextRequest, InjectionDecision, Tag
from memrepo.recall.context_budget import estimate_tokens
from memrepo.recall.sanitize import sanitize_line

#: The gate layer that decides whether an extra source is asked: team lines join L0,
#: swarm lines make the `<swarm>` block.
ExtraLayer = Literal["team", "swarm"]


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One line a source offers, text as stored (the builder sanitizes it).

    `ref` is "" for a line that is not a fact (an Index link, a swarm's goal); `trust`
    is the statement's source (user_stated ... third_party; a folder's `by: user` is
    user_stated); `added` is an ISO date or datetime ("" when unknown).
    """

    ref: str
    text: str
    origin: str
    trust: str = "inferred"
    tainted: bool = False
    pinned: bool = False
    added: str = ""
    subject: str = ""
    section: Literal["fact", "index"] = "fact"
    due: str = ""


class ContextSource(Protocol):
    """Extra prompt context a host or another part of memrepo plugs in (team repos'
    MEMORY.md entries, a swarm's notes). The builder asks it only when the gate allows
    its `layer`, on every build (cache inside the source if reading is costly), and
    sanitizes, tags, dedupes and budgets what it returns like every other line."""

    @property
    def name(self) -> str: ...

    @property
    def layer(self) -> ExtraLayer: ...

    def lines(self, request: ContextRequest, decision: InjectionDecision) -> Sequence[SourceLine]:
        """The lines this source offers for the request."""
        ...


def tags_for(trust: str, tainted: bool) -> tuple[Tag, ...]:
    """`(imported)` or `(inferred)` when the user did not state it, `(tainted)` when it
    was written after untrusted input."""
    tags: list[Tag] = []
    if trust == "import":
        tags.append("imported")
    elif trust not in PERSON_SOURCES:
        tags.append("inferred")
    if tainted:
        tags.append("tainted")
    return tuple(tags)


def to_context_line(line: SourceLine) -> ContextLine | None:
    """The sanitized, tagged line with its token cost (None when nothing readable is
    left). An unknown trust counts as inferred: a source cannot raise its own trust by
    misspelling it."""
    text = sanitize_line(line.text)
    if not text:
        return None
    trust = line.trust if line.trust in SOURCES else "inferred"
    ref = sanitize_line(line.ref)
    made = ContextLine(
        ref=ref,
        text=text,
        tags=tags_for(trust, line.tainted) if line.section == "fact" else (),
        origin=line.origin,
        trust=trust,
        pinned=line.pinned,
        added=line.added,
        subject=line.subject,
        section=line.section,
        due=sanitize_line(line.due),
        tokens=0,
    )
    cost = estimate_tokens(made.rendered) + (estimate_tokens(ref + ", ") if ref else 0)
    return made.model_copy(update={"tokens": cost})


def context_lines(lines: Iterable[SourceLine]) -> list[ContextLine]:
    return [made for line in lines if (made := to_context_line(line)) is not None]


def text_key(line: ContextLine) -> str:
    return normalize_text(line.text)


def _better(a: ContextLine, b: ContextLine) -> bool:
    """True when `a` should stand for a subject or text rather than `b`."""
    return (trust_rank(a.trust), a.added) > (trust_rank(b.trust), b.added)


def dedupe(lines: Sequence[ContextLine]) -> list[ContextLine]:
    """One line per named subject (highest trust, then newest), then one per normalized
    text; the survivor takes the place of the first line of its group."""
    return _unique(_unique(lines, lambda line: line.subject), text_key)


def _unique(
    lines: Sequence[ContextLine], key_of: Callable[[ContextLine], str]
) -> list[ContextLine]:
    slot: dict[str, int] = {}
    out: list[ContextLine] = []
    for line in lines:
        key = key_of(line)
        if not key:
            out.append(line)
            continue
        at = slot.get(key)
        if at is None:
            slot[key] = len(out)
            out.append(line)
        elif _better(line, out[at]):
            out[at] = line
    return out


def without(lines: Sequence[ContextLine], carried: Sequence[ContextLine]) -> list[ContextLine]:
    """`lines` minus what `carried` already holds (same ref, named subject or text)."""
    refs = {line.ref for line in carried if line.ref}
    subjects = {line.subject for line in carried if line.subject}
    texts = {text_key(line) for line in carried}
    return [
        line
        for line in lines
        if not (line.ref and line.ref in refs)
        and not (line.subject and line.subject in subjects)
        and text_key(line) not in texts
    ]
