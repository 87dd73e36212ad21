"""resolve_memory_injection: every rule of reference §4a, each layer with its reason."""

from __future__ import annotations

from typing import Any

import pytest

from memrepo.models.prompt_context import GATE_LAYERS, InjectionInputs
from memrepo.recall.gate import resolve_memory_injection

OWN = "the user's own private context"
NONE_ASKED = "private items not asked for"
NO_SWARM = "the task belongs to no swarm"
NOT_STRICT = "the workspace is not in strict privacy mode"
CONTACT = "the contact this turn handles, in the user's own private context"
TASK = "the active task's items"
ASKED = "asked for, in the user's own private context"
SUBAGENT = "sub-agents never see private memory"
ALL_OFF: dict[str, bool] = {str(layer): False for layer in GATE_LAYERS}
SHARED_OPEN: dict[str, bool] = {**ALL_OFF, "folder_l0": True, "items_l0": True,
                                "recall_l1": True, "team": True}  # fmt: skip
OPEN: dict[str, bool] = {**SHARED_OPEN, "contact_items": True, "task_items": True}
SUBAGENT_OPEN: dict[str, bool] = {**SHARED_OPEN, "task_items": True}


def everywhere(reason: str) -> dict[str, str]:
    return {str(layer): reason for layer in GATE_LAYERS}


def own(
    private: str = NONE_ASKED,
    swarm: str = NO_SWARM,
    base: str = OWN,
    workspace_private: str = NOT_STRICT,
    contact: str = CONTACT,
    task: str = TASK,
) -> dict[str, str]:
    return {
        **everywhere(base),
        "private_items": private,
        "workspace_private": workspace_private,
        "contact_items": contact,
        "task_items": task,
        "swarm": swarm,
    }


def shared(gateway: str, swarm: str = NO_SWARM) -> dict[str, str]:
    never = f"{gateway} context: private memory never leaves the user's own chat"
    return own(
        private=never,
        workspace_private=never,
        swarm=swarm,
        base=f"{gateway} context with shared-context memory allowed",
        contact=f"{gateway} context: what is known about a contact stays in the user's own chat",
        task=f"{gateway} context: task memory stays in the user's own chat",
    )


def subagent(swarm: str = NO_SWARM) -> dict[str, str]:
    return own(
        private=SUBAGENT,
        workspace_private=SUBAGENT,
        swarm=swarm,
        contact="sub-agents never see a contact's memory",
    )


# (name, inputs, allowed layers, reasons)
CASES: list[tuple[str, dict[str, Any], dict[str, bool], dict[str, str]]] = [
    ("defaults", {}, OPEN, own()),
    (
        "private asked in own chat",
        {"want_private": True},
        {**OPEN, "private_items": True, "workspace_private": True},
        own(private=ASKED, workspace_private=ASKED),
    ),
    (
        "strict workspace: its own private items, not the others",
        {"workspace_privacy": "strict"},
        {**OPEN, "workspace_private": True},
        own(
            workspace_private=(
                "strict-privacy workspace: its own items, in the user's own private context"
            )
        ),
    ),
    (
        "sub-agent never gets private or contact items",
        {"is_subagent": True, "want_private": True},
        SUBAGENT_OPEN,
        subagent(),
    ),
    (
        "sub-agent in a strict workspace",
        {"is_subagent": True, "workspace_privacy": "strict"},
        SUBAGENT_OPEN,
        subagent(),
    ),
    (
        "group context without shared memory",
        {"gateway": "group", "want_private": True},
        ALL_OFF,
        everywhere("group context: shared-context memory is not allowed"),
    ),
    (
        "public context without shared memory",
        {"gateway": "public"},
        ALL_OFF,
        everywhere("public context: shared-context memory is not allowed"),
    ),
    (
        "group context with shared memory: never private, contact or task items",
        {"gateway": "group", "allow_shared_context_memory": True, "want_private": True},
        SHARED_OPEN,
        shared("group"),
    ),
    (
        "public context with shared memory and a swarm",
        {"gateway": "public", "allow_shared_context_memory": True, "has_swarm": True},
        {**SHARED_OPEN, "swarm": True},
        shared("public", swarm="peer notes of the task's swarm"),
    ),
    (
        "swarm member",
        {"has_swarm": True, "is_subagent": True},
        {**SUBAGENT_OPEN, "swarm": True},
        subagent(swarm="peer notes of the task's swarm"),
    ),
    (
        "<no-memory> in the task",
        {"task_text": "Summarize this <no-memory> please", "want_private": True, "has_swarm": True},
        ALL_OFF,
        everywhere("<no-memory> in the task"),
    ),
    (
        "<no-memory> in the current message, spelled loosely",
        {"current_message": "draft a reply < No_Memory />", "has_swarm": True},
        ALL_OFF,
        everywhere("<no-memory> in the current message"),
    ),
    (
        "the task's <no-memory> is named first",
        {"task_text": "<no-memory>", "current_message": "<no-memory>"},
        ALL_OFF,
        everywhere("<no-memory> in the task"),
    ),
    (
        "retain_memory off",
        {"retain_memory": False, "want_private": True},
        ALL_OFF,
        everywhere("memory is off (retain_memory is false)"),
    ),
    (
        "workspace memory off",
        {"workspace_enabled": False, "has_swarm": True},
        ALL_OFF,
        everywhere("memory is off for this workspace"),
    ),
    (
        "workspace privacy disabled",
        {"workspace_privacy": "disabled", "want_private": True},
        ALL_OFF,
        everywhere("this workspace's privacy mode is disabled"),
    ),
    (
        "workspace off beats shared context",
        {"workspace_enabled": False, "gateway": "group", "allow_shared_context_memory": True},
        ALL_OFF,
        everywhere("memory is off for this workspace"),
    ),
]


@pytest.mark.parametrize(
    ("inputs", "allowed", "reasons"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_rule(inputs: dict[str, Any], allowed: dict[str, bool], reasons: dict[str, str]) -> None:
    decision = resolve_memory_injection(InjectionInputs(**inputs))
    assert {layer: decision.allows(layer) for layer in GATE_LAYERS} == allowed
    assert decision.reasons == reasons
    assert decision.anything == any(allowed.values())


def test_unknown_input_is_refused() -> None:
    with pytest.raises(ValueError, match="gateway"):
        InjectionInputs(gateway="channel")  # type: ignore[arg-type]
