"""The per-task context a tool call runs in: who is asking, where, and after what.

The model never supplies these: the host builds one `ToolContext` per task and updates it
each turn (`next_turn`) and whenever the task reads text it does not trust
(`after_untrusted`). Everything a tool decides about trust, taint, visibility and approval
comes from here, not from the model's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from memrepo.tools.intent import asks_to_remember

#: `agent`: the task's own agent; `sub_agent`: a helper it spawned (never sees private
#: items); `verifier`: a checking role (reads like a sub-agent).
Role = Literal["agent", "sub_agent", "verifier"]


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Who calls the memory tools and in which situation.

    `latest_user_message` is what the user last said in this task; `memory_remember`
    writes `user_stated` only when it asks to remember (see `memrepo.tools.intent`), or
    when the host already knows and sets `user_asked_to_remember` (a "remember this"
    button). `untrusted` is sticky: once the task read a web page, an email or another
    party's text, everything it writes is marked `tainted: yes`.

    `task_title` (and `task_parent`) let swarm_note register a task the registry does
    not know yet, on its first note: a host whose tasks live nowhere else (an MCP
    session) names its task that way instead of registering it beforehand.

    `sender` is who wrote the message this turn handles when it is not the memory's
    owner (a group chat member, an email's author), as a contact ref the host knows
    them by (`slack:U0123`, `mail:ana@example.com`); None is the owner. What such a
    turn remembers is a private fact about that sender, never the owner's own fact, and
    it changes nothing else of the memory (reference, the security rule for channels).

    `agent` is the agent's own name as its host gives it (an MCP client's
    `clientInfo.name` when the host sets none): what it recalls in full or quotes is
    logged as used by it, which the Hub shows ("last used 2 h ago by claude-code").
    """

    task_id: str | None = None
    workspace: str | None = None
    latest_user_message: str = ""
    user_asked_to_remember: bool | None = None
    untrusted: bool = False
    role: Role = "agent"
    contact_ref: str | None = None
    include_private: bool = False
    task_title: str | None = None
    task_parent: str | None = None
    sender: str | None = None
    agent: str | None = None

    @property
    def user_asks_to_remember(self) -> bool:
        """The host's answer when it gave one, else the detector's."""
        if self.user_asked_to_remember is not None:
            return self.user_asked_to_remember
        return asks_to_remember(self.latest_user_message)

    @property
    def sees_private(self) -> bool:
        """Private items only in the user's own agent, never for helpers
        (docs/architecture.md §7)."""
        return self.include_private and self.role == "agent"

    @property
    def handled_contact(self) -> str | None:
        """The contact whose items recall may show: only the task's own agent handles
        it; a helper given the contact never sees what is known about them (§4a)."""
        return self.contact_ref if self.role == "agent" else None

    @property
    def from_owner(self) -> bool:
        """Whether the message this turn handles is the memory owner's own."""
        return not (self.sender and self.sender.strip())

    @property
    def source_link(self) -> str | None:
        """The `source` metadata of what this task writes (a link to the task)."""
        return f"memrepo://tasks/{self.task_id}" if self.task_id else None

    def next_turn(self, user_message: str) -> ToolContext:
        """The same task after the user said `user_message`."""
        return replace(self, latest_user_message=user_message, user_asked_to_remember=None)

    def after_untrusted(self) -> ToolContext:
        """The same task after it read text it does not trust (sticky for the task)."""
        return replace(self, untrusted=True)
