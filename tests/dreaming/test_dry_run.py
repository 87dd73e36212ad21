"""`dream(dry_run=True)` predicts exactly what `dream()` then does, on several repo shapes.

A dry run plans on what the real run would plan on: main with a person's pending edits
committed. Each case runs a dry run, then the real dream, on the same repo, and compares
every operation (kind, pass, file, the lines it targets, the line it writes, where it
goes, and whether it goes to main or to the review branch) and every reported broken link.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo import FixedClock, MemoryRepo
from memrepo.config import LocalConfig
from memrepo.errors import DirtyWorktree, MemrepoError, SecretInEdit
from memrepo.models.dream import DreamReport, Op

from .helpers import NOW, Commit, git, memory

SEED = memory(
    "- Use pnpm [source: t1; added: 2026-02-02; by: agent]",
    "- Use pnpm [source: t2; added: 2026-01-05; by: agent]",
    "- Promo ends [expires: 2026-01-31; by: agent]",
    "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
    "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
    index=("topics/infra",),
)
INFRA = "# Infra\n\n- Ana owns the billing services [by: agent]\n- See [[topics/old]] [by: agent]\n"
OLD = "# Old\n\n" + "".join(f"- Old fact {n} about the build [by: agent]\n" for n in range(8))


def _op(op: Op) -> tuple[object, ...]:
    targets = tuple((t.path, t.line, t.raw) for t in op.targets)
    return (op.kind, op.found_by, op.path, targets, op.text, op.dest, op.review, op.fingerprint)


def plan_of(report: DreamReport) -> dict[str, object]:
    """What a person reads in a report, without the run's own ids."""
    return {
        "safe": [_op(op) for op in report.safe],
        "review": [_op(op) for op in report.pending_review],
        "broken": [(b.path, b.line, b.target) for b in report.broken_links],
        "counts": report.counts,
        "remembered": report.remembered,
    }


def assert_dry_run_predicts(repo: MemoryRepo) -> DreamReport:
    """Dry run, then the real dream: the same plan, and the review branch holds the
    review operations."""
    head = git(repo.root, "rev-parse", "HEAD")
    status = git(repo.root, "status", "--porcelain")
    predicted = repo.dream(dry_run=True)
    assert git(repo.root, "rev-parse", "HEAD") == head  # still nothing written
    assert git(repo.root, "status", "--porcelain") == status
    done = repo.dream()
    assert plan_of(predicted) == plan_of(done)
    if done.review is not None:
        stored = repo.show_review(done.review).ops
        assert [_op(op) for op in stored] == plan_of(predicted)["review"]
    return done


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


Shape = Callable[[MemoryRepo, Commit], None]


def committed(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA, "topics/new.md": "# New\n"})


def hand_edited(repo: MemoryRepo, commit: Commit) -> None:
    """A person typed a duplicate and an expired line into MEMORY.md, not committed."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA})
    text = SEED.replace("## Index", "- Use PNPM [source: t3; by: agent]\n- Old [expires: "
                        "2020-01-01; by: agent]\n\n## Index")  # fmt: skip
    _write(repo.root, {"MEMORY.md": text})


def new_file_by_hand(repo: MemoryRepo, commit: Commit) -> None:
    """A new topic file nobody links to, and a near duplicate in it, not committed."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA})
    _write(repo.root, {"notes/x.md": "# X\n\n- Ana owns the billing service [by: agent]\n"})


def deleted_by_hand(repo: MemoryRepo, commit: Commit) -> None:
    """A linked file deleted in the worktree: its link breaks once the edit is in."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA, "topics/gone.md": "# Gone\n"})
    _write(repo.root, {"topics/infra.md": INFRA + "- Read [[topics/gone]] [by: agent]\n"})
    (repo.root / "topics/gone.md").unlink()


def with_history(repo: MemoryRepo, commit: Commit) -> None:
    """An undone dream, an open review branch, and a hand edit on top."""
    commit({"MEMORY.md": memory("- Promo ends [expires: 2026-01-31; by: agent]",
                                "- Deploy day is Friday [subject: d; by: agent]",
                                "- Deploy day is Monday [subject: d; by: user]")})  # fmt: skip
    first = repo.dream()
    assert first.commit is not None and first.review is not None
    repo.undo(first.commit)
    _write(repo.root, {"workspaces/w.md": "# W\n\n- x [by: agent]\n- x [by: agent]\n"})


def renamed_by_hand(repo: MemoryRepo, commit: Commit) -> None:
    """`mv topics/old.md topics/moved.md`, not committed: the dream's edit commit holds
    the rename, and git's rename detection points the link at the new name."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA, "topics/old.md": OLD})
    (repo.root / "topics/old.md").rename(repo.root / "topics/moved.md")


