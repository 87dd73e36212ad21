"""Status changes (reference §3): delete every revision, archive or supersede the current;
a person's confirmation of an item (`confirm`) and pin (`set_pinned`).

`deleted` is a tombstone: content, hash and subject are scrubbed at once (so the text is
gone from reads and search immediately) and the row is dropped by the next retention
run. Reactivation is never a status change: a value comes back only through `ingest`,
which runs the dedupe and trust rules.
"""

from __future__ import annotations

from datetime import date, datetime

from memrepo.errors import EntryNotFound, InvalidArgument
from memrepo.items._rows import to_ms
from memrepo.items._tx import Tx
from memrepo.items.due import DUE_STORE, commitment_id
from memrepo.items.vocab import LINK_STORES, trust_rank
from memrepo.layout import ITEM_REF_PREFIX
from memrepo.models.items import Source, SourceRef, SourceRefAlias, Status

CONFIRMED: Source = "user_confirmed"

_SETTABLE = ("archived", "superseded", "deleted")
_SNAPSHOT = (
    "json_set({col}, '$.content', '', '$.content_hash', 'deleted:' || ?, "
    "'$.subject_key', 'deleted:' || ?)"
)
_SCRUB_LOG = (
    "UPDATE memory_curation_log SET reason = 'the item was forgotten', "
    f"before = {_SNAPSHOT.format(col='before')}, after = {_SNAPSHOT.format(col='after')} "
    "WHERE item_id = ?"
)


def check_status(status: str) -> Status:
    """The status, or `InvalidArgument` (reactivation goes through ingest)."""
    if status == "active":
        raise InvalidArgument("an item is reactivated by ingesting it again, not by set_status")
    if status not in _SETTABLE:
        raise InvalidArgument(f"unknown status {status!r}; allowed: {', '.join(_SETTABLE)}")
    return status  # type: ignore[return-value]


def apply_status(tx: Tx, item_ids: list[str], status: Status, now: datetime) -> list[str]:
    """Set `status` on the records of `item_ids`; returns the ids that changed.

    deleted: every revision of each record. archived/superseded: the active revision of
    each record (a record with no active revision is left alone).
    """
    changed: list[str] = []
    seen: set[str] = set()
    for item_id in item_ids:
        if item_id in seen:
            continue
        chain = tx.chain_ids(item_id)
        seen.update(chain)
        if status == "deleted":
            targets = [
                i for i in chain if (row := tx.get(i)) is not None and row.status != "deleted"
            ]
            _scrub(tx, targets, now)
        else:
            marks = ",".join("?" for _ in chain)
            active = tx.items(f"WHERE id IN ({marks}) AND status = 'active'", chain)
            targets = [row.id for row in active]
            tx.set_status(targets, status, now)
        changed.extend(targets)
    return changed


def set_status(tx: Tx, item_id: str, status: str, now: datetime) -> list[str]:
    """`apply_status` for one id; `EntryNotFound` when there is no such item."""
    checked = check_status(status)
    if tx.get(item_id) is None:
        raise EntryNotFound(f"memory:{item_id}")
    return apply_status(tx, [item_id], checked, now)


def set_status_by_source_ref(
    tx: Tx, store: str, ref_id: str, status: str, now: datetime
) -> list[str]:
    """`apply_status` for every item answering to `store:ref_id` (none is no error).
    A link store names a page, not a record (`LINK_STORES`): refused, since it would
    reach every fact read from that page."""
    checked = check_status(status)
    if store in LINK_STORES:
        raise InvalidArgument(f"{store}:{ref_id} is a source link, not a record; use the item id")
    matches = [row.id for row in tx.by_source_ref(store, ref_id, active=False)]
    return apply_status(tx, matches, checked, now)


def _scrub(tx: Tx, item_ids: list[str], now: datetime) -> None:
    """Tombstone the rows, and scrub the curation log rows that quote them (their before
    and after snapshots and their reason hold the text, the evidence quotes it): a
    forgotten fact leaves no copy behind until retention (reference §5b). The log rows
    stay, scrubbed, so an undo of them is still refused as "changed since"."""
    tx.conn.executemany(_SCRUB_LOG, [(item_id,) * 5 for item_id in item_ids])
    tx.conn.executemany(
        "UPDATE memory_items SET status = 'deleted', content = '', "
        "content_hash = 'deleted:' || id, subject_key = 'deleted:' || id, pinned = 0, "
        "updated_at = ? WHERE id = ?",
        [(to_ms(now), item_id) for item_id in item_ids],
    )
    tx.conn.executemany(
        "DELETE FROM memory_usage WHERE ref = ?", [(ITEM_REF_PREFIX + i,) for i in item_ids]
    )


def confirm(tx: Tx, item_id: str, now: datetime) -> list[str]:
    """A person vouches for the active item `item_id`: its trust becomes at least
    `user_confirmed` and its taint clears, so what the agent saved on its own may now
    stand in every prompt (reference §4a: L1 only "until the user pins, states or
    confirms them"). Returns the id when it changed, [] when it was already the user's
    clean word; EntryNotFound when there is no such active item."""
    row = tx.get(item_id)
    if row is None or row.status != "active":
        raise EntryNotFound(f"memory:{item_id}", "no such active memory item")
    stronger = trust_rank(row.source) >= trust_rank(CONFIRMED)
    if stronger and not row.tainted:
        return []
    source = row.source if stronger else CONFIRMED
    tx.update(row.model_copy(update={"source": source, "tainted": False, "updated_at": now}))
    return [item_id]


def set_pinned(tx: Tx, item_id: str, pinned: bool, now: datetime) -> list[str]:
    """A person pins (or unpins) the active item `item_id`: a pinned item stands in every
    prompt (L0, reference §4a), so only a person's face (the hub, the CLI) calls this.
    Returns the id when it changed, [] when it already was so; EntryNotFound when there
    is no such active item."""
    row = tx.get(item_id)
    if row is None or row.status != "active":
        raise EntryNotFound(f"memory:{item_id}", "no such active memory item")
    if row.pinned == pinned:
        return []
    tx.update(row.model_copy(update={"pinned": pinned, "updated_at": now}))
    return [item_id]


def set_due(tx: Tx, item_id: str, day: date | None, now: datetime) -> list[str]:
    """A person sets (or, with None, clears) the due day of the active item `item_id`:
    the one `due` alias of its source_ref (`items.due`) is replaced, and an item of the
    default kind `fact` becomes a `commitment`, as `remember --due` makes one. An item
    without a source ref is named as a commitment by `commitment_id` (its text's key),
    so a later `remember` of it with a due date edits the same item. Returns the id when
    it changed; EntryNotFound when there is no such active item."""
    row = tx.get(item_id)
    if row is None or row.status != "active":
        raise EntryNotFound(f"memory:{item_id}", "no such active memory item")
    ref = row.source_ref
    kept = tuple(a for a in ref.aliases if a.store != DUE_STORE) if ref else ()
    if day is not None:
        kept += (SourceRefAlias(store=DUE_STORE, id=day.isoformat()),)
    if ref is None and day is None:
        return []
    own = ref if ref is not None else SourceRef(store="commitment", id=commitment_id(row.content))
    new_ref = own.model_copy(update={"aliases": kept})
    kind = "commitment" if day is not None and row.kind == "fact" else row.kind
    if new_ref == ref and kind == row.kind:
        return []
    tx.conn.execute(
        "DELETE FROM memory_item_refs WHERE item_id = ? AND store = ?", (item_id, DUE_STORE)
    )
    tx.update(row.model_copy(update={"source_ref": new_ref, "kind": kind, "updated_at": now}))
    return [item_id]
