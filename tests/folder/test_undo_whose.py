"""Undo says whose change it reverts, and a bare undo never takes back a person's own
edits unasked (issue #31: a second bare `undo` removed the three lines a person typed).

Seen from the person's side: the CLI's output and error, the file on disk and `git log`;
the same rule on the Python API and the agent's memory_undo.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo, UndoNeedsConfirmation
from memrepo.tools import ForgetRequest, MemoryTools, ToolContext

Run = Callable[..., tuple[int, str, str]]
TYPED = ("- Deploys go out on Tuesdays", "- The staging host is stg-3", "- Backups run nightly")


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def _type_three_lines(repo: MemoryRepo) -> None:
    memory = repo.root / "MEMORY.md"
    text = memory.read_text(encoding="utf-8")
    memory.write_text(text.replace("## Index", "\n".join(TYPED) + "\n\n## Index"), "utf-8")


@pytest.fixture
def edited(memory_repo: MemoryRepo) -> MemoryRepo:
    """The issue's hour: a write, three lines typed by hand, a write that commits them as
    the person's edit (origin edit, by user), then that last write undone."""
    memory_repo.remember("The editor is vim", by="user")
    _type_three_lines(memory_repo)
    memory_repo.remember("Tea over coffee", by="user")
    memory_repo.undo()
    return memory_repo


def _typed_lines(repo: MemoryRepo) -> list[str]:
    text = (repo.root / "MEMORY.md").read_text(encoding="utf-8")
    return [line for line in TYPED if line in text.splitlines()]


def _edit_commit(repo: MemoryRepo) -> str:
    return git(repo.root, "log", "-1", "--format=%H", "--grep=Memrepo-Origin: edit").strip()


