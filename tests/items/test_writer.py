"""Listeners, the hot-memory version and background writes."""

from __future__ import annotations

import threading

import pytest

from memrepo.errors import StoreError
from memrepo.items import ItemStore, ItemWriter
from memrepo.models.items import ItemChange

from .conftest import Settings, SteppingClock, cand


def test_listeners_hear_committed_changes(writer: ItemWriter) -> None:
    changes: list[ItemChange] = []
    stop = writer.on_change(changes.append)
    first = writer.ingest(cand("Fact for listeners", scope="workspace", workspace_id="w1"))
    writer.ingest(cand("x"))  # skipped: no change, no notification
    assert first.item is not None
    assert changes == [
        ItemChange(kind="ingest", item_ids=(first.item.id,), workspace_id="w1", scope="workspace")
    ]
    writer.set_status(first.item.id, "archived")
    assert changes[-1].kind == "status"
    stop()
    writer.ingest(cand("After unsubscribing"))
    assert len(changes) == 2


def test_a_failing_listener_does_not_fail_the_write(writer: ItemWriter) -> None:
    heard: list[ItemChange] = []

    def broken(change: ItemChange) -> None:
        raise RuntimeError("listener bug")

    writer.on_change(broken)
    writer.on_change(heard.append)
    result = writer.ingest(cand("Still written"))
    assert result.written and len(heard) == 1


def test_hot_version_moves_on_every_change_and_is_shared(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    assert writer.hot_version == 0
    writer.ingest(cand("One fact"))
    assert writer.hot_version == 1
    writer.ingest(cand("ok"))  # skipped
    assert writer.hot_version == 1
    other = ItemStore(store.path)  # another connection, as another process would have
    try:
        other_writer = ItemWriter(other, clock, Settings())
        other_writer.ingest(cand("Two facts"))
        assert writer.hot_version == 2
    finally:
        other.close()


def test_write_in_background_keeps_call_order(writer: ItemWriter, store: ItemStore) -> None:
    futures = [
        writer.write_in_background(cand(f"Value {n}", subject_key="counter")) for n in range(30)
    ]
    writer.flush()
    assert all(f.done() for f in futures)
    actions = [f.result().action for f in futures]
    assert actions == ["inserted"] + ["superseded"] * 29
    assert [i.content for i in store.list()] == ["Value 29"]


def test_writes_from_many_threads_are_serialized(writer: ItemWriter, store: ItemStore) -> None:
    def work(name: int) -> None:
        for n in range(20):
            writer.ingest(cand(f"Thread {name} fact {n % 10}"))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.count() == 40


def test_a_closed_writer_refuses_background_writes(writer: ItemWriter) -> None:
    writer.write_in_background(cand("Before close"))
    writer.close()
    with pytest.raises(StoreError, match="closed"):
        writer.write_in_background(cand("After close"))
