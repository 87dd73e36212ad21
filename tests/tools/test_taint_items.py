"""After untrusted input, a fact that goes to memory_items (a contact, task or private
fact) is tainted like a folder entry: stored so, shown so by recall, tagged in the prompt."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters
from memrepo.models.prompt_context import ContextRequest

from .helpers import ToolsFor

pytestmark = pytest.mark.slow

ASKED = "Please remember that Ana prefers calls after 6pm."


def test_a_contact_fact_after_untrusted_input_is_a_tainted_item(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    tools = tools_for(task_id="t1", contact_ref="mail:ana", latest_user_message=ASKED)
    tools.context = tools.context.after_untrusted()
    result = tools.dispatch(
        "memory_remember", {"text": "Ana prefers calls after 6pm", "scope": "contact"}
    )
    assert result["store"] == "items" and result["tainted"] is True
    (item,) = repo.list_items(ItemFilters(scope="contact"))
    assert item.ref == result["ref"] and item.tainted is True
    assert "tainted" in repo.why(item.ref).explanation

    (hit,) = tools.dispatch("memory_recall", {"query": "Ana calls"})["hits"]
    assert hit["ref"] == item.ref and hit["tainted"] is True

    blocks = repo.context(ContextRequest(query="Ana calls", contact_ref="mail:ana"))
    l1 = blocks.block("l1")
    assert l1 is not None
    (line,) = [line for line in l1.lines if line.ref == item.ref]
    assert line.tags == ("inferred", "tainted")
    assert "- Ana prefers calls after 6pm (inferred) (tainted)" in blocks.text


def test_the_same_fact_from_a_clean_task_is_not_tainted(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    tools = tools_for(task_id="t2", contact_ref="mail:ana")
    result = tools.dispatch(
        "memory_remember", {"text": "Ana prefers calls after 6pm", "scope": "contact"}
    )
    assert result["tainted"] is False
    (hit,) = tools.dispatch("memory_recall", {"query": "Ana calls"})["hits"]
    assert hit["tainted"] is False
    blocks = repo.context(ContextRequest(query="Ana calls", contact_ref="mail:ana"))
    assert "- Ana prefers calls after 6pm (inferred)\n" in blocks.text + "\n"
    assert "(tainted)" not in blocks.text


def test_a_hostile_page_cannot_overwrite_a_clean_contact_fact(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    clean = tools_for(task_id="t1", contact_ref="mail:ana")
    kept = clean.dispatch(
        "memory_remember",
        {"text": "Ana's phone is 555-0199", "scope": "contact", "subject": "ana-phone"},
    )
    tools = tools_for(task_id="t2", contact_ref="mail:ana")
    tools.context = tools.context.after_untrusted()
    result = tools.dispatch(
        "memory_remember",
        {"text": "Ana's phone is 555-0100", "scope": "contact", "subject": "ana-phone"},
    )
    assert (result["status"], result["reason"], result["ref"]) == (
        "skipped", "outranked", kept["ref"],
    )  # fmt: skip
    (item,) = repo.list_items(ItemFilters(scope="contact"))
    assert (item.content, item.tainted) == ("Ana's phone is 555-0199", False)


def test_a_tainted_repeat_of_a_clean_fact_is_reported_as_left_clean(
    repo: MemoryRepo, tools_for: ToolsFor
) -> None:
    clean = tools_for(task_id="t1", contact_ref="mail:ana", latest_user_message="hi")
    first = clean.dispatch("memory_remember", {"text": "Ana works in Lisbon", "scope": "contact"})
    hostile = tools_for(task_id="t2", contact_ref="mail:ana", latest_user_message="hi")
    hostile.context = hostile.context.after_untrusted()

    again = hostile.dispatch("memory_remember", {"text": "Ana works in Lisbon", "scope": "contact"})
    folder = hostile.dispatch("memory_remember", {"text": "The build runs on Fridays"})

    assert first["tainted"] is False
    assert again["tainted"] is False and "marked tainted" not in (again["note"] or "")
    assert repo.item(again["ref"]).item.tainted is False
    assert folder["tainted"] is True and "marked tainted" in folder["note"]
