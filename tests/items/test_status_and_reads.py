"""Status changes, reactivation through ingest, and the read side (list, get, refs, why)."""

from __future__ import annotations

import pytest

from memrepo.errors import EntryNotFound, InvalidArgument
from memrepo.items import ItemStore, ItemWriter
from memrepo.models.items import ItemFilters, MemoryItem, SourceRef

from .conftest import SteppingClock, cand, raw


def _chain(writer: ItemWriter, clock: SteppingClock, values: list[str]) -> list[MemoryItem]:
    items = []
    for value in values:
        clock.advance(minutes=1)
        result = writer.ingest(cand(value, subject_key="city", source="user_stated", pinned=True))
        assert result.item is not None
        items.append(result.item)
    return items


def test_delete_scrubs_every_revision(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    items = _chain(writer, clock, ["Lives in Rome", "Lives in Oslo", "Lives in Lima"])
    changed = writer.set_status(items[1].id, "deleted")  # a middle revision names the record
    assert set(changed) == {i.id for i in items}
    conn = raw(store)
    rows = conn.execute(
        "SELECT id, status, content, content_hash, subject_key, pinned FROM memory_items"
    ).fetchall()
    conn.close()
    assert len(rows) == 3
    for item_id, status, content, digest, subject, pinned in rows:
        assert (status, content, pinned) == ("deleted", "", 0)
        assert digest == subject == f"deleted:{item_id}"


def test_archive_applies_to_the_active_revision_only(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    old, current = _chain(writer, clock, ["Lives in Rome", "Lives in Oslo"])
    assert writer.set_status(old.id, "archived") == (current.id,)
    statuses = {i.id: i.status for i in store.list(ItemFilters(status="any"))}
    assert statuses == {old.id: "superseded", current.id: "archived"}


def test_set_status_by_source_ref_and_errors(writer: ItemWriter, store: ItemStore) -> None:
    result = writer.ingest(cand("Pay rent on the 1st", source_ref=SourceRef(store="t", id="1")))
    assert result.item is not None
    assert writer.set_status_by_source_ref("t", "1", "superseded") == (result.item.id,)
    assert writer.set_status_by_source_ref("t", "nope", "deleted") == ()
    with pytest.raises(InvalidArgument, match="ingest"):
        writer.set_status(result.item.id, "active")
    with pytest.raises(InvalidArgument, match="allowed"):
        writer.set_status(result.item.id, "gone")
    with pytest.raises(EntryNotFound):
        writer.set_status("missing", "deleted")


def test_reactivation_goes_through_ingest(writer: ItemWriter, store: ItemStore) -> None:
    first = writer.ingest(cand("Gym on Mondays"))
    assert first.item is not None
    writer.set_status(first.item.id, "archived")
    again = writer.ingest(cand("Gym on Mondays"))
    assert again.action == "inserted" and again.item is not None
    assert again.item.id != first.item.id and again.item.status == "active"
    assert store.count() == 1


def test_deleted_content_can_be_stated_again(writer: ItemWriter, store: ItemStore) -> None:
    first = writer.ingest(cand("Allergic to nuts", subject_key="allergy"))
    assert first.item is not None
    writer.set_status(first.item.id, "deleted")
    again = writer.ingest(cand("Allergic to nuts", subject_key="allergy"))
    assert again.action == "inserted"


def test_mark_used(writer: ItemWriter, store: ItemStore, clock: SteppingClock) -> None:
    result = writer.ingest(cand("Uses fish shell"))
    assert result.item is not None and result.item.last_used_at is None
    used_at = clock.advance(hours=2)
    writer.mark_used([result.item.ref])
    detail = store.get(result.item.id)
    assert detail is not None and detail.item.last_used_at == used_at


# Reads ---------------------------------------------------------------------------------


def test_list_filters_and_private_excluded_by_default(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Global fact"))
    writer.ingest(cand("Workspace fact", scope="workspace", workspace_id="w1", kind="rule"))
    writer.ingest(cand("Secret plan", privacy="private"))
    writer.ingest(cand("Bob likes jazz", scope="contact", scope_ref="bob", workspace_id="w1"))
    writer.ingest(cand("Task note", scope="task", scope_ref="t1", kind="note"))
    assert {i.content for i in store.list()} == {
        "Global fact", "Workspace fact", "Bob likes jazz", "Task note",
    }  # fmt: skip
    assert len(store.list(ItemFilters(include_private=True))) == 5
    assert [i.content for i in store.list(ItemFilters(workspace_id="w1", kind="rule"))] == [
        "Workspace fact"
    ]
    assert [i.content for i in store.list(ItemFilters(scope="contact", scope_ref="bob"))] == [
        "Bob likes jazz"
    ]
    assert [i.content for i in store.list(ItemFilters(task_id="t1"))] == ["Task note"]
    assert len(store.list(ItemFilters(limit=2))) == 2
    assert store.count(ItemFilters(status="superseded")) == 0


def test_get_returns_the_chain_newest_first(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    items = _chain(writer, clock, ["Lives in Rome", "Lives in Oslo", "Lives in Lima"])
    detail = store.get(items[2].id)
    assert detail is not None
    assert [i.content for i in detail.chain] == ["Lives in Oslo", "Lives in Rome"]
    assert store.get("missing") is None


def test_find_by_source_ref_via_alias(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Likes mango", source_ref=SourceRef(store="chat", id="1")))
    merged = writer.ingest(cand("likes MANGO", source_ref=SourceRef(store="import", id="x")))
    assert merged.item is not None
    assert [i.id for i in store.find_by_source_ref("import", "x")] == [merged.item.id]
    assert [i.id for i in store.find_by_source_ref("chat", "1")] == [merged.item.id]
    assert store.find_by_source_ref("chat", "2") == []


def test_why_reads_like_a_sentence(writer: ItemWriter, clock: SteppingClock) -> None:
    writer.ingest(cand("Prefers window seats", subject_key="seat", source="user_stated"))
    newer = None
    for n in range(3):
        clock.advance(days=1)
        ref = SourceRef(store="chat", id="m1") if n == 0 else None
        newer = writer.ingest(
            cand("Prefers aisle seats", subject_key="seat", source="user_stated",
                 privacy="private", task_id="T7", source_ref=ref)
        )  # fmt: skip
    assert newer is not None and newer.item is not None
    text = writer.why(newer.item.id)
    assert text == (
        "Stated by the user on 2026-12-01; reinforced 2 times; supersedes an earlier value "
        "(“Prefers window seats”); private; learned in task T7; from chat:m1."
    )
    with pytest.raises(EntryNotFound):
        writer.why("missing")
