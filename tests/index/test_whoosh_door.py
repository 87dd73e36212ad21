"""What stands on Whoosh's internals gives Whoosh's own answers (issue #33).

`memrepo/index/whoosh_door.py` lists the Whoosh classes the index uses that Whoosh never
promised. Each shortcut built on them is checked here against Whoosh's own path, on
random corpora (several segments, deletions, both the bulk path and Whoosh's writer) and
random queries, against the Whoosh installed: the floor in `tests/test_floors.py`'s venv,
the newest allowed in CI. An upgrade that changes those internals fails here first.

- `FastBM25F` scores every hit exactly as `BM25F` (bit for bit, same order).
- `AnyWord`'s tree of unions finds the hits of Whoosh's `Or`, in the same order, with
  the same scores to the last rounding of a sum taken in another order.
- The filter masks' block walk (`_masks._leaf_docs`) yields the documents of Whoosh's
  own posting walk, segment by segment.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo.index import IndexDoc, IndexStore, build_query
from memrepo.index._masks import _leaf_docs
from memrepo.index.query import AnyWord
from memrepo.index.store import WEIGHTING
from memrepo.index.whoosh_door import Or

pytestmark = pytest.mark.slow  # real processes, a real model or long property runs

VOCABULARY = (
    *("deploy", "deploys", "staging", "postgres", "migration", "friday", "window", "ana"),
    *("billing", "service", "tea", "report", "quarterly", "shell", "fish", "release"),
    *("green", "plant", "office", "rome", "oslo"),
)
WORKSPACES = ("", "ops", "web-shop")

words = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=24)
corpora = st.lists(
    st.tuples(words, st.sampled_from(WORKSPACES), st.booleans()), min_size=1, max_size=30
)
queries = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5).map(" ".join)
batches = st.integers(min_value=1, max_value=4)

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_COUNTER = itertools.count()
Builder = Callable[[Any, int], IndexStore]


def _docs(corpus: list[tuple[list[str], str, bool]]) -> list[IndexDoc]:
    return [
        IndexDoc(
            ref=f"folder:MEMORY.md#{n:04d}",
            lane="folder",
            text=" ".join(text),
            repo="main",
            path="MEMORY.md",
            line=n,
            workspace=workspace,
            tainted=tainted,
        )
        for n, (text, workspace, tainted) in enumerate(corpus)
    ]


def _store(root: Path, docs: list[IndexDoc], parts: int) -> IndexStore:
    """An index of `docs` in `parts` commits: the first by the bulk path (as a rebuild
    writes), the rest by Whoosh's writer (as every later write), one segment each, and
    the last commit deleting a few of the first documents."""
    store = IndexStore.open(root / f"ix{next(_COUNTER)}", rebuild=lambda s: None)
    size = -(-len(docs) // parts)
    chunks = [docs[i : i + size] for i in range(0, len(docs), size)]
    store.bulk_load(chunks[0])
    for chunk in chunks[1:]:
        store.replace(chunk)
    if len(chunks) > 1:
        store.replace([], delete_refs=[d.ref for d in chunks[0][:2]])
    return store


@pytest.fixture
def index_of(tmp_path: Path) -> Iterator[Callable[[Any, int], IndexStore]]:
    """Builds the index of a drawn corpus (`_store`); every one is closed afterwards."""
    stores: list[IndexStore] = []

    def build(corpus: Any, parts: int) -> IndexStore:
        stores.append(_store(tmp_path, _docs(corpus), parts))
        return stores[-1]

    yield build
    for store in stores:
        store.close()


def _ranked(searcher: Any, query: Any) -> list[tuple[int, float]]:
    return [(hit.docnum, hit.score) for hit in searcher.search(query, limit=None)]


@SETTINGS
@given(corpus=corpora, text=queries, parts=batches)
def test_fast_bm25f_scores_as_whoosh_bm25f_bit_for_bit(
    index_of: Builder, corpus: Any, text: str, parts: int
) -> None:
    store = index_of(corpus, parts)
    built = build_query(text)

    def compare(searcher: Any) -> None:
        stock = store._index().searcher(weighting=WEIGHTING)
        try:
            for query in (built.words, built.with_prefix(), Or(list(built.words.subqueries))):
                assert _ranked(searcher, query) == _ranked(stock, query)
        finally:
            stock.close()

    store._read(compare)


@SETTINGS
@given(corpus=corpora, text=queries, parts=batches)
def test_any_word_finds_what_whoosh_or_finds(
    index_of: Builder, corpus: Any, text: str, parts: int
) -> None:
    store = index_of(corpus, parts)
    query = build_query(text).words
    assert isinstance(query, AnyWord)

    def compare(searcher: Any) -> None:
        ours = _ranked(searcher, query)
        theirs = _ranked(searcher, Or(list(query.subqueries)))
        assert [d for d, _ in ours] == [d for d, _ in theirs]
        pairs = zip(ours, theirs, strict=True)
        assert all(a == pytest.approx(b, rel=1e-12) for (_, a), (_, b) in pairs)

    store._read(compare)


@SETTINGS
@given(corpus=corpora, parts=batches)
def test_the_mask_walk_yields_whoosh_postings(index_of: Builder, corpus: Any, parts: int) -> None:
    store = index_of(corpus, parts)

    def compare(searcher: Any) -> None:
        leaves = searcher.leafreaders or [(searcher.reader(), 0)]
        for reader, _ in leaves:
            for field, values in (("workspace", WORKSPACES), ("tainted", ("yes", "no"))):
                for value in values:
                    try:
                        expected = list(reader.postings(field, value).all_ids())
                    except Exception:  # TermNotFound: a value this segment lacks
                        expected = []
                    assert list(_leaf_docs(reader, field, value)) == expected

    store._read(compare)
