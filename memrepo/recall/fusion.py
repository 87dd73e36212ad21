"""Weighted reciprocal-rank fusion, and a score blend for calibrated lanes
(docs/architecture.md §6).

score = Σ over lanes of weight / (k + rank). Hits with the same normalized text merge: the
strongest lane's hit is kept and every lane's rank is recorded. Relevance is the score
relative to the best hit. The lanes rank by BM25F over each entry and its context; a
rescaling by how many query words the hit's own line holds was measured to lose recall
on top of that (``../shared/research/recall.md``), so there is none.

A lane that gives a calibrated score (`CalibratedLane`: the meaning lane's cosine) is not
fused by rank: issue #29 measured that rank fusion at ten hits a lane throws its signal
away (REALTALK R@10 0.569 -> 0.545). `blend` adds it to the lexical relevance instead,
over the union of both lanes' deeper lists (`BLEND_DEPTH`): relevance + weight x the
score min-max rescaled over that union. Without such a lane nothing here changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memrepo.index.schema import norm_hash
from memrepo.recall.lanes import CALIBRATED_FIELD, SCORE_FIELD, LaneHit

RRF_K = 60
BLEND_DEPTH = 50
"""How deep every lane searches when a calibrated lane takes part: the blend's gain comes
from entries the lexical ranking puts at 11-50 (issue #29; cut to the top 10 of each
side, almost nothing was left)."""


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
    #: Set by `blend`: the lexical relevance and each calibrated lane's own score.
    parts: BlendParts | None = None


@dataclass(frozen=True, slots=True)
class BlendParts:
    """What a blended hit's score is made of (what ``explain`` shows): its lexical
    relevance (0 when only a calibrated lane found it) and each calibrated lane's own
    score (a cosine) before rescaling; `Fused.contributions` holds what each added."""

    lexical: float
    calibrated: dict[str, float]


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
            key = merge_key(hit)
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


def merge_key(hit: LaneHit) -> str:
    """Hits with the same key are one document to fusion: its normalized text's hash."""
    return str(hit.fields.get("norm_hash") or norm_hash(hit.text))


def lexical_relevance(fused: Sequence[Fused]) -> list[float]:
    """Each hit's relevance, as recall reports it: an index hit's score over the best
    index hit's (BM25F is comparable across the shared lanes), any other hit's fused
    score over the best one's."""
    own = [f.hit.fields.get(SCORE_FIELD) for f in fused]
    best_own = max((v for v in own if isinstance(v, float)), default=0.0)
    best = max((f.score for f in fused), default=0.0)
    return [
        min(1.0, v / best_own)
        if isinstance(v, float) and best_own > 0
        else (f.score / best if best > 0 else 0.0)
        for f, v in zip(fused, own, strict=True)
    ]


Rescore = Callable[[str, Sequence[LaneHit]], Sequence[float | None]]
"""(calibrated lane, hits it did not return) -> its score of each, None: not scored."""


def blend(
    lexical: Sequence[Fused],
    calibrated: Mapping[str, Sequence[LaneHit]],
    weights: Mapping[str, float],
    *,
    rescore: Rescore,
    boost: Callable[[Mapping[str, Any]], float] | None = None,
) -> list[Fused]:
    """The union of the lexically fused hits and the calibrated lanes' hits, best first.

    score = lexical relevance + Σ over calibrated lanes of weight x the lane's score
    min-max rescaled over the union (x `boost(fields)`, the reader's context, as `fuse`
    boosts a lane that did not rank with it). A lexical candidate a calibrated lane did
    not return is scored by it through `rescore`, so the whole union is on one scale; a
    document it cannot score adds nothing. A hit only a calibrated lane found keeps its
    document's own lane (folder, memory, ...): the lane found it, the document is where
    it lives.
    """
    union: dict[str, Fused] = {}
    for fused, relevance in zip(lexical, lexical_relevance(lexical), strict=True):
        union[merge_key(fused.hit)] = Fused(
            fused.hit,
            fused.lane,
            relevance,
            fused.best_contribution,
            dict(fused.lane_ranks),
            _shares(fused.contributions, relevance),
            BlendParts(relevance, {}),
        )
    raw = {lane: _own_scores(lane, hits, union) for lane, hits in calibrated.items()}
    for lane, scores in raw.items():
        unscored = [(key, f.hit) for key, f in union.items() if key not in scores]
        found = rescore(lane, [hit for _key, hit in unscored]) if unscored else []
        for (key, _hit), value in zip(unscored, found, strict=True):
            if value is not None and math.isfinite(value):
                scores[key] = float(value)
        _add_rescaled(lane, scores, union, weights.get(lane, 1.0), boost)
    return sorted(union.values(), key=lambda f: (-f.score, f.hit.ref))


def _own_scores(lane: str, hits: Sequence[LaneHit], union: dict[str, Fused]) -> dict[str, float]:
    """The scores a calibrated lane's hits carry, by merge key; each hit joins the union
    (or records its rank on the hit already there)."""
    scores: dict[str, float] = {}
    for hit in hits:
        key = merge_key(hit)
        value = hit.fields.get(CALIBRATED_FIELD)
        if isinstance(value, (int, float)) and math.isfinite(value):
            scores.setdefault(key, float(value))
        current = union.get(key)
        if current is None:
            home = str(hit.fields.get("lane") or lane)
            union[key] = Fused(hit, home, 0.0, 0.0, {lane: hit.rank}, {}, BlendParts(0.0, {}))
        else:
            current.lane_ranks.setdefault(lane, hit.rank)
    return scores


def _add_rescaled(
    lane: str,
    scores: Mapping[str, float],
    union: Mapping[str, Fused],
    weight: float,
    boost: Callable[[Mapping[str, Any]], float] | None,
) -> None:
    """Add weight x each score min-max rescaled over the union (the lowest adds 0, the
    highest the full weight; all equal: nothing, they tell no document apart)."""
    if not scores:
        return
    low, high = min(scores.values()), max(scores.values())
    for key, value in scores.items():
        fused = union[key]
        added = weight * (value - low) / (high - low) if high > low else 0.0
        if boost is not None:
            added *= boost(fused.hit.fields)
        fused.score += added
        fused.contributions[lane] = added
        if fused.parts is not None:
            fused.parts.calibrated[lane] = value


def _shares(contributions: Mapping[str, float], relevance: float) -> dict[str, float]:
    """The lexical relevance split among the lexical lanes by what each added to the
    fused score (one lane, nearly always: it gets it all)."""
    total = sum(contributions.values())
    if total <= 0:
        return dict.fromkeys(contributions, 0.0)
    return {lane: relevance * value / total for lane, value in contributions.items()}
