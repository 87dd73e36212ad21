"""The usage log (issue #31): who last put a memory in a prompt or quoted it, and when,
for folder lines and items alike, kept 90 days and gone with a forgotten item."""

from __future__ import annotations

import sqlite3

from memrepo.items import ItemStore, ItemWriter

from .conftest import SteppingClock, cand, raw

FOLDER_REF = "folder:MEMORY.md#k3v9q2"


def test_the_newest_use_of_each_memory_names_its_agent(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    result = writer.ingest(cand("Uses fish shell"))
    assert result.item is not None
    ref = result.item.ref
    first = clock.advance(hours=1)
    writer.mark_used([ref, FOLDER_REF], "claude-code")
    second = clock.advance(hours=1)
    writer.mark_used([FOLDER_REF], "cursor")
    uses = store.last_uses()
    assert (uses[ref].at, uses[ref].agent) == (first, "claude-code")
    assert (uses[FOLDER_REF].at, uses[FOLDER_REF].agent) == (second, "cursor")
    assert store.last_uses(ref) == {ref: uses[ref]}
    detail = store.get(result.item.id)
    assert detail is not None and detail.item.last_used_at == first  # recall ranks on it
    writer.mark_used([ref])  # a host that names no agent
    assert store.last_uses(ref)[ref].agent == ""


def test_an_agent_name_is_kept_as_one_short_clean_line(
    writer: ItemWriter, store: ItemStore
) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    writer.mark_used(["folder:a.md#1"], "evil\x07\nhost\u200b " + token)
    writer.mark_used(["folder:a.md#2"], "x" * 500)
    uses = store.last_uses()
    assert uses["folder:a.md#1"].agent.startswith("evil host ")
    assert token not in uses["folder:a.md#1"].agent and "redacted" in uses["folder:a.md#1"].agent
    assert uses["folder:a.md#2"].agent == "x" * 64


def test_retention_keeps_90_days_and_a_forgotten_item_leaves_no_use(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    gone = writer.ingest(cand("Forget me"))
    assert gone.item is not None
    writer.mark_used([gone.item.ref, FOLDER_REF], "claude-code")
    writer.set_status(gone.item.id, "deleted")
    assert set(store.last_uses()) == {FOLDER_REF}
    clock.advance(days=89)
    writer.run_retention()
    assert set(store.last_uses()) == {FOLDER_REF}
    clock.advance(days=2)
    writer.run_retention()
    assert store.last_uses() == {}
    conn: sqlite3.Connection = raw(store)
    assert conn.execute("SELECT COUNT(*) FROM memory_usage").fetchone() == (0,)
    conn.close()
