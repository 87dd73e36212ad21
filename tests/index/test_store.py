"""IndexStore: filters, updates, reflected commits, rebuilds, locking, concurrency."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from memrepo.errors import InvalidArgument, MemrepoError
from memrepo.index import (
    SCHEMA_VERSION,
    IndexLocked,
    IndexRebuiltWarning,
    IndexStore,
    build_query,
)
from memrepo.index.schema import norm_hash

from .conftest import CORPUS, doc

pytestmark = pytest.mark.slow


def refs(store: IndexStore, text: str, **kwargs: object) -> set[str]:
    q = build_query(text).words
    return {hit.ref for hit in store.search(q, limit=20, **kwargs)}  # type: ignore[arg-type]


def no_rebuild(store: IndexStore) -> None:
    raise AssertionError("a healthy index must not be rebuilt")


def test_a_new_store_is_built_through_the_callback(store: IndexStore) -> None:
    assert store.doc_count() == len(CORPUS)
    assert store.reflected("main") == "c1"
    assert store.reflected("team:core") is None


def test_hits_carry_rank_score_and_stored_fields(store: IndexStore) -> None:
    hits = store.search(build_query("tea").words, limit=5)
    assert [(h.ref, h.rank) for h in hits] == [("memory:7", 1)]
    fields = hits[0].fields
    assert fields["text"] == "Alice prefers tea"
    assert fields["tainted"] is True
    assert fields["workspace"] == "ws1"
    assert fields["norm_hash"] == norm_hash("alice  PREFERS tea")
    assert hits[0].score > 0


def test_filters_keep_only_matching_values(store: IndexStore) -> None:
    everything = "tea postgres москва"
    assert refs(store, everything) == {
        "memory:7",
        "folder:MEMORY.md#ship",
        "team:core:MEMORY.md#ru",
    }
    assert refs(store, everything, filter_terms={"lane": {"folder", "team"}}) == {
        "folder:MEMORY.md#ship",
        "team:core:MEMORY.md#ru",
    }
    assert refs(store, everything, filter_terms={"workspace": {"", "ws2"}}) == {
        "folder:MEMORY.md#ship",
        "team:core:MEMORY.md#ru",
    }
    assert refs(store, everything, filter_terms={"tainted": {"yes"}}) == {"memory:7"}
    assert refs(store, everything, filter_terms={"lane": set()}) == set()


def test_excludes_drop_matching_values(store: IndexStore) -> None:
    everything = "tea postgres москва"
    assert refs(store, everything, exclude={"privacy": {"private"}}) == {
        "folder:MEMORY.md#ship",
        "team:core:MEMORY.md#ru",
    }
    assert refs(store, everything, exclude={"repo": {"team:core"}, "tainted": {"yes"}}) == {
        "folder:MEMORY.md#ship"
    }


def test_unknown_filter_fields_are_an_error(store: IndexStore) -> None:
    with pytest.raises(InvalidArgument, match="cannot filter on text"):
        store.search(build_query("tea").words, filter_terms={"text": {"x"}}, limit=5)


def test_replace_updates_by_ref_and_deletes_by_ref_and_path(store: IndexStore) -> None:
    store.replace([doc("folder:MEMORY.md#ship", "We ship the postgres-17 migration in June")])
    assert refs(store, "postgres-17") == {"folder:MEMORY.md#ship"}
    assert refs(store, "May") == set()
    assert store.doc_count() == len(CORPUS)

    store.replace([], delete_refs=["memory:7"])
    assert refs(store, "tea") == set()

    store.replace(
        [doc("folder:notes.md#new", "the cluster upgrade is done", path="notes.md")],
        delete_paths=[("main", "notes.md")],
    )
    assert refs(store, "AKS") == set()
    assert refs(store, "cluster upgrade") == {"folder:notes.md#new"}
    # Same path in another repo is untouched.
    assert refs(store, "москва") == {"team:core:MEMORY.md#ru"}


def test_replace_keeps_the_last_doc_of_a_ref(store: IndexStore) -> None:
    store.replace([doc("folder:a.md#x", "first version"), doc("folder:a.md#x", "second version")])
    assert refs(store, "version") == {"folder:a.md#x"}
    assert refs(store, "first") == set()


def test_clear_empties_the_index_and_forgets_reflected_commits(store: IndexStore) -> None:
    store.clear()
    assert store.doc_count() == 0
    assert store.reflected("main") is None


def test_bulk_load_replaces_everything(store: IndexStore) -> None:
    assert store.bulk_load([doc("folder:a.md#1", "only this")]) == 1
    assert store.doc_count() == 1
    assert refs(store, "postgres") == set()


def test_reflected_commits_persist_across_reopen(store: IndexStore, index_path: Path) -> None:
    store.set_reflected("team:core", "t9")
    store.close()
    with IndexStore.open(index_path, rebuild=no_rebuild) as again:
        assert again.reflected("main") == "c1"
        assert again.reflected("team:core") == "t9"
        assert again.doc_count() == len(CORPUS)
    meta = json.loads(index_path.with_name("index.json").read_text())
    assert meta["schema_version"] == SCHEMA_VERSION


def _refill(store: IndexStore) -> None:
    store.bulk_load(CORPUS)
    store.set_reflected("main", "c2")


def test_a_stale_schema_version_is_rebuilt(store: IndexStore, index_path: Path) -> None:
    store.close()
    meta_path = index_path.with_name("index.json")
    meta = json.loads(meta_path.read_text())
    meta["schema_version"] = SCHEMA_VERSION - 1
    meta_path.write_text(json.dumps(meta))
    with pytest.warns(IndexRebuiltWarning, match=f"schema version {SCHEMA_VERSION - 1}"):
        again = IndexStore.open(index_path, rebuild=_refill)
    with again:
        assert again.doc_count() == len(CORPUS)
        assert again.reflected("main") == "c2"


def test_missing_metadata_is_rebuilt(store: IndexStore, index_path: Path) -> None:
    store.close()
    index_path.with_name("index.json").unlink()
    with pytest.warns(IndexRebuiltWarning, match="metadata is missing"):
        again = IndexStore.open(index_path, rebuild=_refill)
    with again:
        assert again.doc_count() == len(CORPUS)
        assert index_path.with_name("index.json").exists()


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "toc"])
def test_a_corrupt_index_is_rebuilt_not_read_as_empty(
    store: IndexStore, index_path: Path, damage: str
) -> None:
    store.close()
    segments = sorted(index_path.glob("*.seg"))
    toc = sorted(index_path.glob("*.toc"))
    assert segments and toc
    if damage == "truncate":
        data = segments[0].read_bytes()
        segments[0].write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        segments[0].write_bytes(b"\x00garbage" * 100)
    elif damage == "empty":
        segments[0].write_bytes(b"")
    else:
        toc[-1].write_bytes(toc[-1].read_bytes()[:20])
    with pytest.warns(IndexRebuiltWarning, match="corrupt or truncated"):
        again = IndexStore.open(index_path, rebuild=_refill)
    with again:
        assert again.doc_count() == len(CORPUS)
        assert refs(again, "postgres") == {"folder:MEMORY.md#ship"}


def test_a_failed_rebuild_is_retried_on_the_next_open(index_path: Path) -> None:
    def broken(store: IndexStore) -> None:
        raise RuntimeError("git is unreadable")

    with pytest.raises(RuntimeError, match="unreadable"):
        IndexStore.open(index_path, rebuild=broken)
    with pytest.warns(IndexRebuiltWarning, match="schema version None"):
        IndexStore.open(index_path, rebuild=_refill).close()


def test_a_locked_index_makes_writers_wait_then_fail(store: IndexStore, index_path: Path) -> None:
    holder = whoosh_index.open_dir(str(index_path)).writer()
    try:
        with IndexStore.open(index_path, rebuild=no_rebuild, lock_timeout=0.2) as second:
            with pytest.raises(IndexLocked, match=r"another memrepo process for 0\.2 s") as info:
                second.replace([doc("folder:a.md#1", "blocked")])
            assert isinstance(info.value, MemrepoError)
    finally:
        holder.cancel()
    store.replace([doc("folder:a.md#1", "free again")])
    assert refs(store, "free") == {"folder:a.md#1"}


# Runs in another interpreter: each commit replaces the whole "batch.md" file with 20
# docs that all name the round, so a reader seeing two rounds saw half a commit.
_WRITER = """
import sys
from memrepo.index import IndexDoc, IndexStore

