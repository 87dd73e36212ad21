"""The seam through which the host asks its user before a memory is changed.

Forgetting, editing, moving and undoing change what the user relies on, so those tools
ask the host first, except for a memory this task itself inferred that nobody else
touched (its own scratch work). Accepting or rejecting a dream review is always the
user's decision. The host implements `ForgetApproval` however it talks to its user: a
dialog, a chat message, a saved rule; `ForgetRequest.action` says what is asked. Without
one, every such request is denied.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

#: What a request asks for.
ApprovalAction = Literal[
    "forget",
    "edit",
    "move",
    "undo",
    "accept_review",
    "reject_review",
    "approve_held",
    "reject_held",
]


class ForgetRequest(BaseModel):
    """What the host shows its user: the memory, where it came from, who asks, and what
    would happen (`action`, and for an edit, a move or an undo, `change`: the new text,
    the target file, the commit undone)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: str
    text: str
    store: Literal["folder", "items"]
    path: str | None = None
    by: str | None = None
    trust: str | None = None
    added: str | None = None
    task_id: str | None = None
    action: ApprovalAction = "forget"
    change: str | None = None


ApprovalRequest = ForgetRequest
"""The same request under the name that says what it is for every action."""


class ForgetApproval(Protocol):
    """Decides whether a change may go ahead; True allows it, False denies it."""

    def __call__(self, request: ForgetRequest) -> bool: ...


def deny_all(request: ForgetRequest) -> bool:
    """The default when the host gave no approval callback: ask nobody, remove nothing."""
    return False


def allow_all(request: ForgetRequest) -> bool:
    """For hosts whose user approved forgetting in general (a bypass mode or saved rule)."""
    return True
