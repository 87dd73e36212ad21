"""memory_remember: the trust a write earns is decided by the task's context, not by the
model's word (user_stated, pin, tainted), and where it goes follows scope and file."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ToolInputError
from memrepo.models.items import ItemFilters

from .helpers import ToolsFor, snapshot

ASKED = "Please remember that I prefer tea over coffee."


def entry(repo: MemoryRepo, ref: str) -> dict[str, str]:
    (found,) = [e for e in repo.entries() if e.ref == ref]
    return found.metadata


def test_user_stated_needs_the_flag_and_a_real_request(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    asked = tools_for(task_id="t1", latest_user_message=ASKED)
    result = asked.dispatch("memory_remember", {"text": "Prefers tea", "user_asked": True})
    assert result["source"] == "user_stated" and result["note"] is None
    meta = entry(repo, result["ref"])
    assert meta["by"] == "user" and meta["source"] == "memrepo://tasks/t1"


@pytest.mark.parametrize(
    ("message", "user_asked"),
    [
        (ASKED, False),  # the user asked, the model did not claim it
        ("What's for lunch?", True),  # the model claims it, the user never asked
        ("Do you remember what I drink?", True),
    ],
)
def test_otherwise_it_is_an_inference(
    repo: MemoryRepo, tools_for: ToolsFor, message: str, user_asked: bool
) -> None:
    tools = tools_for(task_id="t1", latest_user_message=message)
    result = tools.dispatch(
        "memory_remember", {"text": "Prefers tea", "user_asked": user_asked, "pin": True}
    )
    assert result["source"] == "inferred" and result["pinned"] is False
    assert entry(repo, result["ref"])["by"] == "agent"
    assert "not pinned" in result["note"]
    if user_asked:
        assert "saved as your inference" in result["note"]


def test_pin_only_for_user_stated_items(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    asked = tools_for(task_id="t1", latest_user_message=ASKED)
    stated = asked.dispatch(
        "memory_remember", {"text": "Prefers tea", "scope": "task", "pin": True, "user_asked": True}
    )
    guessed = asked.dispatch(
        "memory_remember", {"text": "Likes green tea", "scope": "task", "pin": True}
    )
    assert stated["store"] == guessed["store"] == "items"
    pinned = {i.ref: (i.pinned, i.source) for i in repo.list_items(ItemFilters(task_id="t1"))}
    assert pinned == {
        stated["ref"]: (True, "user_stated"),
        guessed["ref"]: (False, "inferred"),
    }


@pytest.mark.slow
def test_after_untrusted_input_entries_are_tainted(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1", latest_user_message=ASKED)
    tools.context = tools.context.after_untrusted()
    result = tools.dispatch("memory_remember", {"text": "Prefers tea", "user_asked": True})
    assert result["tainted"] is True and "tainted" in result["note"]
    assert entry(repo, result["ref"])["tainted"] == "yes"
    (hit,) = tools.dispatch("memory_recall", {"query": "tea"})["hits"]
    assert hit["tainted"] is True


def test_workspace_is_the_default_and_global_is_possible(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    tools = tools_for(task_id="t1", workspace="Web shop")
    local = tools.dispatch("memory_remember", {"text": "Deploys go through staging"})
    shared = tools.dispatch("memory_remember", {"text": "Uses British spelling", "scope": "global"})
    assert local["path"] == "workspaces/web-shop.md"
    assert shared["path"] == "MEMORY.md"


def test_a_private_workspace_never_writes_globally(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    repo.set_workspace("Clinic", privacy="strict")
    tools = tools_for(task_id="t1", workspace="Clinic")
    before = snapshot(repo)
    with pytest.raises(ToolInputError, match="privacy"):
        tools.dispatch("memory_remember", {"text": "Patient list is in drive", "scope": "global"})
    assert snapshot(repo) == before


def test_contact_facts_go_to_items_about_that_contact(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    tools = tools_for(task_id="t1", contact_ref="mail:ana")
    result = tools.dispatch(
        "memory_remember", {"text": "Ana prefers calls after 6pm", "scope": "contact"}
    )
    (item,) = repo.list_items(ItemFilters(scope="contact"))
    assert result["store"] == "items" and item.scope_ref == "mail:ana" and item.task_id == "t1"


@pytest.mark.parametrize(
    ("context", "arguments", "says"),
    [
        ({}, {"scope": "task"}, "needs a task"),
        ({"task_id": "t1"}, {"scope": "contact"}, "needs a contact"),
        ({"task_id": "t1"}, {"scope": "workspace"}, "needs a workspace"),
        ({"task_id": "t1"}, {"file": "swarms/x-12345678/findings.md"}, "swarm_note"),
        ({"workspace": "Web shop"}, {"file": "workspaces/clinic.md"}, "another workspace"),
        ({}, {"file": "../outside.md"}, "outside|root|\\.\\."),
        ({}, {"file": ".git/config"}, "git"),
    ],
)
def test_impossible_targets_are_refused_and_nothing_is_written(
    repo: MemoryRepo,
    tools_for: ToolsFor,
    context: dict[str, str],
    arguments: dict[str, str],
    says: str,
) -> None:
    tools = tools_for(**context)
    before = snapshot(repo)
    with pytest.raises(ToolInputError, match=says) as caught:
        tools.dispatch("memory_remember", {"text": "A fact worth keeping", **arguments})
    assert caught.value.tool == "memory_remember"
    assert snapshot(repo) == before


def test_topic_file_is_created_and_linked(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    result = tools.dispatch(
        "memory_remember", {"text": "Deploy windows are Tue and Thu", "file": "topics/deploys.md"}
    )
    assert result["path"] == "topics/deploys.md"
    assert "[[topics/deploys]]" in repo.read_text("MEMORY.md")


def test_secrets_are_redacted_before_the_write(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    key = "AKIA" + "Q3ZX7W2V9K4M1N8P"  # not an alphabet run: that reads as a placeholder
    result = tools.dispatch("memory_remember", {"text": f"The deploy key is {key} for staging"})
    assert result["redacted"] and key not in repo.read_text("MEMORY.md")


def test_a_pinned_folder_entry_says_where_it_went(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1", latest_user_message=ASKED)
    result = tools.dispatch(
        "memory_remember", {"text": "Prefers tea", "pin": True, "user_asked": True}
    )
    assert result["store"] == "folder" and result["pinned"] is False
    assert "in every prompt" in result["note"]
