"""undo: entry by entry, as a new commit; refuses only when a later commit touched the
same entries; undoing an undo redoes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo, NothingToUndo, UndoConflict

Git = Callable[..., str]


def texts(repo: MemoryRepo, path: str | None = None) -> list[str]:
    return [e.text for e in repo.entries(path)]


def test_undo_newest_write(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("First fact here")
    second = memory_repo.remember("Second fact here")
    result = memory_repo.undo()
    assert result.undone == second.commit
    assert result.entries_removed == 1
    assert texts(memory_repo) == ["First fact here"]
    assert git(memory_repo.root, "status", "--porcelain") == ""
    body = git(memory_repo.root, "log", "-1", "--format=%B")
    assert f"Memrepo-Undoes: {second.commit}" in body


def test_undo_older_append_next_to_a_later_append(memory_repo: MemoryRepo, git: Git) -> None:
    """The case where `git revert` conflicts: two bullets appended one after the other."""
    first = memory_repo.remember("Older appended fact")
    memory_repo.remember("Newer appended fact")
    reverted = _git_revert_conflicts(memory_repo.root, first.commit or "", git)
    assert reverted, "expected plain git revert to conflict here"
    memory_repo.undo(first.commit)
    assert texts(memory_repo) == ["Newer appended fact"]
    assert git(memory_repo.root, "status", "--porcelain") == ""


def _git_revert_conflicts(root: Path, commit: str, git: Git) -> bool:
    import subprocess

    out = subprocess.run(
        ["git", "-C", str(root), "revert", "--no-edit", commit], capture_output=True, check=False
    )
    conflicted = out.returncode != 0
    if conflicted:
        git(root, "revert", "--abort")
    else:
        git(root, "reset", "-q", "--hard", "HEAD~1")
    return conflicted


def test_undo_restores_a_forgotten_entry_in_place(memory_repo: MemoryRepo) -> None:
    for text in ("Alpha fact", "Bravo fact", "Charlie fact"):
        memory_repo.remember(text)
    bravo = next(e for e in memory_repo.entries() if e.text == "Bravo fact")
    memory_repo.forget(bravo.ref)
    memory_repo.remember("Delta fact")
    result = memory_repo.undo(memory_repo.log(limit=2)[1].id)
    assert result.entries_restored == 1
    assert texts(memory_repo) == ["Alpha fact", "Bravo fact", "Charlie fact", "Delta fact"]


def test_undo_supersede_gives_old_text_back(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Editor is vim", subject="editor")
    memory_repo.remember("Unrelated fact")
    memory_repo.remember("Editor is helix", subject="editor")
    memory_repo.undo()
    assert texts(memory_repo) == ["Editor is vim", "Unrelated fact"]


def test_undo_refuses_when_a_later_commit_changed_the_entry(memory_repo: MemoryRepo) -> None:
    first = memory_repo.remember("Editor is vim", subject="editor")
    later = memory_repo.remember("Editor is helix", subject="editor")
    before = (memory_repo.root / "MEMORY.md").read_bytes()
    with pytest.raises(UndoConflict) as caught:
        memory_repo.undo(first.commit)
    assert caught.value.later == (later.commit,)
    assert (later.commit or "")[:10] in str(caught.value)
    assert (memory_repo.root / "MEMORY.md").read_bytes() == before


def test_undo_of_undo_redoes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Fact that comes and goes")
    first_undo = memory_repo.undo()
    assert texts(memory_repo) == []
    memory_repo.undo(first_undo.commit)
    assert texts(memory_repo) == ["Fact that comes and goes"]


def test_default_undo_walks_back_through_writes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("One fact")
    memory_repo.remember("Two fact")
    memory_repo.undo()
    memory_repo.undo()
    assert texts(memory_repo) == []
    with pytest.raises(NothingToUndo):
        memory_repo.undo()


def test_undo_of_a_new_file_removes_file_and_index_link(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("Workspace fact", workspace="acme")
    memory_repo.undo()
    assert not (memory_repo.root / "workspaces").exists()
    assert (memory_repo.root / "MEMORY.md").read_text() == "# Memory\n\n## Index\n"
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_undo_auto_committed_user_edit(memory_repo: MemoryRepo) -> None:
    path = memory_repo.root / "MEMORY.md"
    original = path.read_text()
    path.write_text(original.replace("## Index", "- Hand fact\n\n## Index"))
    memory_repo.remember("Agent fact")
    log = memory_repo.log(limit=2)
    assert log[1].origin == "edit" and log[1].by == "user"
    memory_repo.undo(log[1].id)
    assert texts(memory_repo) == ["Agent fact"]


def test_undo_crlf_file_keeps_line_endings(memory_repo: MemoryRepo, git: Git) -> None:
    path = memory_repo.root / "notes.md"
    path.write_bytes(b"# Notes\r\n\r\n- hand one\r\n")
    git(memory_repo.root, "add", "notes.md")
    git(memory_repo.root, "commit", "-q", "-m", "notes")
    memory_repo.remember("agent line", file="notes.md")
    memory_repo.undo()
    assert path.read_bytes() == b"# Notes\r\n\r\n- hand one\r\n"


def test_undo_unknown_commit(memory_repo: MemoryRepo) -> None:
    from memrepo import EntryNotFound

    with pytest.raises(EntryNotFound):
        memory_repo.undo("deadbeef")


def test_undo_initial_commit_refused(memory_repo: MemoryRepo) -> None:
    with pytest.raises(NothingToUndo):
        memory_repo.undo("HEAD")


def test_redo_of_a_removed_file_counts_its_entries(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Deploys via staging", workspace="Web shop")
    first = memory_repo.undo()
    assert first.entries_removed == 1
    again = memory_repo.undo(first.commit)
    assert again.entries_restored == 1
    assert texts(memory_repo) == ["Deploys via staging"]


def test_undo_a_hand_commit_of_a_title_keeps_later_entries(
    memory_repo: MemoryRepo, git: Git
) -> None:
    path = memory_repo.root / "MEMORY.md"
    path.write_text(path.read_text().replace("# Memory", "# Our team memory"))
    git(memory_repo.root, "commit", "-qam", "rename the title")
    hand = git(memory_repo.root, "rev-parse", "HEAD").strip()
    memory_repo.remember("Fact after the rename")
    memory_repo.undo(hand)
    assert path.read_text().startswith("# Memory\n")
    assert texts(memory_repo) == ["Fact after the rename"]


def test_bare_undo_with_a_pending_hand_edit_undoes_the_agent_write(
    memory_repo: MemoryRepo, git: Git
) -> None:
    """The edit is committed first (as the person's), then the write before it is undone."""
    memory_repo.remember("Agent wrote this")
    topic = memory_repo.root / "notes.md"
    topic.write_text("# Notes\n\n- the person typed this\n")
    result = memory_repo.undo()
    assert texts(memory_repo, "MEMORY.md") == []
    assert texts(memory_repo, "notes.md") == ["the person typed this"]
    assert topic.read_text() == "# Notes\n\n- the person typed this\n"
    log = memory_repo.log(limit=3)
    assert log[0].origin == "undo" and log[0].undoes == result.undone
    assert log[1].origin == "edit" and log[2].summary == "Remember: Agent wrote this"
    assert result.undone == log[2].id
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_bare_undo_with_a_pending_edit_of_the_same_file(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Agent wrote this")
    memory = memory_repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("## Index", "- Person added this\n\n## Index"))
    memory_repo.undo()
    assert texts(memory_repo) == ["Person added this"]
    assert "Person added this" in memory.read_text()
