"""Every proposed operation is screened, then classified safe or review.

Screening: paths stay inside the root as markdown files (never `.git/`, never a swarm
folder), new text passes the same hygiene screen as any write, nothing carries a secret,
entries exist, and no entry is touched twice. A model answer failing any of this is
rejected whole with DreamModelError; nothing of it is applied.

Classification (issue #8): safe = merging exact duplicates, dropping an agent's expired
entry, linking an unlisted file, fixing a link by rename detection, a model adding an
entry; and never touching a line a person wrote (`by: user`, or no `by` at all). All the
rest goes to review: removing or rewriting a person's entry, resolving a contradiction,
near-duplicate merges, moving entries between files, and any model proposal that changes
existing entries or states low confidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from memrepo import hygiene
from memrepo.dreaming.model import LOW_CONFIDENCE, ModelAnswer, ModelOp
from memrepo.dreaming.ops import make_op, merged_line
from memrepo.dreaming.snapshot import ENTRY_POINT, SWARM_PREFIX, Fact, Snapshot
from memrepo.errors import DreamModelError, PathOutsideRoot
from memrepo.folder.paths import normalize_target
from memrepo.formats import format_entry, split_metadata
from memrepo.models.dream import Op

_SAFE = {
    ("merge", "duplicates"),
    ("remove", "expiry"),
    ("link", "unlisted"),
    ("rewrite", "links"),
    ("add", "model"),
}


def classify(op: Op, snap: Snapshot) -> Op:
    """The op with `review` and `why_review` set."""
    why = _why_review(op, snap)
    if why is None and not op.review and op.why_review is None:
        return op  # already classified safe, as every op is built: ops are frozen
    return op.model_copy(update={"review": why is not None, "why_review": why})


def _why_review(op: Op, snap: Snapshot) -> str | None:
    facts = _target_facts(op, snap)
    if any(f.by == "user" for f in facts):
        return "it changes an entry a person wrote"
    if op.confidence is not None and op.confidence < LOW_CONFIDENCE:
        return f"the model's confidence {op.confidence:.2f} is below {LOW_CONFIDENCE}"
    if (op.kind, op.found_by) in _SAFE:
        return None
    reasons = {
        "subjects": "it resolves a contradiction",
        "near_duplicates": "the lines are worded differently",
        "overflow": "it moves an entry to another file",
    }
    return reasons.get(op.found_by, "a model proposal that changes existing entries")


def _target_facts(op: Op, snap: Snapshot) -> list[Fact]:
    found = [(snap.by_key.get((t.path, t.line)), t) for t in op.targets]
    return [f for f, t in found if f is not None and f.raw == t.raw]


def check_text(text: str, what: str) -> None:
    """DreamModelError when text carries a secret (nothing secret is ever written)."""
    if hygiene.find_secrets(text):
        raise DreamModelError(f"{what} contains a secret; the whole answer was rejected")


def check_path(root: Path, path: str, what: str) -> str:
    """The normalized path, or DreamModelError for anything outside the memory files."""
    try:
        safe = normalize_target(root, path)
    except PathOutsideRoot as exc:
        raise DreamModelError(f"{what}: {exc}; the whole answer was rejected") from exc
    if safe.startswith(SWARM_PREFIX):
        raise DreamModelError(f"{what}: swarm folders are never dreamed over ({safe})")
    return safe


def ops_from_answer(
    answer: ModelAnswer, snap: Snapshot, root: Path, claimed: set[tuple[str, int]]
) -> list[Op]:
    """The answer as screened operations; DreamModelError rejects all of it.

    Operations on entries a deterministic pass already handles are dropped (the pass's
    rule wins); the model cannot touch one entry twice.
    """
    used: set[str] = set()
    ops: list[Op] = []
    for n, proposal in enumerate(answer.ops, start=1):
        what = f"operation {n} ({proposal.op})"
        facts = _entries(proposal, snap, what)
        for fact in facts:
            if fact.handle in used:
                raise DreamModelError(
                    f"{what} touches {fact.handle} again; two operations on one entry "
                    "conflict, the whole answer was rejected"
                )
            used.add(fact.handle)
        for value in (proposal.text or "", proposal.reason, *proposal.sources):
            check_text(value, what)
        op = _translate(proposal, facts, snap, root, what)
        if not any(f.key in claimed for f in facts):
            ops.append(op)
    return ops


def _entries(proposal: ModelOp, snap: Snapshot, what: str) -> list[Fact]:
    facts: list[Fact] = []
    for handle in proposal.entries:
        fact = snap.find(handle)
        if fact is None:
            raise DreamModelError(
                f"{what} refers to entry {handle!r}, which does not exist; "
                "the whole answer was rejected"
            )
        facts.append(fact)
    needed = {"add": 0, "remove": 1, "merge": 2, "rewrite": 1, "move": 1}[proposal.op]
    if proposal.op == "remove" and not facts:
        target = proposal.path or ENTRY_POINT
        name = "the Index (MEMORY.md)" if target == ENTRY_POINT else target
        raise DreamModelError(f"{what} would delete {name}; dreams never delete files")
    if len(facts) < needed or (proposal.op == "rewrite" and len(facts) != 1):
        raise DreamModelError(f"{what} names {len(facts)} entries; it needs {needed}")
    if proposal.op == "add" and facts:
        raise DreamModelError(f"{what}: an add names no existing entries")
    return facts


def _translate(
    proposal: ModelOp, facts: Sequence[Fact], snap: Snapshot, root: Path, what: str
) -> Op:
    path = facts[0].path if facts else check_path(root, proposal.path or "", what)
    text: str | None = None
    dest: str | None = None
    if proposal.op == "add":
        text = format_entry(_screened(proposal.text, what), _added_metadata(proposal, snap))
    elif proposal.op == "move":
        dest = check_path(root, proposal.to or "", what)
        if any(f.path == dest for f in facts):
            raise DreamModelError(f"{what} moves an entry into the file it is already in")
    elif proposal.op == "merge":
        text = merged_line(facts[0], facts[1:])
        if proposal.text is not None:
            text = _with_text(text, _screened(proposal.text, what))
    elif proposal.op == "rewrite":
        text = _with_text(facts[0].raw, _screened(proposal.text, what))
    return make_op(
        proposal.op,
        "model",
        path,
        proposal.reason,
        targets=facts,
        text=text,
        dest=dest,
        sources=proposal.sources,
        confidence=proposal.confidence,
    )


def _screened(text: str | None, what: str) -> str:
    screened = hygiene.screen(text or "")
    if screened.text is None:
        raise DreamModelError(f"{what}: text rejected by the screen ({screened.skip_reason})")
    if screened.redacted:
        raise DreamModelError(f"{what} contains a secret; the whole answer was rejected")
    return screened.text


def _with_text(raw: str, text: str) -> str:
    body = raw.lstrip(" ")[1:] if raw.lstrip(" ")[:1] in "-*+" else raw
    _old, metadata = split_metadata(body)
    return format_entry(text, metadata or {"origin": "dream"})


def _added_metadata(proposal: ModelOp, snap: Snapshot) -> dict[str, str]:
    meta: dict[str, str] = {}
    sources = [s.strip() for s in proposal.sources if s.strip()]
    if len(sources) == 1:
        meta["source"] = sources[0]
    elif sources:
        meta["sources"] = ", ".join(sources)
    meta.update({"added": snap.today.isoformat(), "by": "dream", "origin": "dream"})
    return meta
