"""Steps 4-6 of the write pipeline (reference §3): edit, dedupe, supersede, persist.

Runs inside the writer's transaction. Every trust check happens before the first write,
so an `outranked` verdict leaves the database as it was. Rows a new row replaces are set
to `superseded` before it is inserted: the unique partial indexes only allow one active
row per content hash and per subject, at every statement.

Taint (a candidate written after the producer read untrusted content) follows what the
tainted statement contributed, and never reaches a clean row it does not outrank:

- A tainted candidate never supersedes, edits or archives a clean row of equal or higher
  trust: that is `outranked`. A page the agent read must not overwrite what a clean
  statement of the same standing said. With strictly higher trust it may (the new row is
  tainted, so it is flagged wherever it shows).
- A tainted restatement of a clean row's content changes nothing: no count, trust,
  confidence, pin, expiry, subject or source link. The content is already known from a
  clean statement; letting the echo raise it would launder the tainted claim through the
  clean row, and marking the row tainted would let any page smear the user's facts.
- A restatement of a tainted row keeps it tainted (and may raise it as usual: the row is
  flagged wherever it shows), unless the restatement is clean and an explicit act of the
  user (user_stated, user_confirmed, curated): the user vouched for it, so the taint clears.

Provenance follows the newest statement (reference §3, §5 "so a new due date is kept"):
an edit of the same record with unchanged text, and a restatement of equal or higher
trust, set the row's expiry to theirs (none renews it) and replace its single-valued
source_ref aliases (`SINGLE_VALUED_STORES`: the due date); their refs join as aliases.
A weaker echo adds its refs but leaves the expiry and the due date alone.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memrepo.items._tx import ScopeKey, Tx
from memrepo.items.vocab import (
    LINK_STORES,
    SINGLE_VALUED_STORES,
    outranks,
    trust_rank,
)
from memrepo.models.items import (
    EXPLICIT_SOURCES,
    ItemAction,
    ItemCandidate,
    MemoryItem,
    Privacy,
    SourceRef,
    SourceRefAlias,
)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A candidate that passed screening and policy, with everything derived from it."""

    candidate: ItemCandidate
    content: str
    content_hash: str
    subject_key: str
    named: bool
    privacy: Privacy
    task_id: str | None
    key: ScopeKey
    now: datetime


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the transaction did; `action is None` means outranked by `holder_id`."""

    action: ItemAction | None
    item: MemoryItem | None = None
    superseded_ids: tuple[str, ...] = ()
    holder_id: str | None = None


def new_id() -> str:
    """A random id (the `<id>` of a `memory:<id>` ref)."""
    return uuid.uuid4().hex


def resolve(tx: Tx, p: Prepared) -> Outcome:
    """Decide and write: updated, reinforced, superseded, inserted, or outranked."""
    c = p.candidate
    target = _edit_target(tx, p)
    if c.status == "archived":
        return _archive(tx, p, target)
    if target is not None:
        return _edit(tx, p, target)
    duplicate = tx.active_by_hash(p.key, c.kind, p.content_hash)
    if duplicate is not None:
        return _reinforce(tx, p, duplicate)
    return _place(tx, p, p.subject_key, None)


def resolve_revision(tx: Tx, p: Prepared, target: MemoryItem) -> Outcome:
    """A person's new text for `target` (`ItemWriter.revise`): the edit step, as if the
    candidate had named that record by its source ref."""
    return _edit(tx, p, target)


def _edit_target(tx: Tx, p: Prepared) -> MemoryItem | None:
    """The active row this candidate edits: live mode, same `{store, id}` or alias. A
    link (`LINK_STORES`) names a page many facts came from, not a record: never an edit."""
    ref = p.candidate.source_ref
    if p.candidate.mode != "live" or ref is None or ref.store in LINK_STORES:
        return None
    found = tx.by_source_ref(ref.store, ref.id, active=True)
    return found[0] if found else None


def _same_record(p: Prepared, row: MemoryItem) -> bool:
    return (
        row.content_hash == p.content_hash
        and row.kind == p.candidate.kind
        and ScopeKey(row.workspace_id, row.scope, row.scope_ref) == p.key
    )


def tainted_echo(row: MemoryItem, p: Prepared) -> bool:
    """True when a tainted candidate meets a clean row: it may not change it at all."""
    return p.candidate.tainted and not row.tainted


def _taint_blocked(row: MemoryItem, p: Prepared) -> bool:
    """A tainted candidate may not replace or close a clean row of equal or higher trust."""
    return tainted_echo(row, p) and trust_rank(row.source) >= trust_rank(p.candidate.source)


def _blocked(holder: MemoryItem, p: Prepared) -> bool:
    """True when the candidate may not replace `holder` (lower trust, or the taint rule)."""
    return outranks(holder.source, p.candidate.source) or _taint_blocked(holder, p)


def merged_taint(row: MemoryItem, candidate: ItemCandidate) -> bool:
    """The taint of `row` restated by `candidate` (see the module docstring)."""
    if candidate.tainted:
        return True
    return row.tainted and candidate.source not in EXPLICIT_SOURCES


def _edit(tx: Tx, p: Prepared, target: MemoryItem) -> Outcome:
    """An edit of a known record: unchanged -> updated; changed -> supersede it."""
    c = p.candidate
    if _same_record(p, target):
        if tainted_echo(target, p):
            return Outcome("updated", target)
        item = target.model_copy(
            update={
                "confidence": c.confidence,
                "pinned": c.pinned,
                "tainted": merged_taint(target, c),
                "source_ref": merge_ref(target.source_ref, c.source_ref, newest=True),
                "expires_at": c.expires_at,
                "updated_at": p.now,
            }
        )
        tx.update(item)
        return Outcome("updated", item)
    if _blocked(target, p):
        return Outcome(None, holder_id=target.id)
    subject = p.subject_key
    if not p.named and not target.derived_subject:
        subject = target.subject_key  # an edit keeps the record's named subject
    duplicate = tx.active_by_hash(p.key, c.kind, p.content_hash)
    if duplicate is not None and duplicate.id != target.id:
        # The new value is already stored as another row: close the edited record and
        # reinforce that row (which now answers to this source ref as an alias).
        tx.set_status([target.id], "superseded", p.now)
        return _reinforce(tx, p, duplicate, (target.id,))
    return _place(tx, p, subject, target)


def _place(tx: Tx, p: Prepared, subject: str, edited: MemoryItem | None) -> Outcome:
    """Insert a new row, superseding the edited record and/or the subject's holder."""
    displaced = [] if edited is None else [edited]
    holder = tx.active_by_subject(p.key, subject)
    if holder is not None and (edited is None or holder.id != edited.id):
        if _blocked(holder, p):
            return Outcome(None, holder_id=holder.id)
        displaced.append(holder)
    ids = tuple(row.id for row in displaced)
    tx.set_status(ids, "superseded", p.now)
    item = _new_item(p, subject, ids[0] if ids else None)
    tx.insert(item)
    return Outcome("superseded" if ids else "inserted", item, ids)


