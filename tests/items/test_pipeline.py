"""The ingest pipeline: every skip reason, every write action, every trust conflict."""

from __future__ import annotations

import pytest

from memrepo.items import ItemStore, ItemWriter
from memrepo.models.items import ItemFilters, SourceRef, WorkspacePolicy

from .conftest import START, Settings, SteppingClock, cand

# Skip reasons ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("   \n\t ", "empty"),
        ("ok", "too_short"),
        ("!!! ??? ...", "no_content"),
        ("Tool called: read_file {'path': 'a'}", "telemetry"),
        ("AKIAIOSFODNN7Q2XK4ZB", "secret_only"),
        ("remember this <no-memory>", "no_memory"),
    ],
)
def test_screen_skip_reasons(
    writer: ItemWriter, store: ItemStore, content: str, reason: str
) -> None:
    result = writer.ingest(cand(content))
    assert (result.status, result.reason) == ("skipped", reason)
    assert store.count(ItemFilters(status="any", include_private=True)) == 0


def test_no_memory_flag_and_origin_text(writer: ItemWriter) -> None:
    assert writer.ingest(cand("A fact worth keeping", no_memory=True)).reason == "no_memory"
    result = writer.ingest(cand("A fact worth keeping", origin_text="please <no-memory> thanks"))
    assert result.reason == "no_memory"


@pytest.mark.parametrize(
    "fields",
    [
        {"scope": "global", "workspace_id": "w1"},
        {"scope": "global", "scope_ref": "x"},
        {"scope": "workspace"},
        {"scope": "workspace", "workspace_id": "w1", "scope_ref": "x"},
        {"scope": "contact"},
        {"scope": "task"},
        {"scope": "task", "task_id": "t1"},
        {"scope": "task", "scope_ref": "t1", "task_id": "t2"},
    ],
)
def test_invalid_scope(writer: ItemWriter, fields: dict[str, str]) -> None:
    result = writer.ingest(cand("The deploy runs on Fridays", **fields))
    assert (result.status, result.reason) == ("skipped", "invalid_scope")


def test_third_party_only_in_contact_or_task_scope(writer: ItemWriter) -> None:
    result = writer.ingest(cand("Alice says the user is late", source="third_party"))
    assert result.reason == "third_party_scope"
    written = writer.ingest(
        cand("Alice prefers email", source="third_party", scope="contact", scope_ref="alice")
    )
    assert written.item is not None and written.item.privacy == "private"


@pytest.mark.parametrize("mode", ["off", "disabled"])
def test_memory_off_blocks_machine_writes_but_records_user_acts(
    writer: ItemWriter, settings: Settings, mode: str
) -> None:
    settings.policies["w1"] = (
        WorkspacePolicy(enabled=False) if mode == "off" else WorkspacePolicy(privacy="disabled")
    )
    for source in ("inferred", "import", "system"):
        result = writer.ingest(
            cand(f"{source} fact about w1", scope="workspace", workspace_id="w1", source=source)
        )
        assert result.reason == "memory_disabled", source
    third = writer.ingest(
        cand("Bob says hi", scope="contact", scope_ref="bob", source="third_party",
             workspace_id="w1")
    )  # fmt: skip
    assert third.reason == "memory_disabled"
    # A global write made from w1 is governed by w1's settings.
    via_origin = writer.ingest(cand("Global fact from w1", origin_workspace_id="w1"))
    assert via_origin.reason == "memory_disabled"
    for source in ("user_stated", "user_confirmed", "curated"):
        result = writer.ingest(
            cand(f"{source} fact about w1", scope="workspace", workspace_id="w1", source=source)
        )
        assert result.action == "inserted", source


def test_strict_privacy_makes_items_private(writer: ItemWriter, settings: Settings) -> None:
    settings.policies["w1"] = WorkspacePolicy(privacy="strict")
    result = writer.ingest(
        cand("Strict fact", scope="workspace", workspace_id="w1", privacy="normal")
    )
    assert result.item is not None and result.item.privacy == "private"


@pytest.mark.slow
def test_content_over_the_limit_is_cut_and_huge_input_is_fine(writer: ItemWriter) -> None:
    result = writer.ingest(cand("word " * 2_000_000))  # 10 MB
    assert result.item is not None and result.truncated
    assert len(result.item.content) <= 1000
    assert result.item.content.endswith("…")


def test_secrets_are_redacted_before_storing(writer: ItemWriter, store: ItemStore) -> None:
    result = writer.ingest(cand("The staging password=hunter2secret is rotated weekly"))
    assert result.item is not None
    assert "hunter2secret" not in result.item.content
    assert result.redacted
    stored = store.get(result.item.id)
    assert stored is not None and "hunter2secret" not in stored.item.content


# Write actions ---------------------------------------------------------------------------


