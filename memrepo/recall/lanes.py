"""Lanes: ranked searches that fusion merges. A host adds its own through ``Lane``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeGuard

from memrepo.index import IndexHit, IndexStore, PlainQuery, SearchQuery
from memrepo.recall.matching import matches
from memrepo.recall.visibility import CONTEXT_BOOST, Visibility


@dataclass(frozen=True, slots=True)
class LaneHit:
    """One ranked hit of one lane; `fields` carries provenance (path, line, by, ...)."""

    ref: str
    text: str
    rank: int
    fields: Mapping[str, Any] = field(default_factory=dict)


class Lane(Protocol):
    """A source of ranked hits. It must apply `visibility` itself (never leak)."""

    name: str
    weight: float

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> Sequence[LaneHit]:
        """At most `limit` hits, best first."""
        ...


class PreparedLane(Lane, Protocol):
    """A lane with a head start: `prepare` is called with the query before any lane
    searches (`memrepo.recall.service.run_recall`), so slow work that releases the GIL
    (the meaning lane's embedding of the question) runs while the other lanes search.
    Its failure is ignored there: `search` must do the work again and raise if it fails."""

    def prepare(self, query: PlainQuery) -> None: ...


def is_prepared(lane: Lane) -> TypeGuard[PreparedLane]:
    """Whether `lane` has a head start to give (`PreparedLane`)."""
    return callable(getattr(lane, "prepare", None))


CALIBRATED_FIELD = "_calibrated"
"""The key under which a calibrated lane puts a hit's score (a cosine, say) in its fields."""


class CalibratedLane(Lane, Protocol):
    """A lane whose hits carry a calibrated score (`CALIBRATED_FIELD`, comparable across
    queries and documents, higher is better), which fusion blends with the lexical
    relevance instead of fusing by rank (`memrepo.recall.fusion.blend`; issue #29: rank
    fusion at today's depth threw a dense lane's signal away). `weight` is the share of
    its rescaled score in the blend. Fusion asks it to score the other lanes'
    candidates too, so every document of the union is blended on the same scale."""

    calibrated: Literal[True]

    def scores(
        self, query: PlainQuery, visibility: Visibility, hits: Sequence[LaneHit]
    ) -> list[float | None]:
        """The score of each of `hits` (other lanes' hits of this query), or None for
        a document this lane does not hold or may not show `visibility`'s reader."""
        ...


def is_calibrated(lane: Lane) -> TypeGuard[CalibratedLane]:
    """Whether fusion blends `lane` by score (it says `calibrated = True`)."""
    return getattr(lane, "calibrated", False) is True and callable(getattr(lane, "scores", None))


LABEL_BOOST = 1.5
"""An entry whose label (its speaker, author or contact) the query names scores this much
more."""
RERANK_SLACK = 0.5
"""How many more hits than asked for are fetched when a factor can reorder them."""
CONTEXT_FLOOR = 0.25
"""A hit matched only through its context must score this share of the best hit."""


class SharedIndexSearch:
    """One search of the shared index per query, split into the index lanes.

    The folder, memory, team and swarm lanes live in the same Whoosh index; searching it
    once with every lane allowed and splitting the hits by their `lane` field costs half
    of separate filtered searches. Their scores are comparable (one BM25F over one
    index), so the hits are ranked together by score times lane `weights` times the
    reader's context boost, and each lane hit's rank is its place in that one order: a
    strong team match outranks a weak folder one, and a weak match in the reader's own
    workspace does not jump a strong global one, which ranks fused by rank (rank 1 is
    rank 1, whatever the score) would reverse. The query is one
    any-word query (`memrepo.index.query`); its last word also matches as a prefix only
    when the index does not hold it, and an entry whose label the query names scores
    `LABEL_BOOST` times more (see `_top` for how deep that reorders).
    """

    def __init__(
        self,
        store: IndexStore,
        lanes: Sequence[str],
        *,
        weights: Mapping[str, float] | None = None,
        explain: bool = False,
    ) -> None:
        self.store = store
        self.lanes = tuple(lanes)
        self.weights = dict(weights or {})
        self.explain = explain
        self._key: tuple[str, Visibility, int] | None = None
        self._by_lane: dict[str, list[LaneHit]] = {}

    def hits(
        self, lane: str, query: PlainQuery, visibility: Visibility, limit: int
    ) -> list[LaneHit]:
        key = (query.text, visibility, limit)
        if key != self._key:
            self._by_lane = self._search(query, visibility, limit)
            self._key = key
        return self._by_lane.get(lane, [])[:limit]

    def _search(
        self, query: PlainQuery, visibility: Visibility, limit: int
    ) -> dict[str, list[LaneHit]]:
        if query.is_empty or not self.lanes:
            return {}
        filters = {**visibility.filter_terms(), "lane": set(self.lanes)}
        q = query.words
        probe = [query.last_word] if query.last_word else []
        known = self.store.known_terms("exact", probe)
        if query.last_word and query.last_word not in known:
            q = query.with_prefix()
        named = self.store.known_terms("label", query.distinctive)

        def factor(hit: IndexHit) -> float:
            boost = visibility.context_boost(hit.fields) * _label_boost(hit, named)
            return self._weight(hit) * boost

        most = max(self.weights.get(lane, 1.0) for lane in self.lanes)
        most *= (LABEL_BOOST if named else 1.0) * (CONTEXT_BOOST if visibility.has_context else 1.0)
        found = self._top(q, filters, limit, factor, most)
        found = _strong_enough(found, query)
        by_lane: dict[str, list[LaneHit]] = {}
        for rank, (hit, score) in enumerate(found, 1):
            ranked = by_lane.setdefault(str(hit.fields.get("lane", "")), [])
            fields = {**hit.fields, SCORE_FIELD: score}
            if hit.terms is not None:
                fields.update(_explained(hit, named))
            text = str(hit.fields.get("text", ""))
            ranked.append(LaneHit(hit.ref, text, rank, fields))
        return by_lane

    def _weight(self, hit: IndexHit) -> float:
        return self.weights.get(str(hit.fields.get("lane", "")), 1.0)

    def _top(
        self,
        q: SearchQuery,
        filters: Mapping[str, Collection[str]],
        limit: int,
        factor: Callable[[IndexHit], float],
        most: float,
    ) -> list[tuple[IndexHit, float]]:
        """The best `limit` hits by score x `factor`, best first (`most` bounds `factor`).

        Whoosh ranks by score alone, and its cost grows with the hits it keeps. When a
        factor can lift a hit (`most` > 1: a label the query names, the reader's own
        context, lanes of other weights), `RERANK_SLACK` more are fetched to rerank. An
        exact search (deepen until no unfetched hit could climb) cost twice the time on
        the benchmarks and found the same answers (REALTALK R@10 0.590 vs 0.591); no
        slack lost 1.5 points of R@10 there (0.576).
        """
        depth = limit if most <= 1.0 else limit + int(limit * RERANK_SLACK)
        found = self.store.search(q, filter_terms=filters, limit=depth, explain=self.explain)
        scored = [(hit, hit.score * factor(hit)) for hit in found]
        scored.sort(key=lambda pair: (-pair[1], pair[0].rank))
        return scored[:limit]


SCORE_FIELD = "_score"
"""The key under which the shared search puts a hit's final score (what `relevance` of
an index hit is relative to: its ranks alone would make every hit look about as good)."""
EXPLAIN_FIELD = "_explain"
"""The key under which an explaining search puts its scores in a hit's fields."""


def _label_boost(hit: IndexHit, named: set[str]) -> float:
    """`LABEL_BOOST` when the query names the hit's label, else 1."""
    labels = str(hit.fields.get("label", "")).split()
    return LABEL_BOOST if named and named.intersection(labels) else 1.0


def _explained(hit: IndexHit, named: set[str]) -> dict[str, Any]:
    return {
        EXPLAIN_FIELD: {
            "index_score": hit.score,
            "label_boost": _label_boost(hit, named),
            "terms": dict(hit.terms or {}),
        }
    }


def _strong_enough(
    hits: list[tuple[IndexHit, float]], query: PlainQuery
) -> list[tuple[IndexHit, float]]:
    """The hits without those found through their context alone by a weak match.

    A neighbour's words count a quarter of the entry's own, so one query word in a
    neighbour would list every line beside a match (in a file of unrelated facts, pure
    noise). A context-only hit stays when the query has several words and it scores at
    least `CONTEXT_FLOOR` of the best hit: several query words around it, the case
    context is for.
    """
    if not hits:
        return hits
    several = len(query.distinctive) + len(query.dates) > 1
    floor = CONTEXT_FLOOR * max(score for _hit, score in hits) if several else float("inf")
    return [(hit, score) for hit, score in hits if score >= floor or matches(query, hit.fields).own]


class IndexLane:
    """A lane over one `lane` value of the shared Whoosh index (see SharedIndexSearch).

    Its ranks already carry the lane weight and the reader's boost (`ranked_by_score`),
    so fusion applies neither again.
    """

    ranked_by_score = True

    def __init__(self, name: str, weight: float, shared: SharedIndexSearch) -> None:
        self.name = name
        self.weight = weight
        self.shared = shared

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        return self.shared.hits(self.name, query, visibility, limit)
