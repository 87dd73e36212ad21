"""memory_recall on a contact's surface: the task's agent handling a contact sees that
contact's items, third-party ones included (reference §4b); a helper given the same
contact sees none of them (§4a: never for sub-agents)."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo

from .helpers import ToolsFor

pytestmark = pytest.mark.slow


@pytest.fixture
def contacts(repo: MemoryRepo) -> MemoryRepo:
    repo.remember("Ana's invoice address is Rua Augusta 12", contact_ref="mail:ana", by="user")
    repo.remember(
        "Ana says her invoice must be sent before Friday",
        contact_ref="mail:ana",
        source_kind="third_party",
    )
    repo.remember("Bo's invoice address is Main Street 3", contact_ref="mail:bo", by="user")
    return repo


def _texts(tools: ToolsFor, **context: object) -> list[str]:
    result = tools(**context).dispatch("memory_recall", {"query": "invoice"})
    return sorted(str(hit["text"]) for hit in result["hits"])


def test_the_agent_handling_a_contact_sees_its_items(
    contacts: MemoryRepo, tools_for: ToolsFor
) -> None:
    assert _texts(tools_for, task_id="t1", contact_ref="mail:ana") == [
        "Ana says her invoice must be sent before Friday",
        "Ana's invoice address is Rua Augusta 12",
    ]


def test_a_helper_given_the_contact_sees_none(contacts: MemoryRepo, tools_for: ToolsFor) -> None:
    assert _texts(tools_for, task_id="t1", contact_ref="mail:ana", role="sub_agent") == []
    assert _texts(tools_for, task_id="t1", contact_ref="mail:ana", role="verifier") == []


def test_without_the_contact_nobody_sees_them(contacts: MemoryRepo, tools_for: ToolsFor) -> None:
    assert _texts(tools_for, task_id="t1") == []