def test_inserted(writer: ItemWriter) -> None:
    result = writer.ingest(cand("The user drinks tea", task_id="t9"))
    assert (result.status, result.action) == ("written", "inserted")
    item = result.item
    assert item is not None and item.status == "active" and item.subject_key.startswith("hash:")
    assert item.task_id == "t9" and item.privacy == "normal" and item.reinforced_count == 0


def test_reinforced(writer: ItemWriter, clock: SteppingClock) -> None:
    first = writer.ingest(cand("The user drinks tea", confidence=0.4, pinned=True))
    clock.advance(minutes=1)
    again = writer.ingest(
        cand("the USER  drinks tea", confidence=0.9, source="user_stated",
             source_ref=SourceRef(store="chat", id="m2"))
    )  # fmt: skip
    assert again.action == "reinforced"
    assert again.item is not None and first.item is not None
    assert again.item.id == first.item.id
    assert again.item.reinforced_count == 1
    assert again.item.confidence == 0.9
    assert again.item.pinned is True  # sticky
    assert again.item.source == "user_stated"  # upgraded
    assert again.item.source_ref == SourceRef(store="chat", id="m2")
    third = writer.ingest(
        cand("The user drinks tea", confidence=0.1, source="inferred",
             source_ref=SourceRef(store="chat", id="m3"))
    )  # fmt: skip
    assert third.item is not None
    assert third.item.source == "user_stated" and third.item.confidence == 0.9
    assert third.item.source_ref is not None
    assert [(a.store, a.id) for a in third.item.source_ref.aliases] == [("chat", "m3")]


def test_same_text_in_other_scope_or_kind_is_a_new_row(writer: ItemWriter) -> None:
    writer.ingest(cand("Ships on Fridays"))
    other_kind = writer.ingest(cand("Ships on Fridays", kind="rule"))
    other_scope = writer.ingest(cand("Ships on Fridays", scope="workspace", workspace_id="w"))
    assert other_kind.action == "inserted" and other_scope.action == "inserted"


def test_superseded_by_subject(writer: ItemWriter, store: ItemStore) -> None:
    old = writer.ingest(cand("Lives in Berlin", subject_key="home", source="user_stated"))
    new = writer.ingest(cand("Lives in Paris", subject_key="home", source="user_stated"))
    assert old.item is not None and new.item is not None
    assert new.action == "superseded" and new.superseded_ids == (old.item.id,)
    assert new.item.supersedes_id == old.item.id
    before = store.get(old.item.id)
    assert before is not None and before.item.status == "superseded"


def test_updated_when_an_edit_keeps_the_content(writer: ItemWriter) -> None:
    ref = SourceRef(store="hub", id="card-1")
    first = writer.ingest(cand("Call mom on Sundays", source_ref=ref, confidence=0.5))
    again = writer.ingest(cand("Call mom on Sundays", source_ref=ref, confidence=0.8, pinned=True))
    assert again.action == "updated"
    assert again.item is not None and first.item is not None
    assert again.item.id == first.item.id
    assert (again.item.confidence, again.item.pinned, again.item.reinforced_count) == (0.8, True, 0)


# Trust conflicts --------------------------------------------------------------------------


def test_inferred_never_overrides_user_stated(writer: ItemWriter) -> None:
    held = writer.ingest(cand("Prefers dark mode", subject_key="theme", source="user_stated"))
    result = writer.ingest(cand("Prefers light mode", subject_key="theme", source="inferred"))
    assert held.item is not None
    assert (result.status, result.reason, result.holder_id) == (
        "skipped", "outranked", held.item.id,
    )  # fmt: skip


def test_user_stated_overrides_inferred(writer: ItemWriter) -> None:
    writer.ingest(cand("Prefers light mode", subject_key="theme", source="inferred"))
    result = writer.ingest(cand("Prefers dark mode", subject_key="theme", source="user_stated"))
    assert result.action == "superseded"


