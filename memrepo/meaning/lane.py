"""The meaning lane: recall by what a question means, not the words it shares (issue #29).

A `MeaningLane` is a `CalibratedLane` (`memrepo.recall.lanes`): its hits carry their
cosine with the question, and fusion blends that with the lexical relevance
(`memrepo.recall.fusion.blend`) instead of fusing by rank, which threw the signal away.

What it scores is what the index holds: the documents of the shared Whoosh index that
pass the reader's visibility, as the index lanes filter them (`Visibility.filter_terms`,
applied through the index's own filter masks, `IndexStore.scan`), and only those of the
index lanes it covers (a caller that shuts the team lane shuts it here too). A document
that may not be recalled in a context is therefore never scored there: workspace, team,
private and third-party rules are the index's, not a copy of them. The vector store
(`memrepo.meaning.vectors.VectorStore`) holds an entry vector per document ref; the
search is asked for the rows of visible documents only (its mask).

Whoosh segments never change once written, so the ref of each document number is read
once per segment and kept (`MeaningSearch`); a commit adds a segment and deletions only
mask. The row of each document in the vector store is mapped again when a segment, a
deletion or the store's rows change.

A hit carries the fields an index hit carries (ref, path, line, norm_hash, lane, ...), so
fusion merges a document both lanes found into one hit, plus its cosine under
`CALIBRATED_FIELD`; never the index lanes' BM25 score (`SCORE_FIELD`). Fusion asks for
the cosine of the lexical candidates too (`MeaningLane.scores`): they come from the same
search, which keeps the `SCORE_DEPTH` nearest visible documents; one further away adds
nothing to the blend, as the farthest candidate would.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from memrepo.index import IndexStore, PlainQuery
from memrepo.meaning.matrix import MatrixView, Nearest
from memrepo.meaning.model import TextEmbedder
from memrepo.recall.lanes import CALIBRATED_FIELD, SCORE_FIELD, LaneHit
from memrepo.recall.visibility import Visibility

__all__ = ["LANE", "MEANING_WEIGHT", "EntryVectors", "MeaningLane", "MeaningSearch"]

LANE = "meaning"
MEANING_WEIGHT = 0.5
"""The share of the rescaled cosine in the blend (issue #29 measured 0.3-0.5 to carry).
Tuned on REALTALK chats 1-5 only (`benchmarks/bench_quality.py --meaning`), with the
packaged all-MiniLM-L6-v2: R@5 / R@10 there 0.533 / 0.616 without the lane; with it
0.542 / 0.634 at 0.4, 0.546 / 0.640 at 0.5, 0.537 / 0.636 at 0.6. Other blends tried
there did no better: the lexical relevance min-max rescaled too (0.545 / 0.635 at 0.6),
the raw cosine added unscaled (0.547 / 0.638 at 1.0), the cosine as a z-score, or only
its part above the median."""
MEANING_HITS = 10
"""At most this many hits a search returns (the nearest), however deep fusion asks: each
costs a read of its stored fields, and on REALTALK chats 1-5 returning 10, 20 or 50 gave
the same R@5 and R@10 (a document the lane finds further down does not climb over the
lexical candidates). The cosines of the other lanes' candidates come from the deeper
`SCORE_DEPTH` list."""
SCORE_DEPTH = 1000
"""How many of the nearest visible documents one search keeps the cosine of, for fusion
to blend the lexical candidates with (`MeaningLane.scores`)."""
INDEX_LANES = ("folder", "memory", "swarm", "team")

Vector = npt.NDArray[np.float32]
Rows = npt.NDArray[np.int64]


class EntryVectors(Protocol):
    """What the lane needs of the vector store (`VectorStore` is one)."""

    def rows(self) -> list[str]:
        """The ref of each row ("" for a free row): the order a `search` mask follows."""
        ...

    def search(
        self, query: Vector, k: int, mask: npt.NDArray[np.bool_] | None = None
    ) -> list[tuple[str, float]]:
        """The `k` rows nearest `query` that `mask` lets through, best first, with their
        cosine."""
        ...

    def view(self) -> MatrixView:
        """The rows now, for a product on another thread."""
        ...

    def nearest(
        self,
        query: Vector,
        k: int,
        depth: int,
        mask: npt.NDArray[np.bool_] | None = None,
        products: tuple[MatrixView, Vector] | None = None,
    ) -> Nearest:
        """`search`, with the cosine of the `depth` nearest rows kept; `products` are
        a view's, computed earlier (used if the rows did not change)."""
        ...


@dataclass(frozen=True, slots=True)
class _Catalogue:
    """One commit of the index seen against one state of the vector store: the row of
    each document number (-1: deleted or no vector) and the document number of each ref."""

    key: tuple[object, ...]
    rows: Rows
    docs: dict[str, int]


@dataclass(frozen=True, slots=True)
class _Found:
    """One search's nearest visible documents: what `MeaningLane.scores` reads."""

    key: tuple[str, object]
    nearest: Nearest
    catalogue: _Catalogue

    def cosine(self, ref: str) -> float | None:
        doc = self.catalogue.docs.get(ref)
        return None if doc is None else self.nearest.cosine(int(self.catalogue.rows[doc]))


Ahead = tuple[Vector, tuple[MatrixView, Vector] | None]
"""What a recall's head start computed: the question's vector and, when the rows could
be read, their products with it."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A question being embedded on a worker thread (`MeaningSearch.prepare`)."""

    text: str
    job: Future[Ahead]


_WORKERS: ThreadPoolExecutor | None = None
_WORKERS_LOCK = threading.Lock()
SWITCH_INTERVAL = 0.0005
"""Python's GIL switch interval (seconds) while a question is embedded ahead. The worker
needs the GIL for moments between ONNX Runtime's and BLAS's calls, and with the default
5 ms it waited that long each time Whoosh held it: at 10,000 entries the question was
ready 19 ms after it was asked instead of 8 (9 with 0.2 ms, 12 with 1 ms; a pure-Python
loop in place of Whoosh, `benchmarks/bench_quality.py --meaning-scale`). Set for the
job's run only, then given back: the host's own threads are not switched more often."""
_running = 0
_saved_interval = 0.005


def _workers() -> ThreadPoolExecutor:
    """The threads that embed questions ahead, started on the first recall that asks:
    two, so two recalls of one server each get one."""
    global _WORKERS
    with _WORKERS_LOCK:
        if _WORKERS is None:
            _WORKERS = ThreadPoolExecutor(2, thread_name_prefix="memrepo-meaning")
        return _WORKERS


def _hurry() -> None:
    """Lower the switch interval while a job runs (`SWITCH_INTERVAL`); jobs nest."""
    global _running, _saved_interval
    with _WORKERS_LOCK:
        if _running == 0:
            _saved_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(_saved_interval, SWITCH_INTERVAL))
        _running += 1


