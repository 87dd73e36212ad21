"""Who may see what (DESIGN §6, "Visibility"), applied once, as index filters.

Every rule is an allow-list on one indexed field, so a lane cannot forget one:
other workspaces never show (workspace is "" or the active one); task-scoped items only
for the active task and contact items only for that contact (the ``audience`` field);
private items only with ``include_private``; trust at least ``min_trust``; active only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memrepo.errors import InvalidArgument
from memrepo.items.vocab import SOURCES, trust_rank

#: The fusion weight of a hit from the reader's own task, contact or workspace.
CONTEXT_BOOST = 1.25


@dataclass(frozen=True, slots=True)
class Visibility:
    """The reader's context; `workspace` is the workspace slug (None: global only)."""

    workspace: str | None = None
    include_private: bool = False
    contact_ref: str | None = None
    task_id: str | None = None
    min_trust: str = "inferred"
    #: The audience of the reader's swarm (`swarm:<folder>`): only its notes show.
    swarm: str | None = None

    def __post_init__(self) -> None:
        if self.min_trust not in SOURCES:
            raise InvalidArgument(
                f"min_trust={self.min_trust!r}: must be one of {', '.join(SOURCES)}"
            )

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
        privacy = {"normal", "private"} if self.include_private else {"normal"}
        floor = trust_rank(self.min_trust)
        trust: set[str] = {s for s in SOURCES if trust_rank(s) >= floor}
        return {
            "audience": audience,
            "workspace": workspaces,
            "privacy": privacy,
            "trust": trust,
            "status": {"active"},
        }
