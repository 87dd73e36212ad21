"""Weighted reciprocal-rank fusion (docs/architecture.md §6).

score = Σ over lanes of weight / (k + rank). Hits with the same normalized text merge: the
strongest lane's hit is kept and every lane's rank is recorded. Relevance is the score
relative to the best hit. The lanes rank by BM25F over each entry and its context; a
rescaling by how many query words the hit's own line holds was measured to lose recall
on top of that (``../shared/research/recall.md``), so there is none.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memrepo.index.schema import norm_hash
from memrepo.recall.lanes import LaneHit

RRF_K = 60


@dataclass(slots=True)
class Fused:
    """One merged hit: the strongest lane's hit, the fused score, every lane's rank and
    what each lane added to the score (what ``explain`` shows)."""

    hit: LaneHit
    lane: str
    score: float
    best_contribution: float
    lane_ranks: dict[str, int] = field(default_factory=dict)
    contributions: dict[str, float] = field(default_factory=dict)


def fuse(
    results: Mapping[str, Sequence[LaneHit]],
    weights: Mapping[str, float],
    *,
    k: int = RRF_K,
    boost: Callable[[Mapping[str, Any]], float] | None = None,
    boosted: Collection[str] = (),
) -> list[Fused]:
    """Merge ranked lanes into one list, best first (ties broken by ref, for stable output).

    `boost(fields)` scales a hit's contribution (1.0: none); recall uses it to put facts
    of the reader's own task, contact and workspace ahead of equally good global ones.
    Lanes in `boosted` ranked their hits with it already and are not boosted again.
    """
    merged: dict[str, Fused] = {}
    for lane, hits in results.items():
        weight = weights.get(lane, 1.0)
        for hit in hits:
            contribution = weight / (k + hit.rank)
            if boost is not None and lane not in boosted:
                contribution *= boost(hit.fields)
            key = str(hit.fields.get("norm_hash") or norm_hash(hit.text))
            current = merged.get(key)
            if current is None:
                merged[key] = Fused(
                    hit, lane, contribution, contribution, {lane: hit.rank}, {lane: contribution}
                )
                continue
            current.score += contribution
            current.lane_ranks.setdefault(lane, hit.rank)
            current.contributions[lane] = current.contributions.get(lane, 0.0) + contribution
            if contribution > current.best_contribution:
                current.hit, current.lane, current.best_contribution = hit, lane, contribution
    return sorted(merged.values(), key=lambda f: (-f.score, f.hit.ref))
