"""Retention rules and the purges of reference §7."""

from __future__ import annotations

from datetime import timedelta

from memrepo.items import ItemStore, ItemWriter
from memrepo.items._rows import to_ms
from memrepo.models.items import ItemChange, ItemFilters

from .conftest import SteppingClock, cand

ANY = ItemFilters(status="any", include_private=True)


def test_retention_drops_tombstones(writer: ItemWriter, store: ItemStore) -> None:
    gone = writer.ingest(cand("Forget me"))
    kept = writer.ingest(cand("Keep me"))
    assert gone.item is not None and kept.item is not None
    writer.set_status(gone.item.id, "deleted")
    report = writer.run_retention()
    assert (report.tombstones, report.expired, report.revisions) == (1, 0, 0)
    assert [i.id for i in store.list(ANY)] == [kept.item.id]


def test_retention_drops_expired_items(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    writer.ingest(cand("Offer ends soon", expires_at=clock.now() + timedelta(days=2)))
    writer.ingest(cand("Forever fact"))
    assert writer.run_retention().expired == 0
    clock.advance(days=3)
    report = writer.run_retention()
    assert report.expired == 1
    assert [i.content for i in store.list(ANY)] == ["Forever fact"]
    assert store.meta("last_retention_at") == str(to_ms(clock.now()))


def test_retention_drops_old_revisions_but_keeps_the_newest_five(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    for n in range(9):
        clock.advance(days=1)
        writer.ingest(cand(f"Version {n} of the plan", subject_key="plan"))
    # 8 superseded revisions; nothing is older than 180 days yet.
    assert writer.run_retention().revisions == 0
    clock.advance(days=200)
    report = writer.run_retention()
    assert report.revisions == 3
    current = store.list(ItemFilters(subject_key="plan"))[0]
    detail = store.get(current.id)
    assert detail is not None
    assert [i.content for i in detail.chain] == [
        f"Version {n} of the plan" for n in (7, 6, 5, 4, 3)
    ]
    assert detail.chain[-1].supersedes_id is None  # the tail was cut, not broken


def test_recent_revisions_survive_retention(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    for n in range(8):
        writer.ingest(cand(f"Draft {n}", subject_key="draft"))
    clock.advance(days=179)
    assert writer.run_retention().revisions == 0
    assert store.count(ItemFilters(status="superseded")) == 7


def test_purge_task_without_derived(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Task scratch note", scope="task", scope_ref="T1"))
    inferred = writer.ingest(cand("Inferred in T1", task_id="T1"))
    stated = writer.ingest(cand("Stated in T1", task_id="T1", source="user_stated"))
    writer.ingest(cand("Other task fact", task_id="T2"))
    report = writer.purge_task("T1")
    assert (report.deleted, report.detached) == (1, 2)
    remaining = {i.content: i.task_id for i in store.list(ANY)}
    assert remaining == {"Inferred in T1": None, "Stated in T1": None, "Other task fact": "T2"}
    assert inferred.item is not None and stated.item is not None


def test_purge_task_with_derived(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Task scratch note", scope="task", scope_ref="T1"))
    writer.ingest(cand("Inferred in T1", task_id="T1"))
    writer.ingest(cand("System in T1", task_id="T1", source="system"))
    writer.ingest(
        cand("Bob said so", task_id="T1", source="third_party", scope="contact", scope_ref="bob")
    )
    writer.ingest(cand("Curated in T1", task_id="T1", source="curated"))
    report = writer.purge_task("T1", purge_derived=True)
    assert (report.deleted, report.detached) == (4, 1)
    assert [(i.content, i.task_id) for i in store.list(ANY)] == [("Curated in T1", None)]


def test_clear_workspace(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("W1 fact", scope="workspace", workspace_id="w1"))
    writer.ingest(cand("W1 contact", scope="contact", scope_ref="bob", workspace_id="w1"))
    writer.ingest(cand("W2 fact", scope="workspace", workspace_id="w2"))
    writer.ingest(cand("Global fact"))
    assert writer.clear_workspace("w1").deleted == 2
    assert {i.content for i in store.list(ANY)} == {"W2 fact", "Global fact"}


def test_clear_global_items(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Global fact"))
    writer.ingest(cand("Private global", privacy="private"))
    writer.ingest(cand("W1 fact", scope="workspace", workspace_id="w1"))
    changes: list[ItemChange] = []
    writer.on_change(changes.append)
    assert writer.clear_global_items().deleted == 2
    assert [i.content for i in store.list(ANY)] == ["W1 fact"]
    assert [(c.kind, len(c.item_ids), c.scope) for c in changes] == [("purge", 2, "global")]
