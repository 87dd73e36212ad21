"""Where a remembered fact goes (docs/architecture.md §3 step 2), decided in one place.

The folder is shared: it syncs to a remote, teams may read it, people browse it. So
anything about a contact, anything bound to one task, anything private, everything of a
workspace in strict privacy mode, and any text a third party wrote goes to memory_items,
which never touches git. Everything else is a shared fact and goes to the folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from memrepo.config import WorkspaceSettings
from memrepo.errors import InvalidArgument
from memrepo.models.items import BY_TO_SOURCE as BY_TO_SOURCE
from memrepo.models.items import Scope, Source

#: The store's trust `source` back to the folder's `by` (`BY_TO_SOURCE` the other way).
SOURCE_TO_BY: dict[str, str] = {
    "user_stated": "user",
    "user_confirmed": "user",
    "curated": "dream",
    "import": "import",
    "system": "agent",
    "inferred": "agent",
    "third_party": "agent",
}


@dataclass(frozen=True, slots=True)
class Route:
    """The store a write goes to, the item scope when it is memory_items, and why."""

    store: Literal["folder", "items"]
    scope: Scope
    scope_ref: str | None
    why: str
    private: bool = False  # the caller asked for privacy (policy may add it otherwise)


def choose_route(
    *,
    workspace: str | None,
    contact_ref: str | None,
    scope: str | None,
    task_id: str | None,
    private: bool,
    source: Source,
    settings: WorkspaceSettings,
) -> Route:
    """Decide folder or memory_items; raises InvalidArgument for an impossible shape."""
    if scope not in (None, "global", "workspace", "contact", "task"):
        raise InvalidArgument(f"scope={scope!r}: must be global, workspace, contact or task")
    if scope == "contact" or contact_ref:
        if not contact_ref:
            raise InvalidArgument("a contact fact needs contact_ref (who it is about)")
        return Route("items", "contact", contact_ref, "a fact about a contact", private)
    if scope == "task":
        if not task_id:
            raise InvalidArgument("a task-scoped fact needs task_id")
        return Route("items", "task", task_id, "a fact bound to one task", private)
    if scope == "workspace" and not workspace:
        raise InvalidArgument("a workspace-scoped fact needs a workspace")
    item_scope: Scope = "workspace" if workspace else "global"
    if source == "third_party":
        # Third-party text is never a fact about the user; the writer refuses it outside
        # contact and task scope (third_party_scope), so route it where that is decided.
        return Route("items", item_scope, None, "third-party text", private)
    if private:
        return Route("items", item_scope, None, "private", True)
    if settings.privacy == "strict":
        return Route("items", item_scope, None, "the workspace is in strict privacy mode", True)
    return Route("folder", item_scope, None, "a shared fact")


def source_for(by: str, source_kind: str | None) -> Source:
    """The trust source of a write: the explicit one, else the one `by` implies."""
    if source_kind is None:
        return BY_TO_SOURCE[by]
    if source_kind not in SOURCE_TO_BY:
        allowed = ", ".join(SOURCE_TO_BY)
        raise InvalidArgument(f"source_kind={source_kind!r}: must be one of {allowed}")
    return source_kind  # type: ignore[return-value]
