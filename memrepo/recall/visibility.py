"""Who may see what (docs/architecture.md §6, "Visibility"), applied once, as index filters.

Every rule is an allow-list on one indexed field, so a lane cannot forget one:
other workspaces never show (workspace is "" or the active one); task-scoped items only
for the active task and contact items only for that contact (the ``audience`` field);
trust at least ``min_trust``; active and unexpired only (the projection leaves expired
entries and items out of the index). Private items (reference §4b): every one with
``include_private``; a strict-privacy workspace's own ones with ``workspace_private``;
the handled contact's own ones whenever the reader handles that contact
(``contact_ref``). The projection tells them apart in the ``privacy`` field
(`privacy_class`). The default minimum trust leaves third-party text out "unless the
surface is handling that contact": with ``contact_ref`` it is let in (third-party items
exist only in contact and task scope, so it is that contact's or the task's).

``contact_ref`` means the reader handles that contact; a host must not pass it for a
group or public reply or a sub-agent (the gate says so: ``contact_items``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memrepo.errors import InvalidArgument
from memrepo.items.vocab import SOURCES, trust_rank

#: The fusion weight of a hit from the reader's own task, contact or workspace.
CONTEXT_BOOST = 1.25
DEFAULT_MIN_TRUST = "inferred"
#: Values of the index's ``privacy`` field (see `privacy_class`).
NORMAL = "normal"
PRIVATE = "private"
PRIVATE_WORKSPACE = "private:workspace"
PRIVATE_CONTACT = "private:contact"


def privacy_class(privacy: str, scope: str, workspace_id: str | None) -> str:
    """How an item's privacy is indexed: a contact's private items, a workspace's own
    (its workspace and task items), and every other private item are told apart, so one
    AND of allowed values can let in a strict workspace's own items or the handled
    contact's without the user's other private items."""
    if privacy != PRIVATE:
        return NORMAL
    if scope == "contact":
        return PRIVATE_CONTACT
    if workspace_id and scope in ("workspace", "task"):
        return PRIVATE_WORKSPACE
    return PRIVATE


@dataclass(frozen=True, slots=True)
class Visibility:
    """The reader's context; `workspace` is the workspace slug (None: global only)."""

    workspace: str | None = None
    include_private: bool = False
    contact_ref: str | None = None
    task_id: str | None = None
    min_trust: str = DEFAULT_MIN_TRUST
    #: The audience of the reader's swarm (`swarm:<folder>`): only its notes show.
    swarm: str | None = None
    #: The active workspace's own private items (strict privacy mode) without the rest.
    workspace_private: bool = False

    def __post_init__(self) -> None:
        if self.min_trust not in SOURCES:
            raise InvalidArgument(
                f"min_trust={self.min_trust!r}: must be one of {', '.join(SOURCES)}"
            )

    @property
    def has_context(self) -> bool:
        """Whether `context_boost` can lift any hit (the reader names a workspace, task
        or contact)."""
        return bool(self.workspace or self.task_id or self.contact_ref)

    def context_boost(self, fields: Mapping[str, Any]) -> float:
        """How much closer to the reader's context a hit is: its own task's or contact's
        items, or its workspace's facts, outrank equally good global ones."""
        audience = fields.get("audience", "all")
        if audience != "all" and audience in self._own_audiences():
            return CONTEXT_BOOST
        if self.workspace and fields.get("workspace") == self.workspace:
            return CONTEXT_BOOST
        return 1.0

    def _own_audiences(self) -> set[str]:
        own = set()
        if self.task_id:
            own.add(f"task:{self.task_id}")
        if self.contact_ref:
            own.add(f"contact:{self.contact_ref}")
        return own

    def filter_terms(self) -> dict[str, set[str]]:
        """Index field -> allowed values; a document must match every field."""
        audience = {"all"}
        if self.task_id:
            audience.add(f"task:{self.task_id}")
        if self.contact_ref:
            audience.add(f"contact:{self.contact_ref}")
        if self.swarm:
            audience.add(self.swarm)
        workspaces = {""} | ({self.workspace} if self.workspace else set())
        privacy = {NORMAL}
        if self.include_private:
            privacy |= {PRIVATE, PRIVATE_WORKSPACE, PRIVATE_CONTACT}
        if self.workspace_private:
            privacy.add(PRIVATE_WORKSPACE)
        if self.contact_ref:
            privacy.add(PRIVATE_CONTACT)
        floor = trust_rank(self.min_trust)
        if self.contact_ref and self.min_trust == DEFAULT_MIN_TRUST:
            floor = trust_rank("third_party")
        trust: set[str] = {s for s in SOURCES if trust_rank(s) >= floor}
        return {
            "audience": audience,
            "workspace": workspaces,
            "privacy": privacy,
            "trust": trust,
            "status": {"active"},
        }
