"""The one gate every prompt layer passes (reference §4a, `resolveMemoryInjection`).

Rules, first match wins for "nothing at all":

1. `<no-memory>` in the task text, then in the current message: nothing.
2. The user's memory switch is off (`retain_memory=False`): nothing.
3. The workspace's memory is off (disabled, or privacy mode `disabled`): nothing.
4. A group or public context gets nothing unless shared-context memory is allowed; even
   then it never gets private items.

Otherwise the folder, the memory items, recall and team repos are on, and the item
rules of reference §4a (`memoryItemAllowed`) decide which items may show:

- every private item only when asked for, in the user's own private context, never for
  a sub-agent;
- a strict-privacy workspace's own items (private because of strict mode) in the user's
  own private context, never for a sub-agent: strict mode keeps that workspace's memory
  to the user's own chat, it does not open the user's other private items;
- contact items (with that contact's private and third-party items) only on the surface
  handling that contact, in the user's own private context, never for a sub-agent: a
  group or public reply must not repeat what is known about a person;
- task items only for the active task, in the user's own private context (a sub-agent
  works on its task too); never in a group or public reply;
- the swarm block only when the task belongs to a swarm.

Other workspaces' and other tasks' items never show (recall's visibility).
"""

from __future__ import annotations

from memrepo.hygiene import has_no_memory_marker
from memrepo.models.prompt_context import GATE_LAYERS, GateLayer, InjectionDecision, InjectionInputs

NO_MEMORY_TASK = "<no-memory> in the task"
NO_MEMORY_MESSAGE = "<no-memory> in the current message"
RETAIN_OFF = "memory is off (retain_memory is false)"
WORKSPACE_OFF = "memory is off for this workspace"
WORKSPACE_DISABLED = "this workspace's privacy mode is disabled"
SHARED_NOT_ALLOWED = "{gateway} context: shared-context memory is not allowed"
OWN_CONTEXT = "the user's own private context"
SHARED_ALLOWED = "{gateway} context with shared-context memory allowed"
PRIVATE_NOT_IN_SHARED = "{gateway} context: private memory never leaves the user's own chat"
PRIVATE_SUBAGENT = "sub-agents never see private memory"
PRIVATE_ASKED = "asked for, in the user's own private context"
PRIVATE_NOT_ASKED = "private items not asked for"
STRICT_OWN = "strict-privacy workspace: its own items, in the user's own private context"
STRICT_NOT = "the workspace is not in strict privacy mode"
CONTACT_ON = "the contact this turn handles, in the user's own private context"
CONTACT_SHARED = "{gateway} context: what is known about a contact stays in the user's own chat"
CONTACT_SUBAGENT = "sub-agents never see a contact's memory"
TASK_ON = "the active task's items"
NO_CONTACT = "no contact named for this turn"
NO_TASK = "no task named for this turn"
TASK_SHARED = "{gateway} context: task memory stays in the user's own chat"
SWARM_ON = "peer notes of the task's swarm"
SWARM_NONE = "the task belongs to no swarm"


def resolve_memory_injection(inputs: InjectionInputs) -> InjectionDecision:
    """Which layers may carry memory for this turn, and why."""
    blocked = _blocked(inputs)
    if blocked is not None:
        return _nothing(blocked)
    shared = inputs.gateway != "private"
    base = SHARED_ALLOWED if shared else OWN_CONTEXT
    reasons: dict[GateLayer, str] = {
        layer: base.format(gateway=inputs.gateway) for layer in GATE_LAYERS
    }
    private, reasons["private_items"] = _private(inputs)
    own_private, reasons["workspace_private"] = _workspace_private(inputs, private)
    contact, reasons["contact_items"] = _contact(inputs)
    task = not shared
    reasons["task_items"] = TASK_ON if task else TASK_SHARED.format(gateway=inputs.gateway)
    if task and inputs.has_task is False:
        task, reasons["task_items"] = False, NO_TASK
    swarm = inputs.has_swarm
    reasons["swarm"] = SWARM_ON if swarm else SWARM_NONE
    return InjectionDecision(
        folder_l0=True,
        items_l0=True,
        recall_l1=True,
        private_items=private,
        workspace_private=own_private,
        contact_items=contact,
        task_items=task,
        team=True,
        swarm=swarm,
        reasons=reasons,
    )


def _blocked(inputs: InjectionInputs) -> str | None:
    """The reason nothing may be injected, or None."""
    if has_no_memory_marker(inputs.task_text):
        return NO_MEMORY_TASK
    if has_no_memory_marker(inputs.current_message):
        return NO_MEMORY_MESSAGE
    if not inputs.retain_memory:
        return RETAIN_OFF
    if not inputs.workspace_enabled:
        return WORKSPACE_OFF
    if inputs.workspace_privacy == "disabled":
        return WORKSPACE_DISABLED
    if inputs.gateway != "private" and not inputs.allow_shared_context_memory:
        return SHARED_NOT_ALLOWED.format(gateway=inputs.gateway)
    return None


def _private(inputs: InjectionInputs) -> tuple[bool, str]:
    if inputs.gateway != "private":
        return False, PRIVATE_NOT_IN_SHARED.format(gateway=inputs.gateway)
    if inputs.is_subagent:
        return False, PRIVATE_SUBAGENT
    if inputs.want_private:
        return True, PRIVATE_ASKED
    return False, PRIVATE_NOT_ASKED


def _workspace_private(inputs: InjectionInputs, private: bool) -> tuple[bool, str]:
    """The active workspace's own private items: with every private item, or alone in
    a strict-privacy workspace (same surface rules as `_private`)."""
    if private:
        return True, PRIVATE_ASKED
    allowed, why = _private(inputs.model_copy(update={"want_private": True}))
    if not allowed:
        return False, why
    if inputs.workspace_privacy == "strict":
        return True, STRICT_OWN
    return False, STRICT_NOT


def _contact(inputs: InjectionInputs) -> tuple[bool, str]:
    if inputs.gateway != "private":
        return False, CONTACT_SHARED.format(gateway=inputs.gateway)
    if inputs.is_subagent:
        return False, CONTACT_SUBAGENT
    if inputs.has_contact is False:
        return False, NO_CONTACT
    return True, CONTACT_ON


def _nothing(reason: str) -> InjectionDecision:
    """Every layer off for the one reason: built from GATE_LAYERS (each layer is a field
    of the decision), so a layer added there is off here too without another list."""
    off: dict[str, object] = dict.fromkeys(GATE_LAYERS, False)
    return InjectionDecision.model_validate({**off, "reasons": dict.fromkeys(GATE_LAYERS, reason)})
