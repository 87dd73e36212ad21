"""Building operations: fingerprints, and the one line a merge leaves behind.

A fingerprint names a change, not a run: it hashes the kind, the files, the normalized
text of the lines it touches and of the line it writes (metadata left out, so a new
`added` date does not make yesterday's rejected proposal look new).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from memrepo.dreaming.snapshot import Fact
from memrepo.formats import format_entry, normalize_text
from memrepo.formats.metadata import split_group
from memrepo.models.dream import LineRef, Op, OpKind, PassName

SOURCES_SEPARATOR = ", "


def fingerprint(
    kind: OpKind, path: str, targets: Sequence[LineRef], text: str | None, dest: str | None
) -> str:
    """A short stable id of a change (see the module docstring)."""
    parts = [
        kind,
        path,
        sorted(f"{t.path}\x00{_norm_line(t.raw)}" for t in targets),
        _norm_line(text) if text is not None else None,
        dest,
    ]
    payload = json.dumps(parts, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:16]


def make_op(
    kind: OpKind,
    found_by: PassName,
    path: str,
    reason: str,
    *,
    targets: Sequence[LineRef] = (),
    text: str | None = None,
    dest: str | None = None,
    sources: Sequence[str] = (),
    confidence: float | None = None,
) -> Op:
    """An operation with its fingerprint filled in (classification comes later)."""
    return Op(
        kind=kind,
        found_by=found_by,
        path=path,
        targets=tuple(targets),
        text=text,
        dest=dest,
        reason=reason,
        sources=tuple(sources),
        confidence=confidence,
        fingerprint=fingerprint(kind, path, targets, text, dest),
    )


def merged_line(kept: Fact, others: Sequence[Fact]) -> str:
    """The kept entry's text with every source of the group (as `sources` when there are
    several), the earliest `added`, and the highest `by` of the group."""
    group = [kept, *others]
    sources = all_sources(group)
    merged: dict[str, str] = {}
    if len(sources) == 1:
        merged["source"] = sources[0]
    elif sources:
        merged["sources"] = SOURCES_SEPARATOR.join(sources)
    metadata: dict[str, str] = {}
    for key, value in kept.metadata.items():
        if key in ("source", "sources"):
            metadata.update(merged)  # where the kept line had its source
        else:
            metadata[key] = value
    for key, value in merged.items():
        metadata.setdefault(key, value)
    dates = [fact.added for fact in group if fact.added]
    if dates:
        metadata["added"] = min(dates)
    top = max(group, key=lambda fact: fact.rank)
    if top.rank > kept.rank or "by" in metadata:
        metadata["by"] = top.by
    if not metadata:
        return kept.raw
    return format_entry(kept.text, metadata)


def all_sources(facts: Sequence[Fact]) -> list[str]:
    """Every distinct `source` / `sources` value of the facts, in order."""
    found: list[str] = []
    for fact in facts:
        meta = fact.metadata
        values = [meta.get("source", "")]
        values += meta.get("sources", "").split(SOURCES_SEPARATOR.strip())
        for value in values:
            value = value.strip()
            if value and value not in found:
                found.append(value)
    return found


def best_by_trust(facts: Sequence[Fact]) -> Fact:
    """Who wins among facts about one thing: trust (`by`), then the newest `added`,
    then the one written last."""
    return max(facts, key=lambda fact: (fact.rank, fact.added, fact.order))


def describe(fact: Fact) -> str:
    """A fact as a reason names it: its text, who stated it and when."""
    when = f", added {fact.added}" if fact.added else ""
    return f"{fact.text!r} (by {fact.by}{when}, {fact.path}:{fact.line_no + 1})"


def _norm_line(raw: str) -> str:
    body = raw.strip()
    if body[:1] in "-*+":
        body = body[1:]
    return normalize_text(split_group(body)[0])
