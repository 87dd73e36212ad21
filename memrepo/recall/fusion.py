"""Weighted reciprocal-rank fusion (DESIGN §6).

score = Σ over lanes of weight / (k + rank), each contribution scaled by
0.4 + 0.6 * coverage when the query has at least two distinctive terms, where coverage is
the share of those terms the hit's text contains (exact, stemmed, or the last term as a
prefix). Hits with the same normalized text merge: the strongest lane's hit is kept and
every lane's rank is recorded. Relevance is the score relative to the best hit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memrepo.index.analysis import analyze, stem
from memrepo.index.schema import norm_hash
from memrepo.recall.lanes import LaneHit

RRF_K = 60


@dataclass(slots=True)
class Fused:
    """One merged hit: the strongest lane's hit, the fused score, every lane's rank."""

    hit: LaneHit
    lane: str
    score: float
    best_contribution: float
    lane_ranks: dict[str, int] = field(default_factory=dict)


def coverage(text: str, distinctive: Sequence[str]) -> float:
    """Share of the distinctive query terms found in `text` (1.0 for an empty query)."""
    if not distinctive:
        return 1.0
    exact = set(analyze(text))
    stems = set(analyze(text, stemmed=True))
    last = distinctive[-1]
    found = 0
    for term in distinctive:
        if (
            term in exact
            or stem(term) in stems
            or (term == last and len(term) >= 2 and any(t.startswith(term) for t in exact))
        ):
            found += 1
    return found / len(distinctive)


def fuse(
    results: Mapping[str, Sequence[LaneHit]],
    weights: Mapping[str, float],
    distinctive: Sequence[str],
    *,
    k: int = RRF_K,
    boost: Callable[[Mapping[str, Any]], float] | None = None,
) -> list[Fused]:
    """Merge ranked lanes into one list, best first (ties broken by ref, for stable output).

    `boost(fields)` scales a hit's contribution (1.0: none); recall uses it to put facts
    of the reader's own task, contact and workspace ahead of equally good global ones.
    """
    scale_by_coverage = len(distinctive) >= 2
    merged: dict[str, Fused] = {}
    for lane, hits in results.items():
        weight = weights.get(lane, 1.0)
        for hit in hits:
            contribution = weight / (k + hit.rank)
            if scale_by_coverage:
                contribution *= 0.4 + 0.6 * coverage(hit.text, distinctive)
            if boost is not None:
                contribution *= boost(hit.fields)
            key = str(hit.fields.get("norm_hash") or norm_hash(hit.text))
            current = merged.get(key)
            if current is None:
                merged[key] = Fused(hit, lane, contribution, contribution, {lane: hit.rank})
                continue
            current.score += contribution
            current.lane_ranks.setdefault(lane, hit.rank)
            if contribution > current.best_contribution:
                current.hit, current.lane, current.best_contribution = hit, lane, contribution
    return sorted(merged.values(), key=lambda f: (-f.score, f.hit.ref))
