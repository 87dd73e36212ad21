"""`MemoryRepo.revise_item` and `pin_item`: a person's correction and pin of an item."""

from __future__ import annotations

import pytest

from memrepo import EntryNotFound, MemoryRepo
from memrepo.models.prompt_context import ContextRequest


def _contact_fact(repo: MemoryRepo, text: str, by: str = "agent") -> str:
    result = repo.remember(text, contact_ref="mail:ana", by=by)
    assert result.ref is not None and result.store == "items"
    return result.ref


def _private_fact(repo: MemoryRepo, text: str) -> str:
    result = repo.remember(text, private=True, by="agent")
    assert result.ref is not None and result.store == "items"
    return result.ref


def _l0(repo: MemoryRepo) -> str:
    """L0 holds global and workspace items (contact items are not in every prompt)."""
    blocks = repo.context(ContextRequest(query="hello", include_private=True, preview=True))
    block = blocks.block("l0")
    return "" if block is None else block.text


def test_revision_supersedes_and_keeps_the_chain(memory_repo: MemoryRepo) -> None:
    old_ref = _contact_fact(memory_repo, "Ana prefers calls after 6pm")
    result = memory_repo.revise_item(old_ref, "Ana prefers calls after 8pm")
    assert result.status == "written" and result.action == "superseded"
    assert result.ref is not None and result.ref != old_ref
    detail = memory_repo.item(result.ref)
    new = detail.item
    assert new.content == "Ana prefers calls after 8pm" and new.source == "user_stated"
    assert (new.scope, new.scope_ref, new.kind) == ("contact", "mail:ana", "fact")
    assert new.supersedes_id == old_ref.removeprefix("memory:")
    assert memory_repo.item(old_ref).item.status == "superseded"
    assert "6pm" in memory_repo.why(result.ref).explanation
    contents = [i.content for i in memory_repo.list_items()]
    assert contents == ["Ana prefers calls after 8pm"]


def test_revision_is_screened(memory_repo: MemoryRepo) -> None:
    ref = _contact_fact(memory_repo, "Ana's VPN login is on the wiki page")
    result = memory_repo.revise_item(ref, "Ana's VPN password=hunter2secret, rotated weekly")
    assert result.status == "written" and result.redacted
    assert result.ref is not None
    assert "hunter2secret" not in memory_repo.item(result.ref).item.content
    skipped = memory_repo.revise_item(result.ref, "   ")
    assert skipped.status == "skipped" and skipped.reason is not None
    assert memory_repo.item(result.ref).item.status == "active"


@pytest.mark.slow
def test_pin_puts_an_inference_in_l0(memory_repo: MemoryRepo) -> None:
    ref = _private_fact(memory_repo, "The user seems to like short emails")
    assert "short emails" not in _l0(memory_repo)
    assert memory_repo.pin_item(ref, True).item.pinned
    assert "short emails" in _l0(memory_repo)
    assert not memory_repo.pin_item(ref, False).item.pinned
    assert "short emails" not in _l0(memory_repo)


def test_a_revision_keeps_the_pin(memory_repo: MemoryRepo) -> None:
    ref = _contact_fact(memory_repo, "Ana seems to like short emails")
    memory_repo.pin_item(ref, True)
    result = memory_repo.revise_item(ref, "Ana likes emails of three lines at most")
    assert result.ref is not None and memory_repo.item(result.ref).item.pinned


def test_prefix_ids_and_unknown_refs(memory_repo: MemoryRepo) -> None:
    ref = _contact_fact(memory_repo, "Ana prefers calls after 6pm")
    short = ref.removeprefix("memory:")[:8]
    assert memory_repo.pin_item(short, True).item.pinned
    result = memory_repo.revise_item(short, "Ana prefers calls after 7pm")
    assert result.written
    with pytest.raises(EntryNotFound, match="no such"):
        memory_repo.pin_item("memory:0123456789abcdef", True)
    with pytest.raises(EntryNotFound, match="no such"):
        memory_repo.revise_item("deadbeef00", "Some new text here")
    with pytest.raises(EntryNotFound, match="no such active"):
        memory_repo.revise_item(ref, "Ana prefers calls after 9pm")  # superseded now
