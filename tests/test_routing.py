"""remember routes contact, task, private, strict-workspace and third-party facts to
memory_items; they never reach a file, a commit or git's object database."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import EntryNotFound, InvalidArgument, MemoryRepo
from memrepo.models.items import ItemFilters

Git = Callable[..., str]
CommitCount = Callable[..., int]


def all_git_objects(root: Path) -> bytes:
    """Every object git stores, loose or packed, reachable or not."""
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout


def worktree_bytes(root: Path) -> bytes:
    return b"".join(
        p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts
    )


def test_private_and_contact_facts_never_reach_git(memory_repo: MemoryRepo, git: Git) -> None:
    secrets = {
        "contact": "Zorblat prefers calls after 6pm",
        "private": "Quixotic diagnosis stays between us",
        "task": "Flumberg draft lives in branch wip-42",
        "strict": "Vextra budget is 40k",
        "third": "Grimwald asked for a refund",
    }
    memory_repo.set_workspace("Acme", privacy="strict")
    results = [
        memory_repo.remember(secrets["contact"], contact_ref="mail:zorblat@example.com"),
        memory_repo.remember(secrets["private"], private=True, by="user"),
        memory_repo.remember(secrets["task"], scope="task", task_id="t-42"),
        memory_repo.remember(secrets["strict"], workspace="Acme", by="user"),
        memory_repo.remember(
            secrets["third"], contact_ref="mail:grimwald@example.com", source_kind="third_party"
        ),
        memory_repo.remember("A shared fact for everyone"),
    ]
    assert [r.store for r in results] == ["items"] * 5 + ["folder"]
    assert all(r.written for r in results)
    objects = all_git_objects(memory_repo.root)
    files = worktree_bytes(memory_repo.root)
    for text in secrets.values():
        word = text.split()[0].encode()
        assert word not in objects, text
        assert word not in files, text
    assert b"A shared fact for everyone" in files
    git(memory_repo.root, "gc", "-q")
    assert b"Zorblat" not in all_git_objects(memory_repo.root)


def test_private_items_are_private_and_hidden_by_default(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Private fact about health", private=True, by="user")
    assert memory_repo.list_items() == []
    (item,) = memory_repo.list_items(ItemFilters(include_private=True))
    assert item.privacy == "private" and item.source == "user_stated"


def test_strict_workspace_items_are_private(memory_repo: MemoryRepo) -> None:
    memory_repo.set_workspace("Clinic", privacy="strict")
    result = memory_repo.remember("Patient list lives in the vault", workspace="Clinic")
    assert result.store == "items"
    (item,) = memory_repo.list_items(ItemFilters(include_private=True))
    assert item.privacy == "private" and item.workspace_id == "clinic"
    assert not (memory_repo.root / "workspaces/clinic.md").exists()


def test_third_party_text_needs_a_contact_or_task(memory_repo: MemoryRepo) -> None:
    result = memory_repo.remember("The customer says the user is rude", source_kind="third_party")
    assert result.status == "skipped" and result.reason == "third_party_scope"
    ok = memory_repo.remember(
        "The customer wants a callback", source_kind="third_party", contact_ref="tel:+15550100"
    )
    assert ok.written
    (item,) = memory_repo.list_items(ItemFilters(include_private=True))
    assert item.privacy == "private" and item.scope == "contact"


def test_memory_off_blocks_agent_writes_but_records_the_user(
    memory_repo: MemoryRepo, commit_count: CommitCount
) -> None:
    memory_repo.set_workspace("Quiet", memory=False)
    skipped = memory_repo.remember("Agent noticed a pattern", workspace="Quiet")
    assert skipped.status == "skipped" and skipped.reason == "memory_disabled"
    stated = memory_repo.remember("User says: deploy on Fridays", workspace="Quiet", by="user")
    assert stated.written and stated.store == "folder"
    item = memory_repo.remember("Inferred private thing", workspace="Quiet", private=True)
    assert item.reason == "memory_disabled"
    assert commit_count(memory_repo.root) == 2


def test_workspace_settings_persist(memory_repo: MemoryRepo) -> None:
    memory_repo.set_workspace("Acme", memory=False, privacy="strict")
    reopened = MemoryRepo.open(memory_repo.root)
    settings = reopened.config.workspace("acme")
    assert settings.enabled is False and settings.privacy == "strict"
    with pytest.raises(InvalidArgument, match="privacy"):
        reopened.set_workspace("Acme", privacy="secret")


def test_forget_a_memory_item(memory_repo: MemoryRepo) -> None:
    result = memory_repo.remember("Call Ana on Tuesdays", contact_ref="ana")
    assert result.ref is not None and result.ref.startswith("memory:")
    forgotten = memory_repo.forget(result.ref)
    assert forgotten.store == "items" and forgotten.commit is None
    assert memory_repo.list_items(ItemFilters(include_private=True)) == []
    detail = memory_repo.item(result.ref)
    assert detail.item.status == "deleted" and detail.item.content == ""
    with pytest.raises(EntryNotFound):
        memory_repo.forget(result.ref)
    with pytest.raises(EntryNotFound):
        memory_repo.forget("memory:nope")


def test_bad_shapes_are_clear_errors(memory_repo: MemoryRepo) -> None:
    with pytest.raises(InvalidArgument, match="task_id"):
        memory_repo.remember("Task fact here", scope="task")
    with pytest.raises(InvalidArgument, match="contact_ref"):
        memory_repo.remember("Contact fact here", scope="contact")
    with pytest.raises(InvalidArgument, match="source_kind"):
        memory_repo.remember("Some fact here", source_kind="rumour")
    with pytest.raises(InvalidArgument, match="kind"):
        memory_repo.remember("Some fact here", private=True, kind="gossip")
    with pytest.raises(InvalidArgument, match="memory_items"):
        memory_repo.remember("Some fact here", private=True, file="notes.md")


def test_clear_workspace_removes_items_and_file_in_one_commit(
    memory_repo: MemoryRepo, git: Git, commit_count: CommitCount
) -> None:
    memory_repo.remember("Shared workspace fact", workspace="Shop")
    memory_repo.remember("Private workspace fact", workspace="Shop", private=True)
    before = commit_count(memory_repo.root)
    report = memory_repo.clear_workspace("Shop")
    assert report.deleted == 1
    assert not (memory_repo.root / "workspaces/shop.md").exists()
    assert "[[workspaces/shop]]" not in (memory_repo.root / "MEMORY.md").read_text()
    assert commit_count(memory_repo.root) == before + 1
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_task_items_and_purge(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Scratch note for the task", scope="task", task_id="t1")
    memory_repo.remember("Learned while on the task", private=True, task_id="t1")
    report = memory_repo.purge_task("t1", purge_derived=True)
    assert report.deleted == 2
    assert memory_repo.list_items(ItemFilters(include_private=True, status="any")) == []


def test_why_explains_an_item(memory_repo: MemoryRepo) -> None:
    result = memory_repo.remember("Prefers email", contact_ref="bo", by="user")
    assert result.ref is not None
    assert "user" in memory_repo.why(result.ref).explanation.lower()


def test_private_flag_holds_for_contact_and_task_facts(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Ana's diagnosis is private", contact_ref="ana", private=True)
    memory_repo.remember("Task secret plan", scope="task", task_id="t9", private=True)
    assert memory_repo.list_items() == []
    found = memory_repo.list_items(ItemFilters(include_private=True))
    assert sorted(i.privacy for i in found) == ["private", "private"]
