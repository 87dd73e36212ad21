"""`IndexStore.pinned`: the reads of one recall see one commit, and look for a newer one
once (each look is a directory listing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.index import IndexStore, build_query

from .conftest import CORPUS, doc


def _no_rebuild(store: IndexStore) -> None:
    raise AssertionError("a healthy index must not be rebuilt")


@pytest.mark.slow
def test_pinned_reads_see_one_commit_then_the_newest(store: IndexStore, index_path: Path) -> None:
    with IndexStore.open(index_path, rebuild=_no_rebuild) as other:  # another process
        with store.pinned():
            assert store.doc_count() == len(CORPUS)
            other.replace([doc("folder:MEMORY.md#new", "A new fact about kites")])
            assert store.doc_count() == len(CORPUS)  # still the commit the block began on
            assert store.known_terms("stem", ["kite"]) == set()
        assert store.doc_count() == len(CORPUS) + 1  # after the block: the newest
        assert store.known_terms("stem", ["kite"]) == {"kite"}


@pytest.mark.slow
def test_a_write_inside_a_pinned_block_is_read_back(store: IndexStore) -> None:
    with store.pinned(), store.pinned():  # nested, as a recall inside a recall would be
        assert store.doc_count() == len(CORPUS)
        store.replace([doc("folder:MEMORY.md#own", "Our own fact about kites")])
        assert store.doc_count() == len(CORPUS) + 1
        hits = store.search(build_query("kites").words, limit=5)
        assert [hit.ref for hit in hits] == ["folder:MEMORY.md#own"]