def test_equal_trust_newer_wins(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Team lead is Ana", subject_key="lead", source="inferred"))
    result = writer.ingest(cand("Team lead is Bo", subject_key="lead", source="inferred"))
    assert result.action == "superseded"
    active = store.list(ItemFilters(subject_key="lead"))
    assert [i.content for i in active] == ["Team lead is Bo"]


def test_third_party_never_overrides(writer: ItemWriter) -> None:
    contact = {"scope": "contact", "scope_ref": "alice"}
    writer.ingest(cand("Alice's birthday is May 2", subject_key="bday", source="inferred",
                       **contact))  # fmt: skip
    result = writer.ingest(
        cand("Alice's birthday is June 9", subject_key="bday", source="third_party", **contact)
    )
    assert result.reason == "outranked"


# Edits by source ref ---------------------------------------------------------------------


def test_edit_by_source_ref_supersedes_even_at_equal_trust(writer: ItemWriter) -> None:
    ref = SourceRef(store="hub", id="c1")
    first = writer.ingest(cand("Standup at 9", source="curated", source_ref=ref))
    edited = writer.ingest(cand("Standup at 10", source="curated", source_ref=ref))
    assert first.item is not None and edited.item is not None
    assert edited.action == "superseded" and edited.superseded_ids == (first.item.id,)
    assert edited.item.supersedes_id == first.item.id


def test_edit_by_lower_trust_is_outranked(writer: ItemWriter) -> None:
    ref = SourceRef(store="hub", id="c1")
    first = writer.ingest(cand("Standup at 9", source="user_stated", source_ref=ref))
    edited = writer.ingest(cand("Standup at 10", source="inferred", source_ref=ref))
    assert first.item is not None
    assert (edited.reason, edited.holder_id) == ("outranked", first.item.id)


def test_edit_by_alias(writer: ItemWriter, store: ItemStore) -> None:
    writer.ingest(cand("Standup at 9", source_ref=SourceRef(store="hub", id="a")))
    merged = writer.ingest(cand("standup at 9", source_ref=SourceRef(store="legacy", id="b")))
    assert merged.action == "reinforced" and merged.item is not None
    edited = writer.ingest(cand("Standup at 11", source_ref=SourceRef(store="legacy", id="b")))
    assert edited.action == "superseded" and edited.superseded_ids == (merged.item.id,)
    assert [i.content for i in store.list()] == ["Standup at 11"]


def test_edit_keeps_the_named_subject(writer: ItemWriter) -> None:
    ref = SourceRef(store="hub", id="c1")
    writer.ingest(cand("Works at Acme", subject_key="employer", source_ref=ref))
    edited = writer.ingest(cand("Works at Globex", source_ref=ref))
    assert edited.item is not None and edited.item.subject_key == "employer"


def test_migration_mode_skips_edits_and_keeps_created_at(writer: ItemWriter) -> None:
    ref = SourceRef(store="legacy", id="1")
    writer.ingest(cand("Old fact one", source_ref=ref))
    legacy = writer.ingest(
        cand("Old fact two", source_ref=ref, mode="migration",
             created_at=START.replace(year=2024))
    )  # fmt: skip
    assert legacy.action == "inserted"
    assert legacy.item is not None and legacy.item.created_at.year == 2024


# Named-subject adoption ------------------------------------------------------------------


def test_named_subject_is_adopted_by_a_derived_row(writer: ItemWriter) -> None:
    plain = writer.ingest(cand("Favourite editor is Helix"))
    named = writer.ingest(cand("Favourite editor is Helix", subject_key="editor"))
    assert plain.item is not None and named.item is not None
    assert named.action == "reinforced" and named.item.id == plain.item.id
    assert named.item.subject_key == "editor"


def test_adoption_supersedes_a_different_holder_when_trust_allows(writer: ItemWriter) -> None:
    holder = writer.ingest(cand("Favourite editor is Vim", subject_key="editor"))
    plain = writer.ingest(cand("Favourite editor is Helix", source="user_stated"))
    named = writer.ingest(cand("Favourite editor is Helix", subject_key="editor",
                               source="user_stated"))  # fmt: skip
    assert holder.item is not None and plain.item is not None and named.item is not None
    assert named.item.id == plain.item.id and named.item.subject_key == "editor"
    assert named.superseded_ids == (holder.item.id,)
    assert named.item.supersedes_id == holder.item.id


def test_adoption_does_not_take_a_higher_trust_subject(writer: ItemWriter) -> None:
    writer.ingest(cand("Favourite editor is Vim", subject_key="editor", source="user_stated"))
    plain = writer.ingest(cand("Favourite editor is Helix"))
    named = writer.ingest(cand("Favourite editor is Helix", subject_key="editor"))
    assert plain.item is not None and named.item is not None
    assert named.action == "reinforced" and named.item.subject_key == plain.item.subject_key


def test_edit_to_a_value_already_stored_reinforces_that_row(
    writer: ItemWriter, store: ItemStore
) -> None:
    ref = SourceRef(store="hub", id="c1")
    edited = writer.ingest(cand("Standup at 9", source_ref=ref))
    other = writer.ingest(cand("Standup at 10"))
    result = writer.ingest(cand("Standup at 10", source_ref=ref))
    assert edited.item is not None and other.item is not None and result.item is not None
    assert (result.action, result.item.id) == ("reinforced", other.item.id)
    assert result.superseded_ids == (edited.item.id,)
    assert [i.content for i in store.list()] == ["Standup at 10"]


def test_archived_candidate_closes_the_active_record(writer: ItemWriter, store: ItemStore) -> None:
    open_ = writer.ingest(cand("Send the report to Ana", kind="commitment"))
    closed = writer.ingest(cand("Send the report to Ana", kind="commitment", status="archived"))
    assert open_.item is not None and closed.item is not None
    assert (closed.action, closed.item.id, closed.item.status) == (
        "updated", open_.item.id, "archived",
    )  # fmt: skip
    fresh = writer.ingest(cand("Book the venue", kind="commitment", status="archived"))
    assert fresh.action == "inserted" and fresh.item is not None
    assert fresh.item.status == "archived" and store.count() == 0
