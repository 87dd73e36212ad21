"""recall through MemoryRepo: lanes, visibility (each rule both ways), incremental index."""

from __future__ import annotations

import gc
import shutil
import warnings
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.errors import RecallFailed
from memrepo.index import IndexRebuiltWarning
from memrepo.recall.oversized import FileUnreadableWarning

pytestmark = pytest.mark.slow

Git = Callable[..., str]


def texts(repo: MemoryRepo, query: str, **kwargs: object) -> list[str]:
    return [hit.text for hit in repo.recall(query, **kwargs).hits]  # type: ignore[arg-type]


@pytest.fixture
def repo(memory_repo: MemoryRepo) -> MemoryRepo:
    memory_repo.remember("We ship the postgres 16 migration on March 3")
    memory_repo.remember("Café Lumen opens at 7 on weekdays", by="user")
    memory_repo.remember("Deploys go through staging first", workspace="Web shop")
    memory_repo.remember("Deploys of the clinic app need sign-off", workspace="Clinic")
    memory_repo.remember("Ana prefers calls after 6pm", contact_ref="mail:ana")
    memory_repo.remember("Bo prefers calls before noon", contact_ref="mail:bo")
    memory_repo.remember("My blood type is AB", private=True, by="user")
    memory_repo.remember("Scratch branch for the refund task is wip-42", scope="task", task_id="t1")
    memory_repo.remember(
        "The caller says the refund was promised", contact_ref="tel:1", source_kind="third_party"
    )
    return memory_repo


def test_hits_carry_provenance(repo: MemoryRepo) -> None:
    hit = repo.recall("when do we ship the postgres 16 migration").hits[0]
    assert hit.lane == "folder" and hit.ref.startswith("folder:MEMORY.md#")
    assert hit.relevance == 1.0 and hit.tokens > 0
    assert hit.provenance.path == "MEMORY.md" and hit.provenance.line == 3
    assert hit.provenance.by == "agent" and hit.provenance.added
    assert hit.provenance.commit and not hit.provenance.uncommitted


def test_accents_fold(repo: MemoryRepo) -> None:
    assert texts(repo, "cafe lumen")[0] == "Café Lumen opens at 7 on weekdays"
    assert texts(repo, "CAFÉ") == ["Café Lumen opens at 7 on weekdays"]


def test_workspace_rule(repo: MemoryRepo) -> None:
    assert texts(repo, "deploys") == []
    assert texts(repo, "deploys", workspace="Web shop") == ["Deploys go through staging first"]
    assert texts(repo, "deploys", workspace="Clinic") == ["Deploys of the clinic app need sign-off"]


def test_contact_rule(repo: MemoryRepo) -> None:
    assert texts(repo, "prefers calls") == []
    assert texts(repo, "prefers calls", contact_ref="mail:ana") == ["Ana prefers calls after 6pm"]


def test_private_rule(repo: MemoryRepo) -> None:
    assert texts(repo, "blood type") == []
    assert texts(repo, "blood type", include_private=True) == ["My blood type is AB"]


def test_task_rule(repo: MemoryRepo) -> None:
    assert texts(repo, "scratch branch refund") == []
    assert texts(repo, "scratch branch refund", task_id="t2") == []
    found = texts(repo, "scratch branch refund", task_id="t1")
    assert found == ["Scratch branch for the refund task is wip-42"]


def test_min_trust_rule(repo: MemoryRepo) -> None:
    # Third-party text is left out by default "unless the surface is handling that
    # contact" (reference §4b): on tel:1's own surface it shows, asked or not.
    caller = ["The caller says the refund was promised"]
    assert texts(repo, "refund promised", include_private=True) == []
    assert texts(repo, "refund promised", contact_ref="tel:1") == caller
    query = {"contact_ref": "tel:1", "include_private": True}
    assert texts(repo, "refund promised", min_trust="system", **query) == []
    assert texts(repo, "refund promised", min_trust="third_party", **query) == caller
    assert texts(repo, "cafe lumen", min_trust="user_stated") == [
        "Café Lumen opens at 7 on weekdays"
    ]
    assert texts(repo, "postgres", min_trust="user_stated") == []


