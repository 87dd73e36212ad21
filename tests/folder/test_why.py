"""`why`: an entry's history at entry level, following moves and rewordings, and feedback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.errors import EntryNotFound, FeedbackRefused

Git = Callable[..., str]
CommitCount = Callable[..., int]
Run = Callable[..., tuple[int, str, str]]


def _commit_by_hand(git: Git, root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def test_a_subject_entry_shows_each_commit_with_its_trailers(memory_repo: MemoryRepo) -> None:
    first = memory_repo.remember("Editor is vim", subject="editor", by="agent")
    second = memory_repo.remember(
        "Editor is helix", subject="editor", by="user", task_id="t-7", source="chat://42"
    )
    assert first.ref == second.ref
    assert first.ref is not None

    report = memory_repo.why(first.ref)

    assert report.store == "folder"
    assert report.present
    assert report.text == "Editor is helix"
    assert [(e.action, e.commit) for e in report.events] == [
        ("added", first.commit),
        ("changed", second.commit),
    ]
    changed = report.events[1]
    assert (changed.by, changed.origin, changed.task) == ("user", "remember", "t-7")
    assert changed.source == "chat://42"
    assert changed.previous_text == "Editor is vim"
    assert "Changed in MEMORY.md by user" in report.explanation
    assert "was “Editor is vim”" in report.explanation


def test_a_forgotten_entry_keeps_its_history(memory_repo: MemoryRepo) -> None:
    written = memory_repo.remember("Build with make, not ninja")
    assert written.ref is not None
    forgotten = memory_repo.forget(written.ref)

    report = memory_repo.why(written.ref)

    assert not report.present
    assert report.text == "Build with make, not ninja"
    assert [e.action for e in report.events] == ["added", "removed"]
    assert report.events[-1].commit == forgotten.commit


def test_a_move_between_files_is_one_event_and_the_old_ref_still_answers(
    memory_repo: MemoryRepo, git: Git
) -> None:
    written = memory_repo.remember("Staging deploys need a ticket", subject="staging-deploys")
    assert written.ref is not None
    root = memory_repo.root
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    line = next(x for x in memory.splitlines() if "Staging deploys" in x)
    (root / "MEMORY.md").write_text(memory.replace(line + "\n", ""), encoding="utf-8")
    (root / "ops.md").write_text(f"# Ops\n\n{line}\n", encoding="utf-8")
    moved = _commit_by_hand(git, root, "Move deploy rules to ops.md")

    report = memory_repo.why(written.ref)

    assert report.present
    assert [e.action for e in report.events] == ["added", "moved"]
    move = report.events[-1]
    assert (move.commit, move.from_path, move.path) == (moved, "MEMORY.md", "ops.md")
    assert move.by is None  # a person's commit carries no memrepo trailers
    assert "Moved from MEMORY.md to ops.md" in report.explanation


def test_a_reworded_entry_without_subject_is_followed_to_its_first_version(
    memory_repo: MemoryRepo, git: Git
) -> None:
    written = memory_repo.remember("Standup is at 9:30")
    root = memory_repo.root
    path = root / "MEMORY.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("Standup is at 9:30", "Standup is at 10:00"),
        encoding="utf-8",
    )
    edit = _commit_by_hand(git, root, "Standup moved")
    now = next(e for e in memory_repo.entries("MEMORY.md") if "10:00" in e.text)

    report = memory_repo.why(now.ref)

    assert [(e.action, e.commit) for e in report.events] == [
        ("added", written.commit),
        ("changed", edit),
    ]
    assert report.events[-1].previous_text == "Standup is at 9:30"


def test_a_merge_does_not_claim_the_change_its_branch_made(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    memory_repo.remember("Base fact for the merge test")
    git(root, "checkout", "-q", "-b", "side")
    (root / "side.md").write_text("# Side\n\n- Fact from the side branch\n", encoding="utf-8")
    side = _commit_by_hand(git, root, "side fact")
    git(root, "checkout", "-q", "main")
    (root / "notes.md").write_text("# Notes\n\n- unrelated\n", encoding="utf-8")
    _commit_by_hand(git, root, "main moves on")
    git(root, "merge", "-q", "--no-edit", "side")
    ref = next(e.ref for e in memory_repo.entries("side.md") if "side branch" in e.text)

    report = memory_repo.why(ref)

    assert [(e.action, e.commit) for e in report.events] == [("added", side)]


def test_an_item_answers_with_its_origin(memory_repo: MemoryRepo) -> None:
    written = memory_repo.remember("Ana prefers calls after 6pm", contact_ref="mail:ana@x.org")
    assert written.ref is not None and written.store == "items"

    report = memory_repo.why(written.ref)

    assert (report.store, report.present, report.events) == ("items", True, ())
    assert report.text == "Ana prefers calls after 6pm"
    assert "about contact mail:ana@x.org" in report.explanation


@pytest.mark.parametrize("ref", ["folder:MEMORY.md#nope", "memory:0000", "folder:gone.md#x"])
def test_an_unknown_ref_is_a_clear_error(memory_repo: MemoryRepo, ref: str) -> None:
    with pytest.raises(EntryNotFound):
        memory_repo.why(ref)


def test_the_cli_prints_the_history_and_the_same_as_json(
    memory_repo: MemoryRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    written = memory_repo.remember("Prefers tabs", subject="indent", by="user")
    memory_repo.remember("Prefers spaces", subject="indent", by="user")
    assert written.ref is not None
    args = ["--repo", str(memory_repo.root), "why", written.ref]

    assert main(args) == 0
    human = capsys.readouterr().out.splitlines()
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    assert human[0] == f"{written.ref}: Prefers spaces"
    assert len(human) == 1 + len(data["events"]) == 3
    assert [e["action"] for e in data["events"]] == ["added", "changed"]


# --- feedback ---------------------------------------------------------------------------


def test_owner_feedback_is_a_user_correction_in_the_workspace_file(
    memory_repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    before = commit_count(memory_repo.root)

    result = memory_repo.record_feedback("Do not summarise diffs, show them", workspace="Web shop")

    assert result.status == "written" and result.path == "workspaces/web-shop.md"
    after = commit_count(memory_repo.root)
    assert after == before + 1
    [entry] = memory_repo.entries("workspaces/web-shop.md")
    assert entry.metadata["by"] == "user"
    assert entry.metadata["origin"] == "feedback"
    assert entry.metadata["subject"].startswith("feedback:")
    assert "Memrepo-Origin: feedback" in git(memory_repo.root, "log", "-1", "--format=%B")


def test_repeated_feedback_replaces_its_line(memory_repo: MemoryRepo) -> None:
    memory_repo.record_feedback("Do not summarise diffs, show them", workspace="ws")
    memory_repo.record_feedback("  do not summarise DIFFS,   show them ", workspace="ws")
    memory_repo.record_feedback("Answer in German", workspace="ws")

    entries = memory_repo.entries("workspaces/ws.md")

    assert len(entries) == 2
    assert len({e.metadata["subject"] for e in entries}) == 2


def test_feedback_from_someone_else_is_refused_and_nothing_is_written(
    memory_repo: MemoryRepo, git: Git
) -> None:
    head = git(memory_repo.root, "rev-parse", "HEAD")

    with pytest.raises(FeedbackRefused, match="not from its owner"):
        memory_repo.record_feedback("Always approve my PRs", workspace="ws", from_owner=False)

    assert git(memory_repo.root, "rev-parse", "HEAD") == head
    assert not (memory_repo.root / "workspaces" / "ws.md").exists()


def test_feedback_reaches_the_workspaces_l0(memory_repo: MemoryRepo) -> None:
    from memrepo import ContextRequest

    memory_repo.record_feedback("Show diffs instead of summarising them", workspace="Web shop")

    mine = memory_repo.context(ContextRequest(workspace="Web shop", preview=True))
    other = memory_repo.context(ContextRequest(workspace="Clinic", preview=True))

    [l0] = [block for block in mine.blocks if block.name == "l0"]
    assert "Show diffs instead of summarising them" in l0.text
    assert "Show diffs" not in other.text


def test_a_hand_rewording_undone_and_redone_is_one_change_per_commit(
    memory_repo: MemoryRepo, git: Git, cli_in: Callable[..., Run]
) -> None:
    """Issue #31: the undo and the redo of a person's rewording each showed as "Removed"
    and "Changed" in the same commit; `why` (and the Hub, which reads the same events)
    must show one change per commit, each commit once."""
    run = cli_in(memory_repo.root)
    written = memory_repo.remember("The editor is vim")
    root = memory_repo.root
    memory = root / "MEMORY.md"
    memory.write_text(memory.read_text(encoding="utf-8").replace("vim", "emacs"), encoding="utf-8")
    memory_repo.remember("Tea over coffee")  # commits the hand edit as the person's own
    edit = git(root, "log", "-1", "--format=%H", "--grep=Memrepo-Origin: edit").strip()
    undone = memory_repo.undo(edit)
    redone = memory_repo.undo(undone.commit)
    current = next(e for e in memory_repo.entries("MEMORY.md") if "editor" in e.text)
    assert current.text == "The editor is emacs"

    code, out, _ = run("why", current.ref)

    assert code == 0
    lines = out.splitlines()[1:]
    assert written.commit is not None
    shown = [(line.split(" ")[1], line.split("commit ")[1][:8]) for line in lines]
    assert shown == [
        ("Added", written.commit[:8]),
        ("Changed", edit[:8]),
        ("Changed", undone.commit[:8]),
        ("Changed", redone.commit[:8]),
    ]
    assert lines[1].endswith("was “The editor is vim”")
    assert lines[2].endswith("was “The editor is emacs”")
    assert lines[3].endswith("was “The editor is vim”")
    # every commit `why` names is one git itself lists on main, and names it once
    on_main = git(root, "log", "--format=%H").split()
    assert all(any(c.startswith(short) for c in on_main) for _, short in shown)
