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


class IndexLane:
    """A lane over one `lane` value of the shared Whoosh index.

    All query terms first; when that finds fewer than `limit`, any term (function words
    dropped) fills up the rest, so an exact match always outranks a partial one.
    """

    def __init__(self, name: str, weight: float, store: IndexStore) -> None:
        self.name = name
        self.weight = weight
        self.store = store

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        if query.is_empty:
            return []
        filters = {**visibility.filter_terms(), "lane": {self.name}}
        hits = self.store.search(query.all_terms, filter_terms=filters, limit=limit)
        if len(hits) < limit:
            seen = {hit.ref for hit in hits}
            more = self.store.search(query.any_terms, filter_terms=filters, limit=limit)
            hits.extend(hit for hit in more if hit.ref not in seen)
        return [
            LaneHit(hit.ref, str(hit.fields.get("text", "")), rank, hit.fields)
            for rank, hit in enumerate(hits[:limit], start=1)
        ]
