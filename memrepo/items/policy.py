"""Step 3 of the write pipeline (reference §3): may this candidate be stored, and how?

Pure: it looks at the candidate and the governing workspace's settings and returns either
a skip reason or the privacy and task link the row gets. The writer asks the settings
through `SettingsLookup`, so the config layer stays above the store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memrepo.models.items import (
    EXPLICIT_SOURCES,
    ItemCandidate,
    ItemSkipReason,
    Privacy,
    WorkspacePolicy,
)

#: Settings of a workspace by id (`memrepo.config` answers it for a memory root).
SettingsLookup = Callable[[str], WorkspacePolicy]


def default_settings(workspace_id: str) -> WorkspacePolicy:
    """Memory on, normal privacy: what a workspace nobody configured gets."""
    return WorkspacePolicy()


@dataclass(frozen=True, slots=True)
class Decision:
    """Either `reason` (skip) or what to store: privacy and the task the item is tied to."""

    reason: ItemSkipReason | None = None
    privacy: Privacy = "normal"
    task_id: str | None = None


def scope_problem(candidate: ItemCandidate) -> str | None:
    """Why the scope fields do not fit together, or None (docs/architecture.md §5 scope shapes)."""
    scope, ref = candidate.scope, candidate.scope_ref
    if scope == "global" and (candidate.workspace_id or ref):
        return "a global item has no workspace_id and no scope_ref"
    if scope == "workspace" and (not candidate.workspace_id or ref):
        return "a workspace item needs workspace_id and no scope_ref"
    if scope == "contact" and not ref:
        return "a contact item needs scope_ref (the contact)"
    if scope == "task":
        if not ref:
            return "a task item needs scope_ref (the task id)"
        if candidate.task_id is not None and candidate.task_id != ref:
            return "a task item's scope_ref must equal its task_id"
    return None


def decide(candidate: ItemCandidate, settings: SettingsLookup) -> Decision:
    """The policy verdict for a screened candidate."""
    if scope_problem(candidate) is not None:
        return Decision(reason="invalid_scope")
    third_party = candidate.source == "third_party"
    if third_party and candidate.scope not in ("contact", "task"):
        return Decision(reason="third_party_scope")
    privacy: Privacy = candidate.privacy or ("private" if third_party else "normal")
    governing = candidate.origin_workspace_id or candidate.workspace_id
    if governing is not None and candidate.mode == "live":
        policy = settings(governing)
        if policy.memory_off and candidate.source not in EXPLICIT_SOURCES:
            return Decision(reason="memory_disabled")
        if policy.privacy == "strict":
            privacy = "private"
    task_id = candidate.task_id
    if candidate.scope == "task" and task_id is None:
        task_id = candidate.scope_ref
    return Decision(privacy=privacy, task_id=task_id)
