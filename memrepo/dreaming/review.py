"""Review branches: list, show (a per-entry diff with reasons), accept, reject.

A review branch holds one commit on top of the main commit the dream planned against.
Its message lists the operations for people and, one JSON line each (`op: {...}`), for
memrepo; accepting re-applies the chosen operations to today's main as one commit, so
unrelated work on main since the dream is no obstacle, while a changed or vanished line
is (ReviewConflict: reject and dream again). Operations a person neither accepted nor
rejected stay pending (issue #31): the branch is written again as one commit on top of
the new main holding only them, so `git diff main dream/...` shows what is left to
decide. Every rejected fingerprint is remembered so it is never proposed again, and a
rejected merge of exact duplicates is remembered by its lines too, so `health` stops
suggesting a dream for them (`DreamStatus.declined_duplicates`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from memrepo.dreaming.apply import apply_ops
from memrepo.dreaming.state import load_state, save_state
from memrepo.errors import DreamError, InvalidArgument, ReviewConflict
from memrepo.folder import branches
from memrepo.folder.repo import MemoryFolder
from memrepo.formats import normalize_text
from memrepo.formats.metadata import split_group
from memrepo.formats.text import shorten
from memrepo.models.dream import (
    AcceptResult,
    DreamStatus,
    LineRef,
    Op,
    RejectResult,
    ReviewDetail,
    ReviewSummary,
)

_OP_LINE = "op: "
_REASON_CHARS = 240


def ops_message(
    summary: str, ops: Sequence[Op], *, by: str, data: str | None = None, review: str | None = None
) -> str:
    """A dream commit's message for `ops` (a dream's safe commit, a review, an accept):
    one readable line per operation, then `data` when given, with the operations' passes
    and fingerprints as trailers, which undo and the next dream read back."""
    body = summary_lines(ops) if data is None else summary_lines(ops) + "\n\n" + data
    return branches.dream_message(
        summary,
        by=by,
        body=body,
        passes=[op.found_by for op in ops],
        fingerprints=[op.fingerprint for op in ops],
        review=review,
    )


def review_message(ops: Sequence[Op], name: str) -> str:
    """The review commit's message: summary lines, then one JSON line per operation."""
    return ops_message(
        f"Dream review: {len(ops)} change{'s' if len(ops) != 1 else ''} to look at",
        ops,
        by="dream",
        data="\n".join(_OP_LINE + op.model_dump_json() for op in ops),
        review=name,
    )


def summary_lines(ops: Sequence[Op]) -> str:
    """One readable line per operation, numbered from 1."""
    lines = []
    for n, op in enumerate(ops, start=1):
        reason = shorten(op.reason, _REASON_CHARS)
        lines.append(f"- [{n}] {op.kind} ({op.found_by}) {op.path}: {reason}")
    return "\n".join(lines)


def ops_of(branch: branches.ReviewBranch) -> list[Op]:
    """The operations stored in a review commit's message."""
    ops: list[Op] = []
    for line in branch.message.splitlines():
        if not line.startswith(_OP_LINE):
            continue
        try:
            ops.append(Op.model_validate_json(line[len(_OP_LINE) :]))
        except ValidationError as exc:
            raise DreamError(
                f"{branch.name}: an operation in the review commit cannot be read ({exc}); "
                f"reject it with `memrepo review reject {branch.name}` and dream again"
            ) from exc
    return ops


def open_fingerprints(folder: MemoryFolder) -> set[str]:
    """Fingerprints waiting in open review branches (not proposed a second time)."""
    found: set[str] = set()
    for branch in branches.list_review_branches(folder):
        found.update(branches.fingerprints_of(branch.message))
    return found


def list_reviews(folder: MemoryFolder) -> list[ReviewSummary]:
    """Every open review branch, oldest first."""
    return [_summary(folder, b) for b in branches.list_review_branches(folder)]


def show_review(folder: MemoryFolder, name: str) -> ReviewDetail:
    """A review's operations and a readable per-entry diff with the reasons."""
    branch = branches.get_review_branch(folder, name)
    ops = ops_of(branch)
    return ReviewDetail(
        summary=_summary(folder, branch),
        ops=tuple(ops),
        diff=render_diff(ops),
        op_lines=tuple(tuple(op_diff_lines(op)) for op in ops),
    )


