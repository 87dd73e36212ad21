"""Importing mem0: the JSON document `get_all` returns, and the same memories as JSONL.

The fixture follows docs.mem0.ai "Get Memories" (a `{"count", "next", "previous",
"results"}` page of memories with id, memory, user_id, hash, metadata, categories,
expiration_date, created_at, updated_at); see fixtures/imports/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ImportSourceError

from .test_import_support import ALL_ITEMS, Git, copy_fixture, everything_git_has, state

ALLERGY = "Is allergic to penicillin"


@pytest.fixture
def export(tmp_path: Path) -> Path:
    return copy_fixture("mem0/get_all.json", tmp_path / "exports" / "mem0-dana.json")


def rewrite(path: Path, change: dict[str, object] | None = None, drop: str | None = None) -> None:
    """Edit the export as mem0 would: change one memory's fields, or delete one."""
    document = json.loads(path.read_text())
    memories = [m for m in document["results"] if m["id"] != drop]
    for memory in memories:
        if change and memory["id"] == change["id"]:
            memory.update(change)
    document["results"] = memories
    path.write_text(json.dumps(document, indent=2))


def test_the_get_all_document_imports_with_its_fields(
    memory_repo: MemoryRepo, export: Path, git: Git
) -> None:
    report = memory_repo.import_memory(export, source="jsonl")
    assert (report.facts, report.written, report.items_written) == (5, 4, 1)
    assert report.skipped == {"expired": 1} and report.problems == ()
    message = git(memory_repo.root, "log", "-1", "--format=%B")
    assert message.startswith("Import from mem0: 3 facts") and "Source: mem0-dana.json" in message
    entries = {e.text: e.metadata for e in memory_repo.entries("imports/mem0.md")}
    pnpm = entries["Prefers pnpm over npm for JavaScript projects"]
    assert pnpm["source"] == "mem0-dana.json#3c90c3cc-0d44-4b50-8888-8dd25736052a"
    assert pnpm["subject"] == "mem0:3c90c3cc-0d44-4b50-8888-8dd25736052a"
    assert (pnpm["added"], pnpm["user"]) == ("2026-02-14", "dana")
    assert pnpm["categories"] == "user_preferences, technology"
    assert pnpm["metadata"] == "session=onboarding, source=chat"
    sre = entries["Works as a site reliability engineer in Lisbon"]
    assert (sre["updated"], sre["author"]) == ("2026-02-01", "support-bot")
    assert entries["Plans to adopt a dog this summer"]["expires"] == "2099-09-30"
    assert not any("Kyoto" in text for text in entries)  # expired in mem0 already


def test_a_private_memory_goes_to_items_never_to_git(
    memory_repo: MemoryRepo, export: Path, git: Git
) -> None:
    """The health fact of the issue: `metadata.private` is honoured."""
    memory_repo.import_memory(export, source="jsonl")
    [item] = memory_repo.list_items(ALL_ITEMS)
    assert (item.content, item.privacy, item.created_at.date().isoformat()) == (
        ALLERGY,
        "private",
        "2026-01-21",
    )
    seen = everything_git_has(memory_repo, git)
    assert "penicillin" not in seen and "7f1e4b2a" not in seen
    assert str(export.parent) not in seen and "file://" not in seen


def test_reimport_adds_nothing_a_change_supersedes_and_a_deletion_is_reported(
    memory_repo: MemoryRepo, export: Path, git: Git
) -> None:
    memory_repo.import_memory(export, source="jsonl")
    before = state(memory_repo, git)
    again = memory_repo.import_memory(export, source="jsonl")
    assert (again.written, again.reinforced, again.commit, again.problems) == (0, 4, None, ())
    assert state(memory_repo, git)[:3] == before[:3]

    sre = "b5d6e7f8-0a1b-4c2d-9e3f-4a5b6c7d8e9f"
    rewrite(export, change={"id": sre, "memory": "Works as a site reliability engineer in Porto"})
    changed = memory_repo.import_memory(export, source="jsonl")
    assert (changed.written, changed.problems) == (1, ())
    texts = [e.text for e in memory_repo.entries("imports/mem0.md")]
    assert "Works as a site reliability engineer in Porto" in texts
    assert not any(t.endswith("in Lisbon") for t in texts)  # superseded, not duplicated

    rewrite(export, drop="7f1e4b2a-9c3d-4e5f-8a6b-1c2d3e4f5a6b")
    [gone] = memory_repo.import_memory(export, source="jsonl").problems
    assert (gone.path, gone.line, gone.reason) == ("mem0-dana.json", None, "deleted_upstream")
    assert "mem0-dana.json#7f1e4b2a-9c3d-4e5f-8a6b-1c2d3e4f5a6b was imported before" in gone.message
    assert "`memrepo forget memory:" in gone.message
    assert memory_repo.list_items(ALL_ITEMS)[0].content == ALLERGY  # reported, kept


