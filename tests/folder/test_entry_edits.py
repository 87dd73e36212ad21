"""Editing one entry in place and moving one to another file: one undoable commit each,
the person's word never taken over by an agent, nothing lost to bad input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import EntryNotFound, InvalidArgument, MemoryRepo, PathOutsideRoot, ReadOnlyRef

Git = Callable[..., str]
FAKE_KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def lines_of(repo: MemoryRepo, path: str) -> list[str]:
    return (repo.root / path).read_text().splitlines()


def test_reword_is_one_commit_and_why_follows_it(memory_repo: MemoryRepo, git: Git) -> None:
    ref = memory_repo.remember("The build uses make", file="build.md").ref
    assert ref is not None
    result = memory_repo.edit(ref, text="The build uses ninja since March")
    assert result.changed and result.ref != ref and result.old_ref == ref
    assert any(
        "The build uses ninja since March" in line for line in lines_of(memory_repo, "build.md")
    )
    assert not any("uses make" in line for line in lines_of(memory_repo, "build.md"))
    assert (
        git(memory_repo.root, "log", "-1", "--format=%s").strip()
        == "Edit: The build uses ninja since March"
    )
    assert "Was: The build uses make" in git(memory_repo.root, "log", "-1", "--format=%b")
    assert git(memory_repo.root, "status", "--porcelain") == ""
    why = memory_repo.why(result.ref)
    assert [event.action for event in why.events][:2] == ["added", "changed"]


def test_undo_gives_the_old_text_back(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Deploys happen on Fridays", file="ops.md").ref
    assert ref is not None
    memory_repo.edit(ref, text="Deploys happen on Tuesdays")
    memory_repo.undo()
    text = (memory_repo.root / "ops.md").read_text()
    assert "Deploys happen on Fridays" in text and "Tuesdays" not in text


def test_metadata_changes_keep_the_text_and_the_other_keys(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember(
        "Prefers dark mode", file="ui.md", source="chat", kind="preference"
    ).ref
    assert ref is not None
    result = memory_repo.edit(
        ref, metadata={"kind": "habit", "source": None, "expires": "2027-01-01"}
    )
    line = next(line for line in lines_of(memory_repo, "ui.md") if "Prefers dark mode" in line)
    assert "kind: habit" in line and "expires: 2027-01-01" in line and "source:" not in line
    assert "added:" in line and "origin: remember" in line
    assert result.ref == ref  # same text, no subject: the id is the text's


def test_a_subject_keeps_the_id_through_a_reword(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Uses npm", file="js.md", subject="js-package-manager").ref
    assert ref is not None
    result = memory_repo.edit(ref, text="Uses pnpm")
    assert result.ref == ref


def test_an_edit_that_changes_nothing_makes_no_commit(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Keeps notes in English", file="notes.md", by="user").ref
    assert ref is not None
    before = len(memory_repo.log())
    result = memory_repo.edit(ref, text="Keeps notes in English")
    assert not result.changed and result.commit is None and len(memory_repo.log()) == before


def test_an_agent_edit_never_passes_for_the_person(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Never push to main", file="rules.md", by="user").ref
    assert ref is not None
    for key in ("by", "confirmed", "tainted"):
        with pytest.raises(InvalidArgument, match="only a person"):
            memory_repo.edit(ref, metadata={key: None}, by="agent")
    result = memory_repo.edit(
        ref, text="Never push to main without review", by="agent", tainted=True
    )
    line = next(line for line in lines_of(memory_repo, "rules.md") if "without review" in line)
    assert "by: agent" in line and "tainted: yes" in line
    assert memory_repo.log(limit=1)[0].by == "agent"
    # The person can still vouch for it.
    memory_repo.confirm(result.ref)
    line = next(line for line in lines_of(memory_repo, "rules.md") if "without review" in line)
    assert "by: user" in line and "tainted" not in line


def test_secrets_never_reach_the_file_or_the_commit(memory_repo: MemoryRepo, git: Git) -> None:
    ref = memory_repo.remember("The CI token lives in the vault", file="ci.md").ref
    assert ref is not None
    result = memory_repo.edit(
        ref, text=f"The CI token is {FAKE_KEY}", metadata={"source": FAKE_KEY}
    )
    assert result.redacted
    assert FAKE_KEY not in (memory_repo.root / "ci.md").read_text()
    assert FAKE_KEY not in git(memory_repo.root, "log", "-p", "--format=%B")


@pytest.mark.parametrize(
    ("text", "metadata", "message"),
    [
        ("", None, "cannot be stored"),
        ("\x00\x01\x02", None, "cannot be stored"),
        (None, None, "nothing to change"),
        (None, {"bad key": "x"}, "does not match"),
        (None, {"": "x"}, "does not match"),
    ],
)
def test_bad_edits_are_refused_and_change_nothing(
    memory_repo: MemoryRepo, text: str | None, metadata: dict[str, str | None] | None, message: str
) -> None:
    ref = memory_repo.remember("A fact worth keeping", file="facts.md").ref
    assert ref is not None
    before = (memory_repo.root / "facts.md").read_bytes()
    with pytest.raises(InvalidArgument, match=message):
        memory_repo.edit(ref, text=text, metadata=metadata)
    assert (memory_repo.root / "facts.md").read_bytes() == before


def test_control_characters_are_cleaned_from_new_text(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Lunch is at noon", file="day.md").ref
    assert ref is not None
    memory_repo.edit(ref, text="Lunch is\x00 at one\u200b\nnow", metadata={"note": "a\nb\x07c"})
    line = next(line for line in lines_of(memory_repo, "day.md") if "Lunch" in line)
    assert "\x00" not in line and "\u200b" not in line and "\x07" not in line


@pytest.mark.parametrize(
    ("ref", "error"),
    [
        ("folder:nowhere.md#0123456789", EntryNotFound),
        ("folder:MEMORY.md#0123456789", EntryNotFound),
        ("not a ref", EntryNotFound),
        ("team:acme:MEMORY.md#0123456789", ReadOnlyRef),
        ("memory:0123456789abcdef", InvalidArgument),
        ("folder:swarms/t1/notes.md#0123456789", InvalidArgument),
    ],
)
def test_refs_that_cannot_be_edited(
    memory_repo: MemoryRepo, ref: str, error: type[Exception]
) -> None:
    before = len(memory_repo.log())
    with pytest.raises(error):
        memory_repo.edit(ref, text="Something else entirely")
    with pytest.raises((error, InvalidArgument)):
        memory_repo.move(ref, "other.md")
    assert len(memory_repo.log()) == before


def test_a_hand_edit_saved_before_the_edit_is_kept_as_its_own_commit(
    memory_repo: MemoryRepo,
) -> None:
    ref = memory_repo.remember("Coffee at nine", file="habits.md").ref
    assert ref is not None
    (memory_repo.root / "other.md").write_text("# Other\n\n- typed by hand\n")
    memory_repo.edit(ref, text="Coffee at ten")
    log = memory_repo.log(limit=2)
    assert log[0].origin == "edit" and log[0].by == "user" and log[0].summary.startswith("Edit:")
    assert log[1].origin == "edit" and "other.md" in log[1].paths
    assert memory_repo.status().clean


def test_move_to_a_new_file_links_it_and_keeps_the_line(memory_repo: MemoryRepo, git: Git) -> None:
    ref = memory_repo.remember("Prefers pytest over unittest", file="misc.md").ref
    assert ref is not None
    line = next(line for line in lines_of(memory_repo, "misc.md") if "pytest" in line)
    result = memory_repo.move(ref, "python/testing")
    assert result.target == "python/testing.md" and not result.merged
    assert line in lines_of(memory_repo, "python/testing.md")
    assert not any("pytest" in line for line in lines_of(memory_repo, "misc.md"))
    assert "[[python/testing]]" in (memory_repo.root / "MEMORY.md").read_text()
    assert git(memory_repo.root, "status", "--porcelain") == ""
    why = memory_repo.why(result.ref)
    assert why.present and why.events[-1].action == "moved"
    memory_repo.undo()
    assert line in lines_of(memory_repo, "misc.md")


def test_move_onto_the_same_entry_only_removes_it(memory_repo: MemoryRepo) -> None:
    first = memory_repo.remember("Uses tabs", file="a.md").ref
    memory_repo.remember("Uses tabs", file="b.md")
    assert first is not None
    result = memory_repo.move(first, "b.md")
    assert result.merged
    assert sum("Uses tabs" in line for line in lines_of(memory_repo, "b.md")) == 1
    assert not any("Uses tabs" in line for line in lines_of(memory_repo, "a.md"))


@pytest.mark.parametrize(
    "target", ["../outside.md", "/etc/passwd", ".git/config", "a\x00b.md", "swarms/t/x.md"]
)
def test_move_targets_outside_memory_are_refused(
    memory_repo: MemoryRepo, tmp_path: Path, target: str
) -> None:
    ref = memory_repo.remember("Stays where it is", file="here.md").ref
    assert ref is not None
    with pytest.raises((PathOutsideRoot, InvalidArgument)):
        memory_repo.move(ref, target)
    assert any("Stays where it is" in line for line in lines_of(memory_repo, "here.md"))


def test_move_into_the_same_file_is_refused(memory_repo: MemoryRepo) -> None:
    ref = memory_repo.remember("Already home", file="home.md").ref
    assert ref is not None
    with pytest.raises(InvalidArgument, match="already"):
        memory_repo.move(ref, "home.md")