def render_diff(ops: Sequence[Op]) -> str:
    """Per operation: what it does and why, then its diff lines (`op_diff_lines`)."""
    out: list[str] = []
    for n, op in enumerate(ops, start=1):
        out.append(f"[{n}] {op.kind} ({op.found_by}) {op.fingerprint}")
        out.append(f"    why: {op.reason}")
        if op.why_review:
            out.append(f"    review because {op.why_review}")
        out.extend(f"  {line}" for line in op_diff_lines(op))
        out.append("")
    return "\n".join(out)


def op_diff_lines(op: Op) -> list[str]:
    """One operation as a person reads a diff: `-` lines removed, `+` lines written and
    `=` a line kept as it is (a merge keeping one copy unchanged draws it once, never as
    removed and re-added). The CLI and the Hub draw these same lines."""
    out: list[str] = []
    kept = _kept_unchanged(op)
    for ref in op.targets:
        line = f"{ref.path}:{ref.line + 1}  {ref.raw.strip()}"
        out.append(f"= {line}  (kept as it is)" if ref is kept else f"- {line}")
    if op.kind == "move" and op.dest:
        out.extend(f"+ {op.dest}  {ref.raw.strip()}" for ref in op.targets)
    elif op.kind == "link" and op.dest:
        out.append(f"+ {op.path}  - [[{op.dest.removesuffix('.md')}]]")
    elif op.text is not None and kept is None:
        out.append(f"+ {op.path}  {op.text.strip()}")
    return out


def _kept_unchanged(op: Op) -> LineRef | None:
    """The line a merge or rewrite writes back exactly as it was (its first target, where
    the new line goes), or None when the operation changes it."""
    if op.kind not in ("merge", "rewrite") or op.text is None or not op.targets:
        return None
    first = op.targets[0]
    return first if first.raw.strip() == op.text.strip() else None


def _bullet_body(raw: str) -> str:
    """A line as an operation's `text` spells it: without indent and bullet."""
    body = raw.strip()
    return body[1:].strip() if body[:1] in "-*+" else body


def accept_review(
    folder: MemoryFolder, name: str, ops: Sequence[int | str] | None = None
) -> AcceptResult:
    """Apply all (or the chosen) operations to main as one commit; the others stay
    pending on the review branch, written again on top of the new main."""
    with folder.lock:
        branch = branches.get_review_branch(folder, name)
        stored = ops_of(branch)
        chosen = _select(stored, ops)
        if not branches.on_main(folder, branch.base):
            raise ReviewConflict(
                f"{name}: the main commit it was made from ({branch.base[:10]}) is no longer "
                f"in main's history; reject it (`memrepo review reject {name}`) and dream again"
            )
        head = branches.begin_dream(folder)
        changes = apply_ops(lambda path: branches.read_at(folder, head, path), chosen)
        commit = None
        if changes:
            message = ops_message(
                f"Accept dream review {name}: {len(chosen)} change(s)",
                chosen,
                by="user",
                review=name,
            )
            commit = branches.commit_on_main(folder, changes, message, head)
        state = load_state(folder.state_dir)
        if commit is not None:
            state.commits[commit] = [op.fingerprint for op in chosen]
            save_state(folder.state_dir, state)
        pending = _keep_pending(folder, name, [op for op in stored if op not in chosen])
    return AcceptResult(
        name=name,
        commit=commit,
        accepted=tuple(op.fingerprint for op in chosen),
        pending=tuple(op.fingerprint for op in pending),
    )


def _keep_pending(folder: MemoryFolder, name: str, left: list[Op]) -> list[Op]:
    """Write the review branch again with only `left`, on top of today's main; an
    operation that no longer applies there (a line the accepted ones changed) waits no
    more, and is not rejected either: a later dream proposes it again if it still holds.
    No operation left: the branch goes. Caller holds the write lock."""
    head = branches.main_id(folder)
    still: list[Op] = []
    for op in left:
        try:
            apply_ops(lambda path: branches.read_at(folder, head, path), [*still, op])
        except ReviewConflict:
            continue
        still.append(op)
    branches.delete_review_branch(folder, name)
    if still:
        changes = apply_ops(lambda path: branches.read_at(folder, head, path), still)
        commits = branches.prepare_dream(folder, head, (changes, review_message(still, name)), None)
        assert commits.review is not None
        branches.create_review_branch(folder, name, commits.review)
    return still