def test_the_first_undo_says_it_reverted_the_persons_write(
    memory_repo: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    memory_repo.remember("The editor is vim", by="user")
    written = memory_repo.remember("Tea over coffee", by="user")
    assert written.commit is not None

    code, out, _ = cli_in(memory_repo.root)("undo")

    assert code == 0
    assert out.startswith(
        f"undid {written.commit[:10]}, your own write (origin remember): "
        "Remember: Tea over coffee (commit "
    )
    assert out.rstrip().endswith("1 entry removed, 0 restored in MEMORY.md")


def test_a_second_bare_undo_refuses_to_take_back_the_hand_edit(
    edited: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    head = git(edited.root, "rev-parse", "HEAD")
    edit = _edit_commit(edited)

    code, out, err = cli_in(edited.root)("undo")

    assert (code, out) == (1, "")
    assert err.startswith(
        f"memrepo: the newest change left to undo is your own hand edit, {edit[:10]}"
    )
    assert f"name it (memrepo undo {edit[:10]}) or confirm with --yes" in err
    assert git(edited.root, "rev-parse", "HEAD") == head
    assert git(edited.root, "status", "--porcelain") == ""
    assert _typed_lines(edited) == list(TYPED)


def test_dry_run_says_before_whose_change_a_bare_undo_would_revert(
    edited: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    head = git(edited.root, "rev-parse", "HEAD")
    edit = _edit_commit(edited)

    code, out, _ = cli_in(edited.root)("undo", "--dry-run")

    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(
        f"would undo {edit[:10]}, your own hand edit: "
        "Record edits made outside memrepo: MEMORY.md ("
    )
    assert lines[1] == f"a bare undo asks first: memrepo undo {edit[:10]} or memrepo undo --yes"
    assert git(edited.root, "rev-parse", "HEAD") == head


@pytest.mark.parametrize("how", ["--yes", "named"])
def test_yes_or_the_commit_named_reverts_the_edit_and_says_whose_it_was(
    edited: MemoryRepo, cli_in: Callable[..., Run], how: str
) -> None:
    edit = _edit_commit(edited)
    argv = ["--yes"] if how == "--yes" else [edit[:10]]

    code, out, _ = cli_in(edited.root)("undo", *argv)

    assert code == 0
    assert out.startswith(
        f"undid {edit[:10]}, your own hand edit: Record edits made outside memrepo"
    )
    assert "3 entries removed, 0 restored in MEMORY.md" in out
    assert _typed_lines(edited) == []
    trailers = git(edited.root, "log", "-1", "--format=%(trailers:only,unfold)")
    assert f"Memrepo-Undoes: {edit}" in trailers


def test_json_names_whose_change_was_undone(edited: MemoryRepo, cli_in: Callable[..., Run]) -> None:
    code, out, _ = cli_in(edited.root)("undo", "--yes", "--json")

    data = json.loads(out)
    assert code == 0
    assert (data["whose"], data["origin"], data["by"]) == ("your own hand edit", "edit", "user")
    assert data["undone"] == _edit_commit(edited)


def test_the_python_api_keeps_the_same_rule(edited: MemoryRepo) -> None:
    head = git(edited.root, "rev-parse", "HEAD")

    with pytest.raises(UndoNeedsConfirmation) as refused:
        edited.undo()

    assert refused.value.commit == _edit_commit(edited)
    assert git(edited.root, "rev-parse", "HEAD") == head
    result = edited.undo(yes=True)
    assert (result.undone, result.whose) == (refused.value.commit, "your own hand edit")
    assert _typed_lines(edited) == []


def test_a_bare_undo_of_an_agent_write_needs_no_confirmation(memory_repo: MemoryRepo) -> None:
    _type_three_lines(memory_repo)
    written = memory_repo.remember("Runs tests with tox", by="agent", task_id="t-7")

    result = memory_repo.undo()

    assert (result.undone, result.whose) == (
        written.commit,
        "the agent's write (origin remember, task t-7)",
    )
    assert _typed_lines(memory_repo) == list(TYPED)


@pytest.fixture
def asked() -> list[ForgetRequest]:
    return []


def _tools(repo: MemoryRepo, asked: list[ForgetRequest], answer: bool) -> MemoryTools:
    def approval(request: ForgetRequest) -> bool:
        asked.append(request)
        return answer

    return MemoryTools(repo, ToolContext(task_id="t-7"), approval=approval)


def test_the_agents_bare_undo_never_lands_on_the_persons_edit(
    edited: MemoryRepo, asked: list[ForgetRequest]
) -> None:
    head = git(edited.root, "rev-parse", "HEAD")
    edit = _edit_commit(edited)

    with pytest.raises(UndoNeedsConfirmation) as refused:
        _tools(edited, asked, answer=True).dispatch("memory_undo", {})

    assert f"call memory_undo with commit {edit[:10]}" in str(refused.value)
    assert asked == []  # not even asked: a bare undo does not mean the person's lines
    assert git(edited.root, "rev-parse", "HEAD") == head
    assert _typed_lines(edited) == list(TYPED)


def test_the_agent_naming_the_persons_edit_asks_and_says_whose_it_is(
    edited: MemoryRepo, asked: list[ForgetRequest]
) -> None:
    edit = _edit_commit(edited)

    out = _tools(edited, asked, answer=True).dispatch("memory_undo", {"commit": edit[:10]})

    assert [r.change for r in asked] == [
        f"reverse {edit[:10]}, your own hand edit (Record edits made outside memrepo: MEMORY.md)"
    ]
    assert (out["undone"], out["whose"], out["approval"]) == (
        edit,
        "your own hand edit",
        "approved",
    )
    assert _typed_lines(edited) == []


def test_the_agents_own_write_is_undone_at_once_and_named_as_its_own(
    memory_repo: MemoryRepo, asked: list[ForgetRequest]
) -> None:
    tools = _tools(memory_repo, asked, answer=False)
    tools.dispatch("memory_remember", {"text": "The user deploys with ansible"})

    out = tools.dispatch("memory_undo", {})

    assert asked == []
    assert out["whose"] == "the agent's write (origin remember, task t-7)"
    assert out["approval"] == "own_inference"
    assert "ansible" not in (memory_repo.root / "MEMORY.md").read_text(encoding="utf-8")


def test_a_memrepo_edit_the_person_ran_is_undone_by_a_bare_undo(
    memory_repo: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    """Only lines typed in a file are held back: `memrepo edit` is a command the person
    ran, which a bare undo takes back as it takes back a `remember`."""
    run = cli_in(memory_repo.root)
    written = memory_repo.remember("The user drinks tea", by="user")
    assert written.ref is not None
    code, _, err = run("edit", written.ref, "--text", "The user drinks green tea")
    assert code == 0, err

    code, out, _ = run("undo")

    assert code == 0
    assert ", your own write (origin edit): " in out.splitlines()[0]
    assert "The user drinks tea [" in (memory_repo.root / "MEMORY.md").read_text("utf-8")
