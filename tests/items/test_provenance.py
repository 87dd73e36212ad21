"""Provenance follows the newest statement; a forgotten item leaves no text behind.

Reference §3 / §5: an edit of the same record with unchanged text still takes the
record's new provenance (a new due date or expiry), and a restatement of equal or
higher trust does too. Reference §5b: the curation log quotes an item, so forgetting the
item scrubs its log rows, and retention drops log rows after 90 days.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memrepo.items import ItemStore, ItemWriter
from memrepo.items.curation import NotesEvidence, curation_log, expire_commitments
from memrepo.items.due import due_date
from memrepo.models.dream import RecentNote
from memrepo.models.items import SourceRef, SourceRefAlias

from .conftest import SteppingClock, cand, raw

D1 = datetime(2026, 12, 20, tzinfo=UTC)
D2 = datetime(2027, 1, 15, tzinfo=UTC)
D0 = datetime(2026, 12, 10, tzinfo=UTC)


def _due(store: str, ref_id: str, day: str) -> SourceRef:
    return SourceRef(store=store, id=ref_id, aliases=(SourceRefAlias(store="due", id=day),))


def test_an_unchanged_edit_keeps_the_new_due_date_and_expiry(writer: ItemWriter) -> None:
    text = "Send the venue deposit"
    first = writer.ingest(
        cand(text, kind="commitment", source_ref=_due("hub", "c1", "2026-12-01"), expires_at=D1)
    )
    again = writer.ingest(
        cand(text, kind="commitment", source_ref=_due("hub", "c1", "2026-12-08"), expires_at=D2)
    )
    assert again.action == "updated" and again.item is not None and first.item is not None
    assert again.item.id == first.item.id
    stored = writer.store.get(first.item.id)
    assert stored is not None
    assert due_date(stored.item).isoformat() == "2026-12-08"  # type: ignore[union-attr]
    assert stored.item.expires_at == D2


def test_a_restatement_takes_a_new_expiry(writer: ItemWriter) -> None:
    first = writer.ingest(cand("The office is closed for renovation", source="user_stated"))
    assert first.item is not None and first.item.expires_at is None
    dated = writer.ingest(
        cand("The office is closed for renovation", source="user_stated", expires_at=D1)
    )
    assert dated.action == "reinforced" and dated.item is not None
    assert dated.item.expires_at == D1
    sooner = writer.ingest(
        cand("The office is closed for renovation", source="user_stated", expires_at=D0)
    )
    assert sooner.item is not None and sooner.item.expires_at == D0


def test_a_weaker_echo_does_not_move_the_expiry(writer: ItemWriter) -> None:
    writer.ingest(cand("The office is closed for renovation", source="user_stated", expires_at=D1))
    echo = writer.ingest(
        cand("The office is closed for renovation", source="inferred", expires_at=D2)
    )
    assert echo.item is not None and echo.item.expires_at == D1


def test_a_restatement_takes_a_new_due_date(writer: ItemWriter) -> None:
    text = "Renew the domain"
    writer.ingest(cand(text, kind="commitment", source_ref=_due("task", "a", "2026-12-01")))
    again = writer.ingest(cand(text, kind="commitment", source_ref=_due("chat", "b", "2026-12-09")))
    assert again.action == "reinforced" and again.item is not None
    assert due_date(again.item).isoformat() == "2026-12-09"  # type: ignore[union-attr]
    assert again.item.source_ref is not None
    keys = [(a.store, a.id) for a in again.item.source_ref.aliases]
    assert ("chat", "b") in keys and [k for k in keys if k[0] == "due"] == [("due", "2026-12-09")]


def _expired_commitment(writer: ItemWriter, clock: SteppingClock) -> str:
    text = "Send the quarterly report to Ana"
    made = writer.ingest(cand(text, kind="commitment", source_ref=_due("task", "q", "2026-11-20")))
    assert made.item is not None
    note = RecentNote(text="Sent the quarterly report to Ana, done", when=clock.at)
    report = expire_commitments(writer, NotesEvidence([note], clock.at), clock.at)
    assert [c.item_id for c in report.expired] == [made.item.id]
    return made.item.id


def test_forgetting_an_item_scrubs_its_curation_log(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    item_id = _expired_commitment(writer, clock)
    assert len(curation_log(writer, item_id)) == 1
    writer.set_status(item_id, "deleted")
    (scrubbed,) = curation_log(writer, item_id)  # kept, so its undo is still refused
    assert (scrubbed.before["content"], scrubbed.after["content"]) == ("", "")
    conn = raw(store)
    rows = conn.execute("SELECT reason, before, after FROM memory_curation_log").fetchall()
    conn.close()
    assert rows and not any("quarterly" in "".join(row) for row in rows)


def test_retention_drops_curation_log_rows_after_90_days(
    writer: ItemWriter, clock: SteppingClock
) -> None:
    item_id = _expired_commitment(writer, clock)
    writer.run_retention(clock.at + timedelta(days=89))
    assert len(curation_log(writer, item_id)) == 1
    writer.run_retention(clock.at + timedelta(days=91))
    assert curation_log(writer, item_id) == []
    kept = writer.store.get(item_id)
    assert kept is not None and kept.item.status == "archived"  # the item itself stays