def renamed_in_history_then_by_hand(repo: MemoryRepo, commit: Commit) -> None:
    """git mv'd once (committed), then moved again by hand: both hops are followed."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA, "topics/old.md": OLD})
    git(repo.root, "mv", "topics/old.md", "topics/mid.md")
    git(repo.root, "commit", "-q", "-m", "rename")
    (repo.root / "topics/mid.md").rename(repo.root / "topics/last.md")


def swarm_and_workspace_edits(repo: MemoryRepo, commit: Commit) -> None:
    """Pending edits in a swarm folder (never read) and a workspace (its own group)."""
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA,
            "swarms/fix-1234abcd/findings.md": "# F\n\n- same [by: agent]\n"})  # fmt: skip
    _write(repo.root, {"swarms/fix-1234abcd/findings.md": "# F\n\n- y [by: agent]\n" * 2,
                       "workspaces/w.md": "# W\n\n- Use pnpm [by: agent]\n"})  # fmt: skip


#: Each shape, and a pass the dream must find something with (so no case is vacuous).
SHAPES: dict[str, tuple[Shape, str]] = {
    "committed": (committed, "unlisted"),
    "hand-edited": (hand_edited, "duplicates"),
    "new-file-by-hand": (new_file_by_hand, "near_duplicates"),
    "deleted-by-hand": (deleted_by_hand, "expiry"),
    "with-history": (with_history, "duplicates"),
    "renamed-by-hand": (renamed_by_hand, "links"),
    "renamed-in-history-then-by-hand": (renamed_in_history_then_by_hand, "links"),
    "swarm-and-workspace-edits": (swarm_and_workspace_edits, "unlisted"),
}


@pytest.mark.parametrize(("shape", "found_by"), SHAPES.values(), ids=SHAPES.keys())
def test_a_dry_run_predicts_the_dream(
    repo: MemoryRepo, commit: Commit, shape: Shape, found_by: str
) -> None:
    shape(repo, commit)
    done = assert_dry_run_predicts(repo)
    assert found_by in {op.found_by for op in (*done.safe, *done.pending_review)}


def test_a_file_moved_and_edited_by_hand_is_predicted(repo: MemoryRepo, commit: Commit) -> None:
    commit({"MEMORY.md": SEED, "topics/infra.md": INFRA, "topics/old.md": OLD})
    (repo.root / "topics/old.md").unlink()
    _write(repo.root, {"topics/moved.md": OLD + "- One more fact [by: agent]\n"})
    assert_dry_run_predicts(repo)


def test_a_dry_run_stops_where_the_dream_would(repo: MemoryRepo, commit: Commit) -> None:
    """A secret typed into a file: the dream refuses to commit it, so does its dry run."""
    commit({"MEMORY.md": SEED})
    key = "AKIA" + "QWERTYUIOPASDFGH"
    _write(repo.root, {"MEMORY.md": SEED.replace("## Index", f"- key {key}\n\n## Index")})
    with pytest.raises(SecretInEdit, match=r"MEMORY\.md:9"):
        repo.dream(dry_run=True)
    with pytest.raises(SecretInEdit, match=r"MEMORY\.md:9"):
        repo.dream()


def test_a_dry_run_refuses_pending_edits_when_auto_commit_is_off(
    repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": SEED})
    _write(repo.root, {"MEMORY.md": SEED + "- typed\n"})
    with MemoryRepo.open(repo.root, config=LocalConfig(auto_commit_user_edits=False)) as strict:
        for dry_run in (True, False):
            with pytest.raises(DirtyWorktree, match=r"MEMORY\.md"):
                strict.dream(dry_run=dry_run)


#: Lines a generated repo is made of: exact and near duplicates, expired lines, a
#: subject with two values, a person's line, a link to a file that may go.
LINES = [
    "- Use pnpm [source: t1; by: agent]",
    "- use PNPM [source: t2; by: agent]",
    "- Ana owns the billing service [by: agent]",
    "- Ana owns the billing services [by: agent; added: 2026-01-01]",
    "- Promo ends [expires: 2026-01-31; by: agent]",
    "- Call Bob [expires: 2025-12-01]",
    "- Deploy day is Friday [subject: deploy-day; by: agent]",
    "- Deploy day is Monday [subject: deploy-day; by: user]",
    "- Details in [[topics/b]] [by: agent]",
    "- A person's own rule",
]
FILES = ["MEMORY.md", "topics/a.md", "topics/b.md", "notes/c.md", "workspaces/w.md"]
BODY = st.lists(st.sampled_from(LINES), max_size=4)
COMMITTED = st.fixed_dictionaries({path: BODY for path in FILES[:3]})
#: Pending edits by file: new lines, or None when the file is deleted by hand.
EDITS = st.dictionaries(st.sampled_from(FILES), st.none() | BODY, max_size=3)


def _text(path: str, lines: list[str]) -> str:
    if path == "MEMORY.md":
        return memory(*lines, index=("topics/a",))
    return f"# {path}\n\n" + "".join(f"{line}\n" for line in lines)


def _outcome(repo: MemoryRepo, dry_run: bool) -> object:
    """The plan, or the kind of error that stopped the dream before it wrote."""
    try:
        return plan_of(repo.dream(dry_run=dry_run))
    except MemrepoError as exc:
        return type(exc).__name__


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(committed=COMMITTED, edits=EDITS)
def test_a_dry_run_predicts_the_dream_on_generated_repos(
    committed: dict[str, list[str]], edits: dict[str, list[str] | None]
) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        MemoryRepo.init(Path(tmp) / "mem", clock=FixedClock(NOW)) as repo,
    ):
        _write(repo.root, {path: _text(path, lines) for path, lines in committed.items()})
        git(repo.root, "add", "-A")
        git(repo.root, "commit", "-q", "-m", "hand edit")
        for path, lines in edits.items():
            if lines is None:
                (repo.root / path).unlink(missing_ok=True)
            else:
                _write(repo.root, {path: _text(path, lines)})
        predicted = _outcome(repo, dry_run=True)
        assert predicted == _outcome(repo, dry_run=False)
