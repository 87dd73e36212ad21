"""Review branches: show, accept (all or some), reject, conflicts, a base that is gone."""

from __future__ import annotations

import pytest

from memrepo import InvalidArgument, MemoryRepo
from memrepo.errors import ReviewConflict, ReviewNotFound

from .helpers import Commit, git, memory

SEED = memory(
    "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
    "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
    "- Ana owns the billing services [by: agent; added: 2026-01-01]",
    "- Ana owns the billing service [by: agent; added: 2026-02-01]",
    "- Old person's note [expires: 2020-01-01]",
)
NAME = "dream/2026-03-01-1"


@pytest.fixture
def reviewed(repo: MemoryRepo, commit: Commit) -> MemoryRepo:
    commit({"MEMORY.md": SEED})
    report = repo.dream()
    assert report.review == NAME and report.commit is None
    assert [op.found_by for op in report.pending_review] == ["expiry", "near_duplicates",
                                                             "subjects"]  # fmt: skip
    return repo


def test_show_gives_a_per_entry_diff_with_reasons(reviewed: MemoryRepo) -> None:
    detail = reviewed.show_review(NAME)
    assert detail.summary.base_on_main and detail.summary.ops == 3
    assert "[1] remove (expiry)" in detail.diff
    assert "review because it changes an entry a person wrote" in detail.diff
    assert "  - MEMORY.md:7  - Old person's note [expires: 2020-01-01]" in detail.diff
    assert "  + MEMORY.md  - Ana owns the billing service [by: agent; added: 2026-01-01]" in (
        detail.diff
    )
    assert "keeping 'Deploy day is Monday'" in detail.diff


def test_accepting_everything_gives_main_the_branch_tree(reviewed: MemoryRepo) -> None:
    branch_tree = git(reviewed.root, "rev-parse", f"{NAME}^{{tree}}")
    result = reviewed.accept_review(NAME)
    assert result.commit is not None and len(result.accepted) == 3 and result.rejected == ()
    assert git(reviewed.root, "rev-parse", "HEAD^{tree}") == branch_tree
    (head,) = reviewed.log(limit=1)
    assert head.origin == "dream" and head.by == "user"
    assert reviewed.list_reviews() == []
    assert git(reviewed.root, "status", "--porcelain") == ""
    reviewed.undo()  # an accepted review is one undoable commit
    assert reviewed.read_text("MEMORY.md") == SEED


def test_accepting_some_leaves_the_rest_pending_until_a_person_decides(
    reviewed: MemoryRepo,
) -> None:
    """Issue #31: accepting operation 3 used to reject 1 and 2 for good."""
    first, second, third = (op.fingerprint for op in reviewed.show_review(NAME).ops)

    result = reviewed.accept_review(NAME, [3])

    assert (result.accepted, result.rejected, result.pending) == ((third,), (), (first, second))
    text = reviewed.read_text("MEMORY.md")
    assert "Friday" not in text and "Old person's note" in text
    # The branch now holds the two left, on top of the new main: git's diff is just them.
    assert git(reviewed.root, "rev-parse", f"{NAME}^") == git(reviewed.root, "rev-parse", "main")
    diff = git(reviewed.root, "diff", "--unified=0", "main", NAME, "--", "MEMORY.md")
    lines = diff.splitlines()
    changed = sorted(x for x in lines if x[:2] in ("+-", "--") and x[:4] not in ("--- ", "+++ "))
    assert changed == [
        "+- Ana owns the billing service [by: agent; added: 2026-01-01]",
        "-- Ana owns the billing service [by: agent; added: 2026-02-01]",
        "-- Ana owns the billing services [by: agent; added: 2026-01-01]",
        "-- Old person's note [expires: 2020-01-01]",
    ]
    assert [op.fingerprint for op in reviewed.show_review(NAME).ops] == [first, second]
    again = reviewed.dream()  # both still wait on the branch: not proposed a second time
    assert again.pending_review == () and again.review is None and again.remembered == 2
    assert [r.name for r in reviewed.list_reviews()] == [NAME]
    # ... until the person decides: one rejected, the other accepted.
    rejected = reviewed.reject_review(NAME, [1])
    assert (rejected.rejected, rejected.pending) == ((first,), (second,))
    accepted = reviewed.accept_review(NAME)
    assert (accepted.accepted, accepted.pending) == ((second,), ())
    assert reviewed.list_reviews() == []
    text = reviewed.read_text("MEMORY.md")
    assert "Old person's note" in text and "billing services" not in text
    assert reviewed.dream().remembered == 1


def test_a_rejected_review_is_never_proposed_again(reviewed: MemoryRepo) -> None:
    result = reviewed.reject_review(NAME)
    assert len(result.rejected) == 3
    assert git(reviewed.root, "branch", "--list", "dream/*") == ""
    assert reviewed.read_text("MEMORY.md") == SEED
    again = reviewed.dream()
    assert again.pending_review == () and again.remembered == 3


def test_accept_still_works_after_unrelated_work_on_main(reviewed: MemoryRepo) -> None:
    reviewed.remember("An unrelated new fact")
    reviewed.accept_review(NAME)
    text = reviewed.read_text("MEMORY.md")
    assert "An unrelated new fact" in text and "Friday" not in text


def test_accept_refuses_when_main_changed_a_line_it_needs(
    reviewed: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED.replace("is Friday", "is Saturday")})
    head = git(reviewed.root, "rev-parse", "HEAD")
    with pytest.raises(ReviewConflict, match="changed or is gone"):
        reviewed.accept_review(NAME)
    assert git(reviewed.root, "rev-parse", "HEAD") == head
    assert [r.name for r in reviewed.list_reviews()] == [NAME]


def test_a_review_whose_base_is_gone_is_refused(reviewed: MemoryRepo, commit: Commit) -> None:
    git(reviewed.root, "checkout", "-q", "--orphan", "fresh")
    git(reviewed.root, "rm", "-rq", "--cached", ".")
    commit({"MEMORY.md": SEED}, message="history rewritten")
    git(reviewed.root, "branch", "-D", "main")
    git(reviewed.root, "branch", "-m", "main")
    (summary,) = reviewed.list_reviews()
    assert summary.base_on_main is False
    with pytest.raises(ReviewConflict, match="no longer in main's history"):
        reviewed.accept_review(NAME)
    assert reviewed.read_text("MEMORY.md") == SEED


def test_unknown_names_and_operations_are_clear_errors(reviewed: MemoryRepo) -> None:
    with pytest.raises(ReviewNotFound, match="review list"):
        reviewed.show_review("dream/1999-01-01-1")
    with pytest.raises(ReviewNotFound):
        reviewed.reject_review("main")
    with pytest.raises(InvalidArgument, match="1-3"):
        reviewed.accept_review(NAME, [7])
    assert [r.name for r in reviewed.list_reviews()] == [NAME]
