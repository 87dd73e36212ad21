"""Taint in memory_items: stored, and never laundered through or over a clean row.

The rules (memrepo.items._resolve): a tainted candidate never supersedes, edits or closes a
clean row of equal or higher trust; a tainted echo of a clean row changes nothing; a
restatement of a tainted row keeps the taint unless it is a clean explicit user act.
"""

from __future__ import annotations

import sqlite3

import pytest

from memrepo.items import ItemStore, ItemWriter
from memrepo.items.why import explain
from memrepo.models.items import ItemFilters, MemoryItem, SourceRef

from .conftest import SteppingClock, cand, raw


def stored(store: ItemStore, item_id: str) -> MemoryItem:
    detail = store.get(item_id)
    assert detail is not None
    return detail.item


def test_a_tainted_candidate_is_stored_tainted_and_read_back(
    writer: ItemWriter, store: ItemStore
) -> None:
    result = writer.ingest(cand("Ana's new number is 555-0100", tainted=True))
    assert result.item is not None and result.item.tainted is True
    assert stored(store, result.item.id).tainted is True
    conn = raw(store)
    assert conn.execute("SELECT tainted FROM memory_items").fetchall() == [(1,)]
    conn.close()
    clean = writer.ingest(cand("Ana works at Acme"))
    assert clean.item is not None and stored(store, clean.item.id).tainted is False


def test_why_says_tainted(writer: ItemWriter, store: ItemStore) -> None:
    result = writer.ingest(cand("Ana's new number is 555-0100", tainted=True))
    assert result.item is not None
    assert "tainted" in writer.why(result.item.id)
    clean = writer.ingest(cand("Ana works at Acme"))
    assert clean.item is not None
    detail = store.get(clean.item.id)
    assert detail is not None and "tainted" not in explain(detail)


# A tainted echo of a clean row ------------------------------------------------------------


def test_a_tainted_echo_of_a_clean_row_changes_nothing(
    writer: ItemWriter, store: ItemStore, clock: SteppingClock
) -> None:
    clean = writer.ingest(cand("The user drinks tea", confidence=0.4))
    assert clean.item is not None
    clock.advance(minutes=5)
    echo = writer.ingest(
        cand("the user drinks TEA", source="user_stated", confidence=1.0, pinned=True,
             subject_key="drink", tainted=True, source_ref=SourceRef(store="link", id="evil"))
    )  # fmt: skip
    assert echo.action == "reinforced" and echo.item is not None
    after = stored(store, clean.item.id)
    # Not counted, no trust, confidence, pin, subject or source link from the page,
    # and the row does not become tainted either (a page cannot smear the user's facts).
    assert after == clean.item
    assert store.find_by_source_ref("link", "evil") == []


def test_a_tainted_echo_cannot_plant_a_named_subject_over_a_clean_holder(
    writer: ItemWriter, store: ItemStore
) -> None:
    holder = writer.ingest(cand("Favourite editor is Vim", subject_key="editor"))
    writer.ingest(cand("Favourite editor is Helix", tainted=True))
    named = writer.ingest(cand("Favourite editor is Helix", subject_key="editor", tainted=True))
    assert holder.item is not None and named.item is not None
    assert named.superseded_ids == ()
    assert [i.content for i in store.list(ItemFilters(subject_key="editor"))] == [
        "Favourite editor is Vim"
    ]


# Superseding and editing -----------------------------------------------------------------


@pytest.mark.parametrize("source", ["inferred", "import"])
def test_tainted_never_supersedes_a_clean_value_of_equal_or_higher_trust(
    writer: ItemWriter, store: ItemStore, source: str
) -> None:
    held = writer.ingest(cand("Ana's number is 555-0199", subject_key="phone", source="import"))
    result = writer.ingest(
        cand("Ana's number is 555-0100", subject_key="phone", source=source, tainted=True)
    )
    assert held.item is not None
    assert (result.status, result.reason, result.holder_id) == (
        "skipped", "outranked", held.item.id,
    )  # fmt: skip
    assert [i.content for i in store.list()] == ["Ana's number is 555-0199"]


