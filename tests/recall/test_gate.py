"""resolve_memory_injection: every rule of reference §4a, each layer with its reason."""

from __future__ import annotations

from typing import Any

import pytest

from memrepo.models.context import GATE_LAYERS, InjectionInputs
from memrepo.recall.gate import resolve_memory_injection

OWN = "the user's own private context"
NONE_ASKED = "private items not asked for"
NO_SWARM = "the task belongs to no swarm"
ALL_OFF: dict[str, bool] = {str(layer): False for layer in GATE_LAYERS}
OPEN: dict[str, bool] = {**ALL_OFF, "folder_l0": True, "items_l0": True, "recall_l1": True,
                         "team": True}  # fmt: skip


def everywhere(reason: str) -> dict[str, str]:
    return {str(layer): reason for layer in GATE_LAYERS}


def own(private: str = NONE_ASKED, swarm: str = NO_SWARM, base: str = OWN) -> dict[str, str]:
    return {**everywhere(base), "private_items": private, "swarm": swarm}


# (name, inputs, allowed layers, reasons)
CASES: list[tuple[str, dict[str, Any], dict[str, bool], dict[str, str]]] = [
    ("defaults", {}, OPEN, own()),
    (
        "private asked in own chat",
        {"want_private": True},
        {**OPEN, "private_items": True},
        own(private="asked for, in the user's own private context"),
    ),
    (
        "strict workspace implies private in own chat",
        {"workspace_privacy": "strict"},
        {**OPEN, "private_items": True},
        own(private="strict-privacy workspace, in the user's own private context"),
    ),
    (
        "sub-agent never gets private",
        {"is_subagent": True, "want_private": True},
        OPEN,
        own(private="sub-agents never see private memory"),
    ),
    (
        "sub-agent in a strict workspace",
        {"is_subagent": True, "workspace_privacy": "strict"},
        OPEN,
        own(private="sub-agents never see private memory"),
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
        "group context with shared memory: never private",
        {"gateway": "group", "allow_shared_context_memory": True, "want_private": True},
        OPEN,
        own(
            private="group context: private memory never leaves the user's own chat",
            base="group context with shared-context memory allowed",
        ),
    ),
    (
        "public context with shared memory and a swarm",
        {"gateway": "public", "allow_shared_context_memory": True, "has_swarm": True},
        {**OPEN, "swarm": True},
        own(
            private="public context: private memory never leaves the user's own chat",
            swarm="peer notes of the task's swarm",
            base="public context with shared-context memory allowed",
        ),
    ),
    (
        "swarm member",
        {"has_swarm": True, "is_subagent": True},
        {**OPEN, "swarm": True},
        own(private="sub-agents never see private memory", swarm="peer notes of the task's swarm"),
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
