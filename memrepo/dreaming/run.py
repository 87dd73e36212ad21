"""`dream()`: plan every pass against one main commit, then write it in two units.

Under the write lock: a person's pending edits are committed first (as theirs; a dry
run lays them over main instead, see `base`, so it plans on the same files), the
snapshot is main at that commit, every pass and the model propose operations, they are
screened and classified, and anything rejected or undone before is dropped. Only then is
anything written: the review branch (objects and one ref), then the one safe commit on
main. If the safe commit fails, the branch is deleted again, so a dream lands whole or
not at all. Commitment expiry for memory_items runs last (reference §5b).
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from memrepo.dreaming.apply import apply_ops
from memrepo.dreaming.base import Renames, plan_base
from memrepo.dreaming.duplicates import find_exact, find_near
from memrepo.dreaming.expiry import find_expired
from memrepo.dreaming.links import find_broken_links
from memrepo.dreaming.model import DreamModel, ModelAnswer, OfflineModel, request_for
from memrepo.dreaming.overflow import find_overflow
from memrepo.dreaming.review import open_fingerprints, ops_message, review_message
from memrepo.dreaming.screen import check_text, classify, ops_from_answer
from memrepo.dreaming.snapshot import Snapshot, build_snapshot
from memrepo.dreaming.state import DreamState, LastDream, load_state, save_state
from memrepo.dreaming.subjects import find_contradictions
from memrepo.dreaming.unlisted import find_unlisted
from memrepo.errors import DreamError, DreamModelError
from memrepo.folder import branches
from memrepo.folder.repo import MemoryFolder
from memrepo.items.curation import NotesEvidence, expire_commitments
from memrepo.items.db import default_path
from memrepo.items.writer import ItemWriter
from memrepo.models.dream import BrokenLink, CurationReport, DreamReport, Op, RecentNote

#: Runs commitment expiry with the dream's notes and time (None: no memory_items yet).
Curator = Callable[[Sequence[RecentNote], datetime], CurationReport]
#: Hears "planned" once nothing but writing is left, and "writing" before each write.
Progress = Callable[[str], None]


def dream(
    folder: MemoryFolder,
    *,
    model: DreamModel | None = None,
    recent_notes: Sequence[RecentNote | str] = (),
    now: datetime | None = None,
    dry_run: bool = False,
    curator: Curator | None = None,
    progress: Progress | None = None,
) -> DreamReport:
    """One dream over the folder; see the module docstring."""
    chosen = model if model is not None else OfflineModel()
    started = now or folder.clock.now()
    notes = tuple(n if isinstance(n, RecentNote) else RecentNote(text=n) for n in recent_notes)
    with folder.lock:
        with _collector_paused():
            report = _dream_locked(folder, chosen, notes, started, dry_run, progress)
        if dry_run:
            return report
        curation = curator(notes, started) if curator is not None else None
    return report.model_copy(update={"curation": curation})


def _dream_locked(
    folder: MemoryFolder,
    model: DreamModel,
    notes: tuple[RecentNote, ...],
    started: datetime,
    dry_run: bool,
    progress: Progress | None,
) -> DreamReport:
    """Plan and write a dream. Its own frame holds the snapshot and everything built
    per entry, so all of it is freed when it returns: before the garbage collector
    runs again, which would otherwise walk it all once (0.6 ms at 2,200 entries)."""
    state = load_state(folder.state_dir)
    base = plan_base(folder, dry_run=dry_run)
    state.mark_undone(branches.undone_commits(folder, state.commits))
    snap = build_snapshot(base.commit, base.files, started.date(), base.paths)
    ops, broken = _plan(folder, snap, model, notes, base.renames(folder))
    remembered = state.remembered() | open_fingerprints(folder)
    kept = [op for op in ops if op.fingerprint not in remembered]
    safe = [op for op in kept if not op.review]
    review = [op for op in kept if op.review]
    report = DreamReport(
        started_at=started,
        dry_run=dry_run,
        model=model.name,
        base=base.commit,
        safe=tuple(safe),
        pending_review=tuple(review),
        counts=dict(Counter(op.found_by for op in kept)),
        remembered=len(ops) - len(kept),
        broken_links=tuple(broken),
    )
    if progress is not None:
        progress("planned")
    if dry_run:
        return report
    commit, name = _write(folder, snap, safe, review, started, progress)
    _remember_run(folder, state, report, commit, name, safe)
    return report.model_copy(update={"commit": commit, "review": name})


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the dream: it allocates tens of
    thousands of small objects (a fact per entry, its tuples and strings), which would
    set off collections that each walk every object of the process; none of them form
    cycles, so reference counting frees them all the same."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _plan(
    folder: MemoryFolder,
    snap: Snapshot,
    model: DreamModel,
    notes: tuple[RecentNote, ...],
    renames: Renames,
) -> tuple[list[Op], list[BrokenLink]]:
    claimed: set[tuple[str, int]] = set()
    ops = find_expired(snap, claimed)
    ops += find_exact(snap, claimed)
    ops += find_near(snap, claimed)
    ops += find_contradictions(snap, claimed)
    link_ops, broken, moved = find_broken_links(snap, claimed, renames)
    ops += link_ops
    ops += find_unlisted(snap, moved)
    ops += find_overflow(snap, claimed)
    ops = [op for op in ops if _no_secret(op)]
    if isinstance(model, OfflineModel):
        return [classify(op, snap) for op in ops], broken  # nothing to show a model
    answer = model.propose(request_for(snap, notes))
    if not isinstance(answer, ModelAnswer):
        raise DreamModelError(f"model {model.name!r} did not return a ModelAnswer")
    ops += ops_from_answer(answer, snap, folder.root, claimed)
    return [classify(op, snap) for op in ops], broken


def _no_secret(op: Op) -> bool:
    """A deterministic op never rewrites a line holding a secret (lint reports it)."""
    if not op.text:
        return True
    try:
        check_text(op.text, "a dream change")
    except DreamError:
        return False
    return True


def _write(
    folder: MemoryFolder,
    snap: Snapshot,
    safe: list[Op],
    review: list[Op],
    started: datetime,
    progress: Progress | None,
) -> tuple[str | None, str | None]:
    """The review branch, then the safe commit (the branch goes again if that fails).

    Both commits are worked out first, so that every object they add (blobs, trees and
    the two commits) is saved in one pack; then only refs move and the worktree changes.
    """
    name = branches.next_review_name(folder, started.date()) if review else None
    review_commit = (
        (apply_ops(snap.files.get, review), review_message(review, name)) if name else None
    )
    safe_commit = None
    if safe:
        message = ops_message(
            f"Dream: {len(safe)} safe change{'s' if len(safe) != 1 else ''}", safe, by="dream"
        )
        safe_commit = (apply_ops(snap.files.get, safe), message)
    commits = branches.prepare_dream(folder, snap.commit, review_commit, safe_commit)
    if name is not None and commits.review is not None:
        if progress is not None:
            progress("writing")
        branches.create_review_branch(folder, name, commits.review)
    try:
        if commits.main is None:
            return None, name
        if progress is not None:
            progress("writing")
        return branches.publish_on_main(folder, commits.main), name
    except BaseException:
        if name is not None:
            branches.delete_review_branch(folder, name)
        raise


def _remember_run(
    folder: MemoryFolder,
    state: DreamState,
    report: DreamReport,
    commit: str | None,
    review: str | None,
    safe: list[Op],
) -> None:
    if commit is not None:
        state.commits[commit] = [op.fingerprint for op in safe]
    state.last = LastDream(at=report.started_at, counts=report.counts, commit=commit, review=review)
    save_state(folder.state_dir, state)


def items_curator(state_dir: Path, items: Callable[[], ItemWriter]) -> Curator | None:
    """Commitment expiry over memory_items, or None when the store was never created (a
    dream must not create one just to find it empty)."""
    if not default_path(state_dir).exists():
        return None

    def run(notes: Sequence[RecentNote], when: datetime) -> CurationReport:
        return expire_commitments(items(), NotesEvidence(notes, when), when)

    return run
