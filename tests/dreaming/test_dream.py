"""dream() end to end on real git repos: one safe commit, one review branch, memory."""

from __future__ import annotations

import gc

import pytest

from memrepo import MemoryRepo
from memrepo.dreaming.model import DreamRequest, ModelAnswer
from memrepo.errors import DreamModelError

from .helpers import Commit, git, memory

SEED = memory(
    "- Use pnpm [source: t1; added: 2026-02-02; by: agent]",
    "- Use pnpm [source: t2; added: 2026-01-05; by: agent]",
    "- Promo ends [expires: 2026-01-31; by: agent]",
    "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
    "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
)


def test_safe_changes_are_one_commit_and_the_rest_one_review_branch(
    repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED, "topics/lonely.md": "# Lonely\n\n- alone [by: agent]\n"})
    before = len(repo.log())
    report = repo.dream()
    assert {op.found_by for op in report.safe} == {"expiry", "duplicates", "unlisted"}
    assert [op.found_by for op in report.pending_review] == ["subjects"]
    assert len(repo.log()) == before + 1
    (head,) = repo.log(limit=1)
    assert head.id == report.commit and head.origin == "dream" and head.by == "dream"
    for op in report.safe:
        assert f"Memrepo-Fingerprint: {op.fingerprint}" in head.message
    text = repo.read_text("MEMORY.md")
    assert "- Use pnpm [sources: t1, t2; added: 2026-01-05; by: agent]" in text
    assert "Promo" not in text and "[[topics/lonely]]" in text
    assert "Deploy day is Friday" in text  # the contradiction waits for review
    assert report.review == "dream/2026-03-01-1"
    assert git(repo.root, "branch", "--list", "dream/*").split() == ["dream/2026-03-01-1"]
    assert git(repo.root, "status", "--porcelain") == ""


def test_an_undone_dream_commit_is_never_proposed_again(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": memory("- Promo ends [expires: 2026-01-31; by: agent]")})
    first = repo.dream()
    assert first.commit is not None
    repo.undo(first.commit)
    assert "Promo ends" in repo.read_text("MEMORY.md")
    again = repo.dream()
    assert again.commit is None and again.safe == () and again.remembered == 1
    assert "Promo ends" in repo.read_text("MEMORY.md")


def test_a_second_dream_does_not_repeat_a_pending_review(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED})
    assert repo.dream().review is not None
    second = repo.dream()
    assert second.review is None and second.pending_review == ()
    assert [r.name for r in repo.list_reviews()] == ["dream/2026-03-01-1"]


def test_uncommitted_edits_are_committed_first_as_the_persons_own(
    repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": memory("- kept [by: agent]")})
    (repo.root / "MEMORY.md").write_text(
        memory(
            "- kept [by: agent]", "- typed in an editor", "- Old [expires: 2020-01-01; by: agent]"
        )
    )
    report = repo.dream()
    dream_commit, edit = repo.log(limit=2)
    assert dream_commit.id == report.commit
    assert edit.origin == "edit" and edit.by == "user" and edit.author.startswith("Test User")
    assert "typed in an editor" in repo.read_text("MEMORY.md")
    assert "Old" not in repo.read_text("MEMORY.md")


def test_swarm_folders_are_never_dreamed_over(repo: MemoryRepo, commit: Commit) -> None:
    swarm = "# Findings\n\n- same [by: agent]\n- same [by: agent]\n- x [expires: 2020-01-01]\n"
    # A person's note points into the swarm: its files are never read, but they exist.
    topic = "# Notes\n\n- The CI hunt is in [[swarms/fix-1234abcd/findings]] [by: user]\n"
    commit({"swarms/fix-1234abcd/findings.md": swarm, "notes/ci.md": topic})
    report = repo.dream()
    assert [op.found_by for op in report.safe] == ["unlisted"]  # notes/ci.md gets linked
    assert report.pending_review == () and report.broken_links == ()
    assert (repo.root / "swarms/fix-1234abcd/findings.md").read_text() == swarm


def test_dry_run_writes_nothing(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED})
    head = git(repo.root, "rev-parse", "HEAD")
    report = repo.dream(dry_run=True)
    assert report.dry_run and report.safe and report.commit is None
    assert git(repo.root, "rev-parse", "HEAD") == head
    assert git(repo.root, "branch", "--list", "dream/*") == ""
    assert repo.last_dream().last_at is None


class Exploding:
    """A model that fails after the deterministic passes have planned everything."""

    name = "exploding"

    def propose(self, request: DreamRequest) -> ModelAnswer:
        raise KeyboardInterrupt  # e.g. Ctrl-C while waiting for the model


def test_a_dream_interrupted_after_planning_applies_nothing(
    repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED})
    head = git(repo.root, "rev-parse", "HEAD")
    with pytest.raises(KeyboardInterrupt):
        repo.dream(model=Exploding())
    assert gc.isenabled()  # the dream pauses the cyclic collector, and always resumes it
    assert git(repo.root, "rev-parse", "HEAD") == head
    assert git(repo.root, "branch", "--list", "dream/*") == ""
    assert git(repo.root, "status", "--porcelain") == ""


def test_a_failed_safe_commit_takes_the_review_branch_back(
    repo: MemoryRepo, commit: Commit
) -> None:
    """main moved between planning and writing (a plain `git commit` from another
    terminal): nothing of the dream stays, not even its review branch."""
    commit({"MEMORY.md": SEED})

    def move_main(stage: str) -> None:
        if stage == "writing" and git(repo.root, "branch", "--list", "dream/*"):
            git(repo.root, "commit", "-q", "--allow-empty", "-m", "someone else")

    from memrepo.dreaming.run import dream
    from memrepo.errors import RepoStateError

    with pytest.raises(RepoStateError, match="main moved"):
        dream(repo.folder, progress=move_main)
    assert git(repo.root, "branch", "--list", "dream/*") == ""
    assert "Promo ends" in repo.read_text("MEMORY.md")


def test_last_dream_reports_time_counts_and_pending_reviews(
    repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED})
    report = repo.dream()
    assert gc.isenabled()
    status = repo.last_dream()
    assert status.last_at == report.started_at
    assert status.counts == {"expiry": 1, "duplicates": 1, "subjects": 1}
    assert status.commit == report.commit
    assert status.pending_reviews == ("dream/2026-03-01-1",)


def test_a_model_error_leaves_the_repo_as_it_was(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED})
    head = git(repo.root, "rev-parse", "HEAD")

    class Bad:
        name = "bad"

        def propose(self, request: DreamRequest) -> ModelAnswer:
            return ModelAnswer.model_validate({"ops": [{"op": "remove", "entries": ["nope"],
                                                        "reason": "x"}]})  # fmt: skip

    with pytest.raises(DreamModelError, match="does not exist"):
        repo.dream(model=Bad())
    assert git(repo.root, "rev-parse", "HEAD") == head
    assert git(repo.root, "branch", "--list", "dream/*") == ""
