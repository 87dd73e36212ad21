"""Reading the index: filtered searches on the newest commit's searcher, and the caches
kept for that searcher (filter masks, known terms).

Whoosh makes each commit visible atomically, so a read sees one commit whole. A read
that races a writer's merge may find a segment file already gone; it is retried on a
fresh searcher, and the index is rebuilt only when a probe confirms the damage.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from memrepo.errors import InvalidArgument
from memrepo.index._home import DAMAGE, IndexHome
from memrepo.index._masks import BOOLEAN_FIELDS, FilterKey, SegmentMasks
from memrepo.index.errors import IndexUnavailable
from memrepo.index.schema import ID_FIELDS
from memrepo.index.scoring import SCORING
from memrepo.index.whoosh_door import NullQuery, Or, Query, Term

__all__ = ["FILTER_FIELDS", "IndexHit", "IndexReads"]

FILTER_FIELDS = frozenset(ID_FIELDS) | BOOLEAN_FIELDS
_SEARCH_RETRIES = 3
_FILTER_CACHE = 64
_KNOWN_CACHE = 4096
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class IndexHit:
    """One search result: the document's ref, its score and 1-based rank, stored fields.

    ``terms`` is filled only by a search asked to explain: each index term the
    document matched (``field:term``) and its score.
    """

    ref: str
    score: float
    rank: int
    fields: Mapping[str, Any]
    terms: Mapping[str, float] | None = None


class IndexReads(IndexHome):
    """The reading side of `IndexStore`: searches over the home's newest commit."""

    def __init__(self, path: Path, lock_timeout: float, refill: Callable[[Any], None]) -> None:
        super().__init__(path, lock_timeout, refill)
        # Filter doc-id sets of the current searcher (visibility repeats across recalls;
        # Whoosh would otherwise re-walk every filter posting list on every search).
        self._denied: dict[FilterKey, set[int]] = {}
        self._masks = SegmentMasks()
        # Whether the current searcher holds a term, by (field, term): every recall asks
        # it of its words twice (prefix and label), and words repeat across recalls.
        self._known: dict[tuple[str, str], bool] = {}
        self._pins = 0
        self._pin_checked = False

    def search(
        self,
        q: Query,
        *,
        filter_terms: Mapping[str, Collection[str]] | None = None,
        exclude: Mapping[str, Collection[str]] | None = None,
        limit: int,
        explain: bool = False,
    ) -> list[IndexHit]:
        """Run ``q``; keep documents matching every ``filter_terms`` field (any of its
        values) and drop those matching any ``exclude`` value. Best first, at most
        ``limit``. Booleans (``tainted``, ``uncommitted``) take "yes"/"no". With
        ``explain``, each hit carries the terms it matched and their scores (a slower
        search: Whoosh records matched terms per document)."""
        if q is NullQuery or isinstance(q, type(NullQuery)) or limit <= 0:
            return []
        allow = _filter_key(filter_terms or {})
        if any(not values for _field, values in allow):
            return []  # an empty value set matches nothing
        deny = _exclude_query(exclude or {})

        def run(searcher: Any) -> list[IndexHit]:
            kwargs: dict[str, Any] = {"limit": limit, "terms": explain}
            masked = self._denied_docs(searcher, allow) if allow else set()
            if deny is not None:
                masked = masked | set(searcher.docs_for_query(deny))
            if masked:
                kwargs["mask"] = masked  # an empty set would read as "no mask" anyway
            return [
                IndexHit(
                    hit["ref"],
                    float(hit.score),
                    rank,
                    dict(hit.fields()),
                    _term_scores(searcher, hit) if explain else None,
                )
                for rank, hit in enumerate(searcher.search(q, **kwargs), 1)
            ]

        hits: list[IndexHit] = self._read(run)
        return hits

    def _denied_docs(self, searcher: Any, key: FilterKey) -> set[int]:
        """The doc numbers failing some filter clause, cached for this searcher.

        A filter is turned into its complement: for each field, the values the index
        holds that the filter does not allow (other workspaces, private items, other
        tasks' items...). Those postings are usually few, while the allowed ones are
        nearly every document, and walking those made a one-shot recall slow. Each
        segment's part is kept across commits (`memrepo.index._masks`).
        """
        found = self._denied.get(key)
        if found is None:
            found = self._masks.denied(searcher, key)
            if len(self._denied) >= _FILTER_CACHE:
                self._denied.clear()
            self._denied[key] = found
        return found

    def scan(
        self,
        action: Callable[[Any, set[int]], _T],
        *,
        filter_terms: Mapping[str, Collection[str]],
    ) -> _T:
        """Run ``action(searcher, denied)`` on the commit a search would read, ``denied``
        the doc numbers failing ``filter_terms`` (cached per commit, as for a search):
        for a lane that scores documents itself under the same visibility (the meaning
        lane, issue #29). A damaged index is handled as for a search."""
        allow = _filter_key(filter_terms)

        def run(searcher: Any) -> _T:
            return action(searcher, self._denied_docs(searcher, allow) if allow else set())

        found: _T = self._read(run)
        return found

    def fetch(
        self,
        refs: Collection[str],
        *,
        filter_terms: Mapping[str, Collection[str]] | None = None,
        exclude: Mapping[str, Collection[str]] | None = None,
    ) -> list[IndexHit]:
        """The documents with these refs that pass the same filters a search applies."""
        if not refs:
            return []
        return self.search(
            Or([Term("ref", ref) for ref in refs]),
            filter_terms=filter_terms,
            exclude=exclude,
            limit=len(refs),
        )

    def known_terms(self, fieldname: str, terms: Iterable[str]) -> set[str]:
        """Which of ``terms`` some document holds in ``fieldname`` (deleted ones may count
        until a merge): what decides a prefix search or a label boost."""
        wanted = list(terms)

        def look(searcher: Any) -> set[str]:
            known, reader = self._known, searcher.reader()
            if len(known) >= _KNOWN_CACHE:
                known.clear()
            found = set()
            for term in wanted:
                held = known.get((fieldname, term))
                if held is None:
                    held = known[(fieldname, term)] = bool(reader.doc_frequency(fieldname, term))
                if held:
                    found.add(term)
            return found

        found: set[str] = self._read(look) if wanted else set()
        return found

    def doc_count(self) -> int:
        """How many documents the index holds now."""
        count: int = self._read(lambda s: s.doc_count())
        return count

    def warm(self) -> None:
        """Open the searcher of the newest commit and rebuild the filter masks the last
        one had: the writer that made the commit pays for them right behind its write,
        not the next recall (issue #28)."""
        keys = list(self._denied)

        def fill(searcher: Any) -> None:
            for key in keys:
                self._denied_docs(searcher, key)

        self._read(fill)

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Reads inside the block see one commit: the newest when the first of them ran
        (and this store's own writes). One recall reads several times (the known terms
        of its query twice, then the search); each looking for a newer commit again
        cost a directory listing, and two reads could answer from two commits."""
        self._pins += 1
        try:
            yield
        finally:
            self._pins -= 1
            if not self._pins:
                self._pin_checked = False

    def _current(self) -> Any:
        """The searcher of the newest commit (or of the pinned one, see `pinned`)."""
        if self._searcher is not None and self._pin_checked:
            return self._searcher
        # Not `Searcher.refresh()`: it reuses segment readers by segment id, so a commit
        # that only deletes would stay invisible.
        if self._searcher is None or not self._searcher.up_to_date():
            self._close_searcher()
            self._searcher = self._index().searcher(weighting=SCORING)
        self._pin_checked = self._pins > 0
        return self._searcher

    def _read(self, action: Callable[[Any], Any]) -> Any:
        """Run ``action(searcher)`` on the newest commit, retrying a racing merge."""
        last: BaseException | None = None
        for _attempt in range(_SEARCH_RETRIES):
            try:
                return action(self._current())
            except DAMAGE as exc:
                last = exc
                self._close_searcher()
                time.sleep(0.01)
        # Still failing on a fresh searcher: rebuild only if a probe confirms the damage
        # (a writer in another process may just have been unlucky timing).
        with self._file_lock():
            reason = self._problem()
            if reason is not None:
                self._rebuild(f"{reason}; reading had failed with {type(last).__name__}")
        try:
            return action(self._current())
        except DAMAGE as exc:
            raise IndexUnavailable(str(self.path), f"{type(exc).__name__}: {exc}") from exc

    def _close_searcher(self) -> None:
        """Close the searcher, and forget what was kept of it."""
        self._denied.clear()
        self._known.clear()
        self._pin_checked = False
        super()._close_searcher()


def _term_scores(searcher: Any, hit: Any) -> dict[str, float]:
    """The score each matched term gave this hit (before query boosts), by ``field:term``."""
    scores: dict[str, float] = {}
    for fieldname, btext in sorted(hit.matched_terms()):
        text = btext.decode("utf-8") if isinstance(btext, bytes) else str(btext)
        matcher = searcher.postings(fieldname, text, weighting=searcher.weighting)
        matcher.skip_to(hit.docnum)
        if matcher.is_active() and matcher.id() == hit.docnum:
            scores[f"{fieldname}:{text}"] = round(float(matcher.score()), 4)
    return scores


def _check_fields(mapping: Mapping[str, Collection[str]]) -> None:
    unknown = set(mapping) - FILTER_FIELDS
    if unknown:
        raise InvalidArgument(
            f"cannot filter on {', '.join(sorted(unknown))}; "
            f"filterable fields are {', '.join(sorted(FILTER_FIELDS))}"
        )


def _filter_key(filter_terms: Mapping[str, Collection[str]]) -> FilterKey:
    """All fields must match one of their values; an empty value set matches nothing."""
    _check_fields(filter_terms)
    return frozenset((field, frozenset(values)) for field, values in filter_terms.items())


def _exclude_query(exclude: Mapping[str, Collection[str]]) -> Query | None:
    _check_fields(exclude)
    clauses = [Term(field, value) for field, values in exclude.items() for value in values]
    return Or(clauses) if clauses else None
