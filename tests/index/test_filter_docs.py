"""A filter's complement is read from the postings a block at a time (`_term_docs`): the
same documents Whoosh's `docs_for_query` finds, over several posting blocks and with
deleted documents, and a filtered search keeps to what the filter allows."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh.query import Term

from memrepo.index import IndexStore, build_query
from memrepo.index.store import _term_docs

from .conftest import doc

DOCS = [
    doc(f"folder:f.md#{n}", f"Fact {n} about the kite festival", path="f.md", line=n,
        workspace="a" if n % 3 else "b")
    for n in range(400)
]  # fmt: skip


def _fill(store: IndexStore) -> None:
    store.bulk_load(DOCS)


@pytest.mark.slow
def test_block_reads_find_what_whoosh_finds(tmp_path: Path) -> None:
    with IndexStore.open(tmp_path / "index", rebuild=_fill) as store:
        store.replace([], delete_refs=[f"folder:f.md#{n}" for n in range(0, 60, 2)])
        searcher = store._current()
        for value in ("a", "b", "missing"):
            whoosh = set(searcher.docs_for_query(Term("workspace", value)))
            ours = set(_term_docs(searcher, "workspace", value))
            deleted = set(searcher.reader().all_doc_ids()) ^ set(range(searcher.doc_count_all()))
            assert whoosh <= ours and ours - whoosh <= deleted
        assert len(set(_term_docs(searcher, "workspace", "a"))) > 2 * 128  # several blocks


@pytest.mark.slow
def test_a_filtered_search_keeps_to_the_filter(tmp_path: Path) -> None:
    with IndexStore.open(tmp_path / "index", rebuild=_fill) as store:
        hits = store.search(
            build_query("kite festival").words, filter_terms={"workspace": {"b"}}, limit=500
        )
        assert len(hits) == len([d for d in DOCS if d.workspace == "b"])
        assert {hit.fields["workspace"] for hit in hits} == {"b"}
