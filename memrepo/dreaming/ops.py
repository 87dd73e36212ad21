"""Building operations: fingerprints, and the one line a merge leaves behind.

A fingerprint names a change, not a run: it hashes the kind, the files, the normalized
text of the lines it touches and of the line it writes (metadata left out, so a new
`added` date does not make yesterday's rejected proposal look new). Fingerprints are
stored in users' repos (commit trailers, review branches) and in dream state, so the
bytes hashed must never change: any faster way of building them must give the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from json.encoder import encode_basestring as _quoted
from operator import attrgetter

from memrepo.dreaming.snapshot import Fact
from memrepo.formats import format_entry, normalize_text
from memrepo.formats.metadata import split_group
from memrepo.models.dream import LineRef, Op, OpKind, PassName

SOURCES_SEPARATOR = ", "
#: A line an operation changes: a fact when the pass has one (its normalized text is
#: then reused, see `_target_norm`), else the line as a LineRef.
Target = LineRef | Fact

_BULLETS = frozenset("-*+")
_ADDED = attrgetter("added")
_RANK = attrgetter("rank")


def fingerprint(
    kind: OpKind, path: str, targets: Sequence[Target], text: str | None, dest: str | None
) -> str:
    """A short stable id of a change (see the module docstring).

    It hashes `json.dumps([kind, path, lines, norm, dest], ensure_ascii=False)`, written
    out here with the encoder's own string quoting: json.dumps builds a new encoder per
    call, which cost more than the rest of the fingerprint. Tests pin the values.
    """
    lines = sorted(f"{t.path}\x00{_target_norm(t)}" for t in targets)
    norm = _norm_line(text) if text is not None else None
    payload = (
        f"[{_quoted(kind)}, {_quoted(path)}, [{', '.join(map(_quoted, lines))}], "
        f"{_json_or_null(norm)}, {_json_or_null(dest)}]"
    )
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _json_or_null(value: str | None) -> str:
    return "null" if value is None else _quoted(value)


def make_op(
    kind: OpKind,
    found_by: PassName,
    path: str,
    reason: str,
    *,
    targets: Sequence[Target] = (),
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
        targets=tuple(t.ref if isinstance(t, Fact) else t for t in targets),
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
    # `added` and `rank` decode a fact's metadata: each is read once per fact.
    dates = [added for added in map(_ADDED, group) if added]
    if dates:
        metadata["added"] = min(dates)
    ranks = list(map(_RANK, group))
    top = max(ranks)
    if top > ranks[0] or "by" in metadata:
        metadata["by"] = group[ranks.index(top)].by  # the first of the most trusted
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
    added = fact.added
    when = f", added {added}" if added else ""
    return f"{fact.text!r} (by {fact.by}{when}, {fact.path}:{fact.line_no + 1})"


def _target_norm(target: Target) -> str:
    """`_norm_line` of the target's line, taken from the fact when it is one.

    For a line whose first character after leading spaces is a `-`, `*` or `+` bullet,
    `_norm_line` and the snapshot (`Fact.norm`) both drop that character and read the
    text of the same rest with `split_group` (their different stripping of whitespace is
    undone by `split_group`'s own), so the fact's `norm` is that value; any other line
    (an ordered list's `1.`) is read again. A test checks both agree on odd lines.
    """
    if isinstance(target, Fact) and target.raw.lstrip(" ")[:1] in _BULLETS:
        return target.norm
    return _norm_line(target.raw)


def _norm_line(raw: str) -> str:
    body = raw.strip()
    if body[:1] in "-*+":
        body = body[1:]
    return normalize_text(split_group(body)[0])