def _unhurry() -> None:
    """Give the switch interval back when the last job running is done."""
    global _running
    with _WORKERS_LOCK:
        _running -= 1
        if _running == 0:
            sys.setswitchinterval(_saved_interval)


def _hurried(
    embedder: TextEmbedder, text: str, known: Vector | None, view: MatrixView | None
) -> Ahead:
    """`_ahead`, giving the switch interval back before its answer is seen."""
    try:
        return _ahead(embedder, text, known, view)
    finally:
        _unhurry()


def _ahead(
    embedder: TextEmbedder, text: str, known: Vector | None, view: MatrixView | None
) -> Ahead:
    """Embed `text` (unless `known`) and take its products with `view`'s rows: ONNX
    Runtime and BLAS release the GIL, so this runs beside the lexical search."""
    query = known if known is not None else np.asarray(embedder.embed([text])[0], np.float32)
    return query, (view, view.products(query)) if view is not None else None


class MeaningSearch:
    """The lane's state for one memory root, kept across recalls: the model, the vector
    store, the refs of each index segment and the map of the commit last read. Build a
    `MeaningLane` over it per recall (`lane`)."""

    def __init__(
        self,
        store: IndexStore | Callable[[], IndexStore],
        vectors: EntryVectors,
        embedder: TextEmbedder,
    ) -> None:
        self._store = store
        self.vectors = vectors
        self.embedder = embedder
        self._segment_refs: dict[str, list[str]] = {}
        self._catalogue: _Catalogue | None = None
        self._query: tuple[str, Vector] | None = None
        self._found: _Found | None = None

    def lane(
        self,
        lanes: Collection[str] = INDEX_LANES,
        *,
        weight: float = MEANING_WEIGHT,
        hits: int = MEANING_HITS,
    ) -> MeaningLane:
        """A lane over the documents of the index lanes `lanes` (those the reader's
        recall searches: a lane shut for this reader is shut here too)."""
        return MeaningLane(self, lanes, weight=weight, hits=hits)

    def store(self) -> IndexStore:
        return self._store if isinstance(self._store, IndexStore) else self._store()

    def prepare(self, text: str) -> _Prepared:
        """Start embedding `text` on a worker thread, with the products of the rows as
        they are now (the caller holds the vectors' guard, if any): the lexical lanes
        search meanwhile (issue #29, Budgets: the question's embedding is most of the
        lane's cost). `top` takes the answer, or does the work itself if rows changed."""
        known = self._query[1] if self._query is not None and self._query[0] == text else None
        view = self.vectors.view()
        workers = _workers()
        _hurry()
        try:
            job = workers.submit(_hurried, self.embedder, text, known, view)
        except BaseException:  # no job will give it back
            _unhurry()
            raise
        return _Prepared(text, job)

    def query_vector(self, text: str) -> Vector:
        """The question's vector (the last one is kept: a recall may ask twice)."""
        if self._query is None or self._query[0] != text:
            self._query = (text, np.asarray(self.embedder.embed([text])[0], dtype=np.float32))
        return self._query[1]

    def top(
        self,
        text: str,
        filter_terms: Mapping[str, Collection[str]],
        limit: int,
        prepared: _Prepared | None = None,
    ) -> list[tuple[dict[str, Any], float]]:
        """The `limit` documents passing `filter_terms` nearest `text` in meaning, best
        first, with their stored fields and cosine; keeps the `SCORE_DEPTH` nearest for
        `cosines`. `prepared`: this question's head start (`prepare`), if any."""
        products = None
        if prepared is not None and prepared.text == text:
            query, products = prepared.job.result()
            self._query = (text, query)
        else:
            query = self.query_vector(text)
        key = (text, _filter_key(filter_terms))

        def run(searcher: Any, denied: set[int]) -> list[tuple[dict[str, Any], float]]:
            catalogue = self._map(searcher)
            rows = catalogue.rows.copy()
            if denied:
                rows[np.fromiter(denied, dtype=np.int64, count=len(denied))] = -1
            mask = np.zeros(len(self.vectors.rows()), dtype=np.bool_)
            mask[rows[rows >= 0]] = True
            nearest = self.vectors.nearest(query, limit, SCORE_DEPTH, mask, products)
            self._found = _Found(key, nearest, catalogue)
            return [
                (dict(searcher.stored_fields(catalogue.docs[ref])), cosine)
                for ref, cosine in nearest.top
            ]

        found: list[tuple[dict[str, Any], float]] = self.store().scan(
            run, filter_terms=filter_terms
        )
        return found

    def cosines(
        self, text: str, filter_terms: Mapping[str, Collection[str]], refs: Sequence[str | None]
    ) -> list[float | None]:
        """The cosine of `text` with each of `refs` among the nearest documents the last
        `top` of this question and visibility kept (None: farther, or no vector)."""
        key = (text, _filter_key(filter_terms))
        if self._found is None or self._found.key != key:
            self.top(text, filter_terms, 1)
        found = self._found
        return [found.cosine(ref) if ref and found is not None else None for ref in refs]

    def _map(self, searcher: Any) -> _Catalogue:
        """The catalogue of `searcher`'s commit against the store's rows now, rebuilt
        only when a segment, a deletion or the rows changed."""
        leaves = list(searcher.reader().leaf_readers())
        refs_now = self.vectors.rows()
        segments = [(r.segment().segment_id(), r.segment().deleted_count()) for r, _ in leaves]
        key = (id(refs_now), len(refs_now), *segments)
        if self._catalogue is not None and self._catalogue.key == key:
            return self._catalogue
        row_of = {ref: row for row, ref in enumerate(refs_now) if ref}
        parts: list[Rows] = []
        docs: dict[str, int] = {}
        live = set()
        for reader, offset in leaves:
            segment = reader.segment().segment_id()
            live.add(segment)
            refs = self._segment_refs.get(segment)
            if refs is None:
                refs = self._segment_refs[segment] = _refs_of(reader)
            # A cached property of Whoosh's segment reader, not a method.
            deleted = reader.deleted_docs_set if reader.has_deletions() else frozenset()
            rows = np.full(len(refs), -1, dtype=np.int64)
            for number, ref in enumerate(refs):
                if number not in deleted:
                    rows[number] = row_of.get(ref, -1)
                    docs[ref] = offset + number
            parts.append(rows)
        for segment in set(self._segment_refs) - live:  # merged away: never read again
            del self._segment_refs[segment]
        rows = np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
        self._catalogue = _Catalogue(key, rows, docs)
        return self._catalogue


