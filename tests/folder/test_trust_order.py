"""One trust order for the folder and memory_items: a folder `by` ranks as the source it
stands for (user > dream ~ curated > import > agent ~ inferred), and a lower-trust write
on a higher-trust holder of the same subject is `skipped/outranked`, in a single write
and in a batch alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.bulk import write_entries
from memrepo.folder.repo import EntryWrite

CommitCount = Callable[..., int]
Git = Callable[..., str]

#: (holder's by, writer's by, outcome)
CASES = [
    ("import", "agent", "outranked"),
    ("dream", "agent", "outranked"),
    ("user", "agent", "outranked"),
    ("user", "dream", "outranked"),
    ("user", "import", "outranked"),
    ("dream", "import", "outranked"),
    ("import", "dream", "superseded"),
    ("agent", "import", "superseded"),
    ("agent", "agent", "superseded"),
    ("import", "import", "superseded"),
    ("import", "user", "superseded"),
    ("dream", "user", "superseded"),
]


def _write(by: str, text: str) -> EntryWrite:
    return EntryWrite(
        path="MEMORY.md",
        text=text,
        metadata={"subject": "tz", "by": by},
        by=by,
        origin="remember",
    )


@pytest.mark.parametrize(("holder", "writer", "outcome"), CASES)
def test_one_trust_order_in_the_folder(
    memory_repo: MemoryRepo, commit_count: CommitCount, holder: str, writer: str, outcome: str
) -> None:
    folder = memory_repo.folder
    folder.write_entry(_write(holder, "Timezone is Europe/Berlin"))
    result = folder.write_entry(_write(writer, "Timezone is UTC"))
    texts = [e.text for e in memory_repo.entries()]
    if outcome == "outranked":
        assert result.status == "skipped" and result.reason == "outranked"
        assert texts == ["Timezone is Europe/Berlin"]
        assert commit_count(memory_repo.root) == 2
    else:
        assert result.action == "superseded"
        assert texts == ["Timezone is UTC"]


@pytest.mark.parametrize(("holder", "writer", "outcome"), CASES)
def test_the_batch_follows_the_same_order(
    memory_repo: MemoryRepo, holder: str, writer: str, outcome: str
) -> None:
    folder = memory_repo.folder
    folder.write_entry(_write(holder, "Timezone is Europe/Berlin"))
    results, _commit = write_entries(
        folder,
        [_write(writer, "Timezone is UTC")],
        lambda n: f"Import {n}",
        by=writer,
        origin="import",
    )
    if outcome == "outranked":
        assert results[0].reason == "outranked"
    else:
        assert results[0].action == "superseded"


def test_the_same_write_to_memory_items_is_outranked_too(memory_repo: MemoryRepo) -> None:
    """The folder and memory_items agree on an import holder and an agent writer."""
    memory_repo.remember("Timezone is Europe/Berlin", subject="tz", by="import")
    folder = memory_repo.remember("Timezone is UTC", subject="tz", by="agent")
    first = memory_repo.remember("Prefers tea", subject="drink", by="import", private=True)
    items = memory_repo.remember("Prefers coffee", subject="drink", by="agent", private=True)
    assert first.written
    assert folder.reason == "outranked"
    assert items.reason == "outranked"


def test_one_entry_and_a_batch_replace_the_same_holder_in_a_hand_edited_file(
    tmp_path: Path, git: Git
) -> None:
    """A person's file may hold a subject twice; the first holder is the one replaced,
    whether the new line comes alone or in an import's batch."""
    hand_written = (
        "# Memory\n\n- Timezone is Europe/Berlin [subject: tz]\n- Timezone is CET [subject: tz]\n"
    )
    files: list[str] = []
    for name in ("alone", "batch"):
        repo = MemoryRepo.init(tmp_path / name)
        (repo.root / "MEMORY.md").write_text(hand_written)
        git(repo.root, "commit", "-qam", "by hand")
        write = _write("user", "Timezone is UTC")
        if name == "alone":
            repo.folder.write_entry(write)
        else:
            write_entries(repo.folder, [write], lambda n: f"Import {n}", by="user", origin="import")
        files.append(git(repo.root, "show", "HEAD:MEMORY.md"))
        repo.close()
    assert files[0] == files[1]
    assert "- Timezone is UTC" in files[0].splitlines()[2]
    assert "Timezone is CET" in files[0]