def _reinforce(tx: Tx, p: Prepared, row: MemoryItem, superseded: tuple[str, ...] = ()) -> Outcome:
    """The same content again: count it, keep the strongest trust, pin and privacy.

    A tainted echo of a clean row leaves the row as it was (the module docstring says why).
    """
    c = p.candidate
    if tainted_echo(row, p):
        return Outcome("reinforced", row, superseded)
    newest = trust_rank(c.source) >= trust_rank(row.source)
    update: dict[str, Any] = {
        "reinforced_count": row.reinforced_count + 1,
        "confidence": max(row.confidence, c.confidence),
        "pinned": row.pinned or c.pinned,
        "source": c.source if trust_rank(c.source) > trust_rank(row.source) else row.source,
        "source_ref": merge_ref(row.source_ref, c.source_ref, newest=newest),
        "privacy": "private" if "private" in (row.privacy, p.privacy) else "normal",
        "expires_at": c.expires_at if newest else row.expires_at,
        "tainted": merged_taint(row, c),
        "updated_at": p.now,
    }
    if p.named and row.derived_subject:
        holder = tx.active_by_subject(p.key, p.subject_key)
        if holder is None:
            update["subject_key"] = p.subject_key
        elif not _blocked(holder, p):
            # Adopt the named subject: the holder's value is replaced by this content.
            tx.set_status([holder.id], "superseded", p.now)
            update["subject_key"] = p.subject_key
            update["supersedes_id"] = row.supersedes_id or holder.id
            superseded = (*superseded, holder.id)
    item = row.model_copy(update=update)
    tx.update(item)
    return Outcome("reinforced", item, superseded)


def _archive(tx: Tx, p: Prepared, target: MemoryItem | None) -> Outcome:
    """A closed record (a done commitment): close the matching active row, or store it."""
    if target is None or not _same_record(p, target):
        target = tx.active_by_hash(p.key, p.candidate.kind, p.content_hash)
    if target is not None and _taint_blocked(target, p):
        return Outcome(None, holder_id=target.id)
    if target is not None:
        item = target.model_copy(update={"status": "archived", "updated_at": p.now})
        tx.update(item)
        return Outcome("updated", item)
    item = _new_item(p, p.subject_key, None)
    tx.insert(item)
    return Outcome("inserted", item)


def merge_ref(
    existing: SourceRef | None, incoming: SourceRef | None, *, newest: bool = False
) -> SourceRef | None:
    """`existing` with `incoming` (and its aliases) kept as aliases, without repeats.

    With `newest` (the incoming statement's provenance wins), an incoming value of a
    single-valued store (a due date) replaces the existing one; otherwise the existing
    one is kept and the incoming one dropped, so a record never has two due dates.
    """
    if incoming is None:
        return existing
    if existing is None:
        return incoming
    keys = [(incoming.store, incoming.id)] + [(a.store, a.id) for a in incoming.aliases]
    single = {store for store, _ in keys if store in SINGLE_VALUED_STORES}
    aliases = list(existing.aliases)
    if newest:
        aliases = [a for a in aliases if a.store not in single]
    else:
        held = {a.store for a in aliases} | {existing.store}
        keys = [(s, i) for s, i in keys if s not in SINGLE_VALUED_STORES or s not in held]
    for store, ref_id in keys:
        if not existing.matches(store, ref_id) and all(
            (a.store, a.id) != (store, ref_id) for a in aliases
        ):
            aliases.append(SourceRefAlias(store=store, id=ref_id))
    return existing.model_copy(update={"aliases": tuple(aliases)})


def _new_item(p: Prepared, subject: str, supersedes_id: str | None) -> MemoryItem:
    c = p.candidate
    created = c.created_at if c.mode == "migration" and c.created_at is not None else p.now
    return MemoryItem(
        id=new_id(),
        workspace_id=c.workspace_id,
        scope=c.scope,
        scope_ref=c.scope_ref,
        kind=c.kind,
        subject_key=subject,
        content=p.content,
        content_hash=p.content_hash,
        source=c.source,
        source_ref=c.source_ref,
        confidence=c.confidence,
        pinned=c.pinned,
        privacy=p.privacy,
        task_id=p.task_id,
        status=c.status,
        supersedes_id=supersedes_id,
        reinforced_count=0,
        created_at=created,
        updated_at=p.now,
        expires_at=c.expires_at,
        tainted=c.tainted,
    )