def refuse(store):
    raise SystemExit("the writer must not rebuild")

with IndexStore.open(sys.argv[1], rebuild=refuse) as store:
    for i in range(int(sys.argv[2])):
        docs = [
            IndexDoc(ref=f"folder:batch.md#{n}", lane="folder", repo="main",
                     path="batch.md", text=f"batch round{i} item{n}")
            for n in range(20)
        ]
        store.replace(docs, delete_paths=[("main", "batch.md")])
"""


@pytest.mark.slow
def test_readers_never_see_a_half_written_commit(store: IndexStore, index_path: Path) -> None:
    store.replace(
        [doc(f"folder:batch.md#{n}", f"batch round-1 item{n}", path="batch.md") for n in range(20)]
    )
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(index_path), "40"])
    seen: set[int] = set()
    try:
        while writer.poll() is None or not seen:
            hits = store.search(build_query("batch").words, limit=100)
            seen.add(len(hits))
            rounds = {h.fields["text"].split()[1] for h in hits}
            assert len(hits) == 20, "a reader saw a partial file"
            assert len(rounds) == 1, f"a reader saw two commits at once: {rounds}"
    finally:
        writer.wait(timeout=120)
    assert writer.returncode == 0
    assert seen == {20}
    assert len(store.search(build_query("round39").words, limit=100)) == 20
