"""Editing and pinning a memory item from its One memory page, over HTTP, each checked
in the repo afterwards (a second `MemoryRepo` on the same root)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .conftest import Serve

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _seed(root: Path) -> str:
    with MemoryRepo.open(root) as repo:
        result = repo.remember("Ana prefers calls after 6pm", contact_ref="mail:ana", by="agent")
    assert result.ref is not None
    return result.ref


def test_an_item_is_edited_from_its_page(serve: Serve, root: Path) -> None:
    ref = _seed(root)
    person = serve(root).login()
    page = person.get("/memory", ref=ref).text
    assert 'action="/memory/edit"' in page and "Save as your revision" in page
    posted = person.post("/memory/edit", {"ref": ref, "text": "Ana prefers calls after 8pm"})
    assert posted.status_code == 303
    shown = person.follow(posted).text
    assert "Saved as your revision" in shown and "Values it replaced" in shown
    assert "Ana prefers calls after 8pm" in shown and "Ana prefers calls after 6pm" in shown
    with MemoryRepo.open(root) as repo:
        old = repo.item(ref)
        (new,) = repo.list_items()
    assert old.item.status == "superseded"
    assert new.content == "Ana prefers calls after 8pm" and new.source == "user_stated"
    assert new.supersedes_id == old.item.id and new.scope_ref == "mail:ana"


def test_an_item_is_pinned_and_unpinned_from_its_page(serve: Serve, root: Path) -> None:
    ref = _seed(root)
    person = serve(root).login()
    assert 'name="pinned" value="yes"' in person.get("/memory", ref=ref).text
    pinned = person.follow(person.post("/memory/pin", {"ref": ref, "pinned": "yes"})).text
    assert "Pinned: every prompt carries it." in pinned and 'name="pinned" value="no"' in pinned
    with MemoryRepo.open(root) as repo:
        assert repo.item(ref).item.pinned
    person.follow(person.post("/memory/pin", {"ref": ref, "pinned": "no"}))
    with MemoryRepo.open(root) as repo:
        assert not repo.item(ref).item.pinned


def test_item_actions_without_csrf_or_with_bad_input_are_refused(serve: Serve, root: Path) -> None:
    ref = _seed(root)
    person = serve(root).login()
    for path, data in (
        ("/memory/edit", {"ref": ref, "text": "Ana prefers calls after 8pm"}),
        ("/memory/pin", {"ref": ref, "pinned": "yes"}),
    ):
        refused = person.post(path, {**data, "back": "/"}, csrf=False)
        assert refused.status_code == 403 and "CSRF" in refused.text
    with MemoryRepo.open(root) as repo:
        item = repo.item(ref).item
    assert item.status == "active" and not item.pinned
    empty = person.post("/memory/edit", {"ref": ref, "text": "ok", "back": "/"})
    assert empty.status_code == 400 and "not changed" in html.unescape(empty.text)
    gone = person.post("/memory/pin", {"ref": "memory:00000000abcd", "pinned": "yes"})
    assert gone.status_code == 404 and "Traceback" not in gone.text