def reject_ops(folder: MemoryFolder, name: str, ops: Sequence[int | str]) -> RejectResult:
    """Reject the chosen operations of a review (never proposed again); the others stay
    pending on the branch."""
    with folder.lock:
        branch = branches.get_review_branch(folder, name)
        stored = ops_of(branch)
        chosen = _select(stored, ops)
        _remember_rejected(folder, chosen)
        if not branches.on_main(folder, branch.base):
            branches.delete_review_branch(folder, name)
            left: list[Op] = []
        else:
            left = _keep_pending(folder, name, [op for op in stored if op not in chosen])
    return RejectResult(
        name=name,
        rejected=tuple(op.fingerprint for op in chosen),
        pending=tuple(op.fingerprint for op in left),
    )


def _remember_rejected(folder: MemoryFolder, ops: Sequence[Op]) -> None:
    state = load_state(folder.state_dir)
    state.reject([op.fingerprint for op in ops])
    for op in ops:
        lines = duplicate_lines(op)
        if lines is not None and lines not in state.declined_duplicates:
            state.declined_duplicates.append(lines)
    save_state(folder.state_dir, state)


def duplicate_lines(op: Op) -> list[str] | None:
    """A merge of exact duplicates as `health` counts them: "path\x00normalized text" of
    each line, sorted; None for any other operation."""
    if op.kind != "merge" or len(op.targets) < 2:
        return None
    if len({_line_norm(ref.raw) for ref in op.targets}) != 1:
        return None
    return sorted(f"{ref.path}\x00{_line_norm(ref.raw)}" for ref in op.targets)


def _line_norm(raw: str) -> str:
    return normalize_text(split_group(_bullet_body(raw))[0])


def reject_review(
    folder: MemoryFolder, name: str, ops: Sequence[int | str] | None = None
) -> RejectResult:
    """Delete the branch and remember its fingerprints: never proposed again. With `ops`,
    only those are rejected and the others stay pending (`reject_ops`)."""
    if ops:
        return reject_ops(folder, name, ops)
    with folder.lock:
        branch = branches.get_review_branch(folder, name)
        stored = ops_of(branch)
        _remember_rejected(folder, stored)
        branches.delete_review_branch(folder, name)
    return RejectResult(name=name, rejected=tuple(op.fingerprint for op in stored))


def last_dream(folder: MemoryFolder) -> DreamStatus:
    """The last dream and the reviews still open (for health)."""
    state = load_state(folder.state_dir)
    pending = tuple(b.name for b in branches.list_review_branches(folder))
    declined = tuple(tuple(lines) for lines in state.declined_duplicates)
    if state.last is None:
        return DreamStatus(pending_reviews=pending, declined_duplicates=declined)
    return DreamStatus(
        declined_duplicates=declined,
        last_at=state.last.at,
        counts=state.last.counts,
        commit=state.last.commit,
        review=state.last.review,
        pending_reviews=pending,
    )


def _select(stored: Sequence[Op], wanted: Sequence[int | str] | None) -> list[Op]:
    if wanted is None:
        return list(stored)
    chosen: list[Op] = []
    for key in wanted:
        op = _find(stored, key)
        if op not in chosen:
            chosen.append(op)
    return [op for op in stored if op in chosen]  # the review's order


def _find(stored: Sequence[Op], key: int | str) -> Op:
    text = str(key).strip()
    if text.isdigit() and 1 <= int(text) <= len(stored):
        return stored[int(text) - 1]
    for op in stored:
        if op.fingerprint == text:
            return op
    raise InvalidArgument(
        f"{key!r} is not an operation of this review; use its number (1-{len(stored)}) "
        "or fingerprint from `memrepo review show`"
    )


def _summary(folder: MemoryFolder, branch: branches.ReviewBranch) -> ReviewSummary:
    ops = ops_of(branch)
    return ReviewSummary(
        name=branch.name,
        commit=branch.commit,
        base=branch.base,
        base_on_main=branches.on_main(folder, branch.base),
        created_at=branch.time,
        ops=len(ops),
        passes=tuple(sorted({op.found_by for op in ops})),
    )