def test_tainted_with_strictly_higher_trust_supersedes_and_stays_flagged(
    writer: ItemWriter,
) -> None:
    writer.ingest(cand("Ana's number is 555-0199", subject_key="phone", source="inferred"))
    result = writer.ingest(
        cand("Ana's number is 555-0100", subject_key="phone", source="user_stated", tainted=True)
    )
    assert result.action == "superseded" and result.item is not None
    assert result.item.tainted is True


def test_tainted_may_supersede_a_tainted_value_at_equal_trust(writer: ItemWriter) -> None:
    writer.ingest(cand("Ana's number is 555-0199", subject_key="phone", tainted=True))
    result = writer.ingest(cand("Ana's number is 555-0100", subject_key="phone", tainted=True))
    assert result.action == "superseded" and result.item is not None and result.item.tainted


def test_a_tainted_edit_of_a_clean_record_is_outranked(
    writer: ItemWriter, store: ItemStore
) -> None:
    ref = SourceRef(store="hub", id="c1")
    first = writer.ingest(cand("Standup at 9", source_ref=ref, confidence=0.5))
    edited = writer.ingest(cand("Standup at 10", source_ref=ref, tainted=True))
    assert first.item is not None
    assert (edited.reason, edited.holder_id) == ("outranked", first.item.id)
    same = writer.ingest(cand("Standup at 9", source_ref=ref, confidence=1.0, pinned=True,
                              tainted=True))  # fmt: skip
    assert same.action == "updated"
    assert stored(store, first.item.id) == first.item


def test_a_tainted_candidate_does_not_close_a_clean_commitment(
    writer: ItemWriter, store: ItemStore
) -> None:
    open_ = writer.ingest(cand("Send the report to Ana", kind="commitment"))
    closed = writer.ingest(
        cand("Send the report to Ana", kind="commitment", status="archived", tainted=True)
    )
    assert open_.item is not None and closed.reason == "outranked"
    assert [i.status for i in store.list()] == ["active"]


# Restating a tainted row --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "tainted", "still_tainted"),
    [
        ("user_stated", False, False),  # the user vouched for it
        ("user_confirmed", False, False),
        ("curated", False, False),
        ("user_stated", True, True),  # the user's words, but after untrusted input too
        ("inferred", False, True),  # the agent guessing it again vouches for nothing
        ("import", False, True),
    ],
)
def test_restating_a_tainted_row(
    writer: ItemWriter, store: ItemStore, source: str, tainted: bool, still_tainted: bool
) -> None:
    first = writer.ingest(cand("Ana prefers calls after 6pm", tainted=True))
    again = writer.ingest(cand("Ana prefers calls after 6pm", source=source, tainted=tainted))
    assert first.item is not None and again.action == "reinforced"
    after = stored(store, first.item.id)
    assert after.tainted is still_tainted
    assert (after.source, after.reinforced_count) == (source, 1)


def test_a_clean_user_edit_of_a_tainted_record_clears_it(writer: ItemWriter) -> None:
    ref = SourceRef(store="hub", id="c1")
    writer.ingest(cand("Standup at 9", source_ref=ref, tainted=True))
    kept = writer.ingest(cand("Standup at 9", source_ref=ref, source="inferred"))
    assert kept.item is not None and kept.item.tainted is True
    vouched = writer.ingest(cand("Standup at 9", source_ref=ref, source="user_stated"))
    assert vouched.item is not None and vouched.item.tainted is False


def test_the_column_default_keeps_raw_rows_clean(store: ItemStore) -> None:
    conn = raw(store)
    conn.execute(
        "INSERT INTO memory_items(id, scope, kind, subject_key, content, content_hash, source, "
        "confidence, status, created_at, updated_at) VALUES ('x', 'global', 'fact', 's', "
        "'kept', 'h', 'inferred', 0.7, 'active', 0, 0)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE memory_items SET tainted = NULL WHERE id = 'x'")
    conn.close()
    assert stored(store, "x").tainted is False
