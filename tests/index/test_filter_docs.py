"""A filter's complement is read from the postings a block at a time and kept by segment
(`memrepo.index._masks`): the same documents Whoosh's `docs_for_query` finds, over several
posting blocks, several segments and deleted documents, also after a commit adds a
segment to ones whose masks are kept; and a filtered search keeps to what the filter
allows."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh.query import Term

from memrepo.index import IndexStore, build_query
from memrepo.index._masks import SegmentMasks

from .conftest import doc

DOCS = [
    doc(f"folder:f.md#{n}", f"Fact {n} about the kite festival", path="f.md", line=n,
        workspace="a" if n % 3 else "b")
    for n in range(400)
]  # fmt: skip


def _fill(store: IndexStore) -> None:
    store.bulk_load(DOCS)


def _whoosh_denied(searcher: object, allowed: str) -> set[int]:
    values = {t.decode() for t in searcher.reader().lexicon("workspace")} - {allowed}  # type: ignore[attr-defined]
    found: set[int] = set()
    for value in values:
        found |= set(searcher.docs_for_query(Term("workspace", value)))  # type: ignore[attr-defined]
    return found


@pytest.mark.slow
def test_segment_masks_find_what_whoosh_finds(tmp_path: Path) -> None:
    masks = SegmentMasks()
    with IndexStore.open(tmp_path / "index", rebuild=_fill) as store:
        store.replace([], delete_refs=[f"folder:f.md#{n}" for n in range(0, 60, 2)])
        for round_ in range(3):  # each commit adds a segment beside those already masked
            extra = [
                doc(f"folder:g.md#{round_}-{n}", f"More {n}", path="g.md", line=n,
                    workspace="c" if n % 2 else "a")
                for n in range(5)
            ]  # fmt: skip
            store.replace(extra)
            searcher = store._current()
            assert searcher.leafreaders, "the test needs several segments"
            deleted = set(searcher.reader().all_doc_ids()) ^ set(range(searcher.doc_count_all()))
            for allowed in ("a", "b", "missing"):
                key = frozenset({("workspace", frozenset({allowed}))})
                whoosh = _whoosh_denied(searcher, allowed)
                ours = masks.denied(searcher, key)
                assert whoosh <= ours and ours - whoosh <= deleted
        assert len(masks.denied(searcher, frozenset({("workspace", frozenset({"b"}))}))) > 256


@pytest.mark.slow
def test_a_filtered_search_keeps_to_the_filter(tmp_path: Path) -> None:
    with IndexStore.open(tmp_path / "index", rebuild=_fill) as store:
        hits = store.search(
            build_query("kite festival").words, filter_terms={"workspace": {"b"}}, limit=500
        )
        assert len(hits) == len([d for d in DOCS if d.workspace == "b"])
        assert {hit.fields["workspace"] for hit in hits} == {"b"}