def _refs_of(reader: Any) -> list[str]:
    """The ref of every document number of one segment (deleted ones included: they
    keep their place)."""
    return [str(reader.stored_fields(n).get("ref", "")) for n in range(reader.doc_count_all())]


def _filter_key(filter_terms: Mapping[str, Collection[str]]) -> object:
    return frozenset((name, frozenset(values)) for name, values in filter_terms.items())


class MeaningLane:
    """The meaning lane of one recall (see the module docstring); `weight` is its share
    in the blend."""

    name = LANE
    calibrated: Literal[True] = True

    def __init__(
        self,
        search: MeaningSearch,
        lanes: Collection[str],
        *,
        weight: float = MEANING_WEIGHT,
        hits: int = MEANING_HITS,
    ) -> None:
        self.search_state = search
        self.lanes = frozenset(lanes)
        self.weight = weight
        self.hits = hits
        self._prepared: _Prepared | None = None

    def prepare(self, query: PlainQuery) -> None:
        """Embed the question on a worker thread while the other lanes search
        (`memrepo.recall.service.run_recall` calls this first); `search` waits for it.
        Kept on this lane, which lives for one recall: two recalls never share one."""
        if not query.is_empty and self.lanes:
            self._prepared = self.search_state.prepare(query.text)

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        if query.is_empty or not self.lanes:
            return []
        filters = {**visibility.filter_terms(), "lane": set(self.lanes)}
        prepared, self._prepared = self._prepared, None
        found = self.search_state.top(query.text, filters, min(limit, self.hits), prepared)
        hits = []
        for rank, (fields, cosine) in enumerate(found, 1):
            fields.pop(SCORE_FIELD, None)
            fields[CALIBRATED_FIELD] = cosine
            hits.append(LaneHit(str(fields["ref"]), str(fields.get("text", "")), rank, fields))
        return hits

    def scores(
        self, query: PlainQuery, visibility: Visibility, hits: Sequence[LaneHit]
    ) -> list[float | None]:
        """The cosine of each of the other lanes' hits: they passed the same visibility
        (an index lane's filters), so only documents of lanes this one covers, with a
        vector, are scored."""
        filters = {**visibility.filter_terms(), "lane": set(self.lanes)}
        refs = [str(hit.ref) if hit.fields.get("lane") in self.lanes else None for hit in hits]
        return self.search_state.cosines(query.text, filters, refs)