def test_superseded_value_never_comes_back(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Editor is vim", subject="editor")
    memory_repo.recall("editor")  # the index is open from here on
    memory_repo.remember("Editor is helix", subject="editor")
    assert texts(memory_repo, "editor") == ["Editor is helix"]
    memory_repo.remember("Timezone is CET", subject="tz", private=True, by="user")
    memory_repo.remember("Timezone is PST", subject="tz", private=True, by="user")
    assert texts(memory_repo, "timezone", include_private=True) == ["Timezone is PST"]


def test_writes_update_an_open_index(repo: MemoryRepo) -> None:
    assert texts(repo, "kubernetes") == []
    result = repo.remember("Kubernetes upgrades happen on Sundays")
    assert texts(repo, "kubernetes") == ["Kubernetes upgrades happen on Sundays"]
    assert result.ref is not None
    repo.forget(result.ref)
    assert texts(repo, "kubernetes") == []
    repo.undo()
    assert texts(repo, "kubernetes") == ["Kubernetes upgrades happen on Sundays"]
    item = repo.remember("Kubernetes secrets rotate monthly", private=True, by="user")
    assert "Kubernetes secrets rotate monthly" in texts(repo, "kubernetes", include_private=True)
    assert item.ref is not None
    repo.forget(item.ref)
    assert "Kubernetes secrets rotate monthly" not in texts(
        repo, "kubernetes", include_private=True
    )


def test_plain_git_commits_and_uncommitted_edits(repo: MemoryRepo, git: Git) -> None:
    repo.recall("anything")
    notes = repo.root / "notes.md"
    notes.write_text("# Notes\n\n- The VPN config lives in the wiki\n")
    (hit,) = repo.recall("vpn config").hits
    assert hit.provenance.uncommitted and hit.provenance.path == "notes.md"
    git(repo.root, "add", "notes.md")
    git(repo.root, "commit", "-qm", "notes by hand")
    (hit,) = repo.recall("vpn config").hits
    assert not hit.provenance.uncommitted
    notes.write_text("# Notes\n\n- The VPN config moved to the vault\n")
    assert texts(repo, "vpn config") == ["The VPN config moved to the vault"]
    notes.unlink()
    assert texts(repo, "vpn config") == []


def test_history_rewritten_under_the_index(repo: MemoryRepo, git: Git) -> None:
    repo.remember("Temporary fact about gizmos")
    assert texts(repo, "gizmos") == ["Temporary fact about gizmos"]
    git(repo.root, "reset", "-q", "--hard", "HEAD~1")
    git(repo.root, "reflog", "expire", "--expire=now", "--all")
    git(repo.root, "gc", "-q", "--prune=now")
    assert texts(repo, "gizmos") == []


def test_other_process_sees_changes(repo: MemoryRepo) -> None:
    repo.recall("warm up")
    other = MemoryRepo.open(repo.root)
    other.remember("Fact from another process about zeppelins")
    other.remember("Private zeppelin note", private=True, by="user")
    assert texts(repo, "zeppelins") == ["Fact from another process about zeppelins"]
    assert "Private zeppelin note" in texts(repo, "zeppelin", include_private=True)


def test_deleted_index_is_rebuilt_with_a_warning(repo: MemoryRepo) -> None:
    repo.recall("postgres")
    repo.close()
    shutil.rmtree(repo.folder.state_dir / "index")
    reopened = MemoryRepo.open(repo.root)
    with pytest.warns(IndexRebuiltWarning, match="missing"):
        found = texts(reopened, "postgres")
    assert found == ["We ship the postgres 16 migration on March 3"]


def test_truncated_index_is_rebuilt_not_empty(repo: MemoryRepo) -> None:
    repo.recall("postgres")
    repo.close()
    for segment in (repo.folder.state_dir / "index").glob("*.seg"):
        segment.write_bytes(segment.read_bytes()[:40])
    reopened = MemoryRepo.open(repo.root)
    with pytest.warns(IndexRebuiltWarning):
        found = texts(reopened, "postgres")
    assert found == ["We ship the postgres 16 migration on March 3"]


@pytest.mark.parametrize(
    "query",
    [
        "AND OR NOT ( ) * :",
        '"unbalanced',
        "text:postgres",
        "'; DROP TABLE memory_items; --",
        ".*[a-z]+(?=x)",
        "\x00\x01\x1b[31m",
        "\ud800 lone surrogate",
        "x" * 10_000,
        "word " * 2_000,
    ],
)
def test_hostile_queries_never_crash(repo: MemoryRepo, query: str) -> None:
    result = repo.recall(query)
    assert all(hit.ref for hit in result.hits)
    assert "My blood type is AB" not in [hit.text for hit in result.hits]


def test_field_syntax_is_a_word(repo: MemoryRepo) -> None:
    assert texts(repo, "text:postgres")[0] == "We ship the postgres 16 migration on March 3"


def test_expand_respects_visibility(repo: MemoryRepo) -> None:
    ref = repo.recall("blood type", include_private=True).hits[0].ref
    assert repo.expand([ref]) == []
    (full,) = repo.expand([ref, "memory:unknown"], include_private=True)
    assert full.content == "My blood type is AB"


def test_mark_used_records_use(repo: MemoryRepo) -> None:
    (hit,) = repo.recall("prefers calls", contact_ref="mail:ana").hits
    repo.mark_used([hit.ref])
    assert repo.item(hit.ref).item.last_used_at is not None


def test_every_lane_failing_raises(repo: MemoryRepo) -> None:
    class Broken:
        name = "broken"
        weight = 1.0

        def search(self, *args: object) -> list[object]:
            raise RuntimeError("lane down")

    repo.plug_lane(Broken())  # type: ignore[arg-type]
    result = repo.recall("postgres", lanes=["folder", "broken"])
    assert result.lane_errors == {"broken": "RuntimeError: lane down"} and result.hits
    with pytest.raises(RecallFailed, match="lane down"):
        repo.recall("postgres", lanes=["broken"])


def test_reindex_counts(repo: MemoryRepo) -> None:
    report = repo.reindex()
    assert report.folder_entries == 4 and report.items == 5
    assert report.documents == 9


def test_invalid_utf8_file_is_skipped_others_indexed(repo: MemoryRepo, git: Git) -> None:
    (repo.root / "latin1.md").write_bytes(b"# Caf\xe9\n\n- cr\xe8me postgres\n")
    git(repo.root, "add", "latin1.md")
    git(repo.root, "commit", "-qm", "latin1")
    with pytest.warns(FileUnreadableWarning, match=r"latin1\.md:1: bytes that are not UTF-8"):
        assert texts(repo, "postgres") == ["We ship the postgres 16 migration on March 3"]


def test_empty_query_finds_nothing(repo: MemoryRepo) -> None:
    assert repo.recall("   ").hits == ()
    assert repo.recall("?!").hits == ()


def test_index_truncated_while_open_is_rebuilt(repo: MemoryRepo) -> None:
    """Segments cut under an open searcher: never a crash (a memory-mapped segment would
    kill the process with SIGBUS), never 'nothing': the open searcher serves what it has
    read (or sees the change on its next piece read and rebuilds), and the next searcher
    finds the damage and rebuilds with a warning."""
    assert texts(repo, "postgres") == ["We ship the postgres 16 migration on March 3"]
    for segment in (repo.folder.state_dir / "index").glob("*.seg"):
        segment.write_bytes(segment.read_bytes()[:30])
    assert texts(repo, "postgres") == ["We ship the postgres 16 migration on March 3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # Whoosh leaves the bad file open
        with pytest.warns(IndexRebuiltWarning, match="corrupt or truncated"):
            repo.remember("Postgres tuning notes live in the wiki")
            found = texts(repo, "postgres")
        gc.collect()
    assert sorted(found) == [
        "Postgres tuning notes live in the wiki",
        "We ship the postgres 16 migration on March 3",
    ]


def test_index_deleted_while_open_is_rebuilt(repo: MemoryRepo) -> None:
    assert texts(repo, "postgres") == ["We ship the postgres 16 migration on March 3"]
    shutil.rmtree(repo.folder.state_dir / "index")
    # The write brings the open index up to date behind itself (issue #28), so it is
    # the one that finds the index gone, rebuilds it and says so.
    with pytest.warns(IndexRebuiltWarning, match="missing"):
        repo.remember("Postgres tuning notes live in the wiki")
    found = texts(repo, "postgres")
    assert sorted(found) == [
        "Postgres tuning notes live in the wiki",
        "We ship the postgres 16 migration on March 3",
    ]


def test_empty_visibility_filter_stays_empty_twice(repo: MemoryRepo) -> None:
    """The filter cache must not turn 'nothing allowed' into 'no filter' (a leak)."""
    for _ in range(2):
        assert texts(repo, "prefers calls", contact_ref="mail:nobody") == []


def test_reindex_reports_progress(memory_repo: MemoryRepo) -> None:
    for n in range(1200):
        memory_repo.remember(f"private fact number {n}", private=True, by="user")
    heard: list[int] = []
    report = memory_repo.reindex(heard.append)
    assert report.items == 1200 and report.documents == 1200
    assert heard == [1000]


def test_reindex_of_a_never_built_index_builds_it_once(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("One shared fact")
    report = memory_repo.reindex()
    assert (report.folder_entries, report.items, report.documents) == (1, 0, 1)


def test_damaged_item_store_fails_only_the_memory_lane(repo: MemoryRepo) -> None:
    repo.close()
    database = repo.folder.state_dir / "items.sqlite3"
    database.write_bytes(b"not a database at all" * 100)
    damaged = database.read_bytes()
    reopened = MemoryRepo.open(repo.root)
    result = reopened.recall("postgres")
    assert [hit.text for hit in result.hits] == ["We ship the postgres 16 migration on March 3"]
    assert "StoreCorrupt" in result.lane_errors["memory"]
    assert database.read_bytes() == damaged
    reopened.close()
