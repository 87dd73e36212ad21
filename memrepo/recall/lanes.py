"""Lanes: ranked searches that fusion merges. A host adds its own through ``Lane``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from memrepo.index import IndexStore, PlainQuery
from memrepo.recall.visibility import Visibility


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


class SharedIndexSearch:
    """One search of the shared index per query, split into the index lanes.

    The folder and memory lanes live in the same Whoosh index; searching it once with
    both lanes allowed and splitting the hits by their `lane` field costs half of two
    filtered searches, and each lane still gets its own ranks. All query terms first
    (up to `limit` per lane); only when that finds fewer than `limit` hits in all, which
    is all the answer needs, does any term (function words dropped) fill up: the second
    search is the slow tail, and the evals score the same without it.
    """

    def __init__(self, store: IndexStore, lanes: Sequence[str]) -> None:
        self.store = store
        self.lanes = tuple(lanes)
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
        wanted = limit * len(self.lanes)
        found = self.store.search(query.all_terms, filter_terms=filters, limit=wanted)
        if len(found) < limit:
            seen = {hit.ref for hit in found}
            more = self.store.search(query.any_terms, filter_terms=filters, limit=wanted)
            found.extend(hit for hit in more if hit.ref not in seen)
        by_lane: dict[str, list[LaneHit]] = {}
        for hit in found:
            lane = str(hit.fields.get("lane", ""))
            ranked = by_lane.setdefault(lane, [])
            ranked.append(
                LaneHit(hit.ref, str(hit.fields.get("text", "")), len(ranked) + 1, hit.fields)
            )
        return by_lane


class IndexLane:
    """A lane over one `lane` value of the shared Whoosh index (see SharedIndexSearch)."""

    def __init__(self, name: str, weight: float, shared: SharedIndexSearch) -> None:
        self.name = name
        self.weight = weight
        self.shared = shared

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        return self.shared.hits(self.name, query, visibility, limit)
