"""A `--source` link is provenance, not identity.

Two facts about two contacts, or two facts about one contact, taken from the same page
keep their own records: neither supersedes the other, and forgetting one leaves the
other as it was. Only a record ref (`{store, id}` of a record: a Hub edit, a migrated
lane) makes a write an edit of that record.
"""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters

SOURCE = "https://crm.example.com/export/2026-03"
ALL = ItemFilters(status="any", include_private=True)


def _active(repo: MemoryRepo) -> dict[str, str]:
    return {i.content: i.status for i in repo.list_items(ItemFilters(include_private=True))}


@pytest.mark.slow
def test_two_contacts_from_one_source_keep_their_facts(memory_repo: MemoryRepo) -> None:
    ana = memory_repo.remember("Ana's phone is 555 0100", contact_ref="mail:ana", source=SOURCE)
    bo = memory_repo.remember("Bo's phone is 555 0199", contact_ref="mail:bo", source=SOURCE)
    assert (ana.action, bo.action) == ("inserted", "inserted")
    assert _active(memory_repo) == {
        "Ana's phone is 555 0100": "active",
        "Bo's phone is 555 0199": "active",
    }
    assert ana.ref is not None
    memory_repo.forget(ana.ref)
    rows = {i.id: i for i in memory_repo.list_items(ALL)}
    assert rows[ana.ref.removeprefix("memory:")].content == ""
    assert bo.ref is not None
    kept = rows[bo.ref.removeprefix("memory:")]
    assert (kept.status, kept.content) == ("active", "Bo's phone is 555 0199")
    assert memory_repo.recall("phone", contact_ref="mail:bo").hits[0].text == kept.content


def test_two_facts_about_one_contact_from_one_source(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Ana's phone is 555 0100", contact_ref="mail:ana", source=SOURCE)
    second = memory_repo.remember(
        "Ana prefers calls after 6pm", contact_ref="mail:ana", source=SOURCE
    )
    assert second.action == "inserted"
    assert set(_active(memory_repo)) == {"Ana's phone is 555 0100", "Ana prefers calls after 6pm"}


def test_the_link_is_kept_as_provenance(memory_repo: MemoryRepo) -> None:
    first = memory_repo.remember("Ana's phone is 555 0100", contact_ref="mail:ana", source=SOURCE)
    again = memory_repo.remember(
        "Ana's phone is 555 0100", contact_ref="mail:ana", source=SOURCE + "#p2"
    )
    assert again.action == "reinforced" and again.ref == first.ref
    (row,) = memory_repo.list_items(ItemFilters(include_private=True))
    assert row.source_ref is not None
    links = [(row.source_ref.store, row.source_ref.id)]
    links += [(a.store, a.id) for a in row.source_ref.aliases]
    assert links == [("link", SOURCE), ("link", SOURCE + "#p2")]


def test_no_status_change_selects_rows_by_a_link(memory_repo: MemoryRepo) -> None:
    import pytest

    from memrepo.errors import InvalidArgument

    memory_repo.remember("Ana's phone is 555 0100", contact_ref="mail:ana", source=SOURCE)
    memory_repo.remember("Bo's phone is 555 0199", contact_ref="mail:bo", source=SOURCE)
    with pytest.raises(InvalidArgument, match="source link"):
        memory_repo._parts.items.set_status_by_source_ref("link", SOURCE, "deleted")
    assert set(_active(memory_repo).values()) == {"active"} and len(_active(memory_repo)) == 2