def test_a_dry_run_reports_a_deletion_without_forgetting_it(
    memory_repo: MemoryRepo, export: Path, git: Git
) -> None:
    memory_repo.import_memory(export, source="jsonl")
    rewrite(export, drop="3c90c3cc-0d44-4b50-8888-8dd25736052a")
    before = state(memory_repo, git)
    dry = memory_repo.import_memory(export, source="jsonl", dry_run=True)
    assert [p.reason for p in dry.problems] == ["deleted_upstream"]
    assert state(memory_repo, git) == before
    assert [p.reason for p in memory_repo.import_memory(export, source="jsonl").problems] == [
        "deleted_upstream"
    ]


@pytest.mark.parametrize(
    ("shape", "facts"),
    [
        ("list", 2),  # the v1 platform API: a bare list of memories
        ("results-one-line", 2),  # {"results": [...]} written on one line
        ("single", 1),  # one memory, as `get(memory_id)` returns it (pretty-printed)
    ],
)
def test_every_documented_shape_is_read(
    memory_repo: MemoryRepo, tmp_path: Path, shape: str, facts: int
) -> None:
    memories = [
        {"id": "m-1", "memory": "Drinks oat milk in coffee", "hash": "a", "metadata": {}},
        {"id": "m-2", "memory": "Runs on Saturday mornings", "hash": "b", "metadata": None},
    ]
    document: object = {
        "list": memories,
        "results-one-line": {"results": memories, "relations": []},
        "single": memories[0],
    }[shape]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document, indent=None if shape == "results-one-line" else 2))
    report = memory_repo.import_memory(path, source="jsonl")
    assert (report.facts, report.written) == (facts, facts)
    assert memory_repo.entries("imports/mem0.md")[0].metadata["source"] == "export.json#m-1"


def test_mem0_memories_as_jsonl_keep_their_fields_and_privacy(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    rows = json.loads((copy_fixture("mem0/get_all.json", tmp_path / "x.json")).read_text())
    dump = tmp_path / "memories.jsonl"
    dump.write_text("".join(json.dumps(m) + "\n" for m in rows["results"]))
    report = memory_repo.import_memory(dump, source="jsonl")
    assert (report.written, report.items_written, report.skipped) == (4, 1, {"expired": 1})
    assert "penicillin" not in everything_git_has(memory_repo, git)
    [pnpm] = [e for e in memory_repo.entries("imports/jsonl.md") if "pnpm" in e.text]
    assert pnpm.metadata["categories"] == "user_preferences, technology"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'{\n  "results": [\n    {"id": "m-1", "memory": "x"\n  ]\n}\n',
            "not valid JSON at line 4",
        ),
        (b'[{"memory": ]', "not valid JSON at line 1 column 13"),  # breaks before any memory
        (b'{\n  "data": [],\n  "total": 0\n}\n', "a JSON object with data, total but no `results`"),
        (b"[1, 2, 3]\n", "memory 1 is a JSON number, not an object"),
        (b'[{"id": "a", "text_": "no text"}]', "none of its 1 entries has a memory text"),
        (b'\n  "results"\n', None),  # no document: read as JSONL, its bad line reported
    ],
)
def test_a_broken_document_is_one_clear_error_and_nothing_is_imported(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git, data: bytes, message: str | None
) -> None:
    path = tmp_path / "export.json"
    path.write_bytes(b'{"results": [{"memory": "Good memory that must not land"}]}\n')
    memory_repo.import_memory(path, source="jsonl")
    path.write_bytes(data)
    before = state(memory_repo, git)
    if message is None:
        report = memory_repo.import_memory(path, source="jsonl")
        assert [(p.line, p.reason) for p in report.problems] == [(2, "not_an_object")]
        return
    with pytest.raises(ImportSourceError, match=message) as caught:
        memory_repo.import_memory(path, source="jsonl")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("export.json: ")
    assert state(memory_repo, git) == before


def test_a_huge_broken_document_stops_at_its_first_bad_character(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    """A document is streamed, so size is no reason to refuse it, and an error is found
    where it is, not after reading the rest."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.write(b'{"results": [\n')
        handle.truncate(65 << 20)  # sparse: no disk used
    before = state(memory_repo, git)
    with pytest.raises(ImportSourceError, match=r"not valid JSON at line 2 column 1"):
        memory_repo.import_memory(path, source="jsonl")
    assert state(memory_repo, git) == before


def test_a_jsonl_row_removed_upstream_is_reported_but_a_reordered_one_is_not(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    dump = tmp_path / "facts.jsonl"
    rows = ['{"text": "The build server is called osprey"}', '{"text": "Deploys on Tuesdays"}']
    dump.write_text("\n".join(rows) + "\n")
    memory_repo.import_memory(dump, source="jsonl")
    dump.write_text(rows[1] + "\n" + rows[0] + "\n")  # reordered: nothing is gone
    assert memory_repo.import_memory(dump, source="jsonl").problems == ()
    dump.write_text(rows[1] + "\n")
    [gone] = memory_repo.import_memory(dump, source="jsonl").problems
    assert (gone.path, gone.line, gone.reason) == ("facts.jsonl", 2, "deleted_upstream")
