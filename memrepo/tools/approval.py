"""The seam through which the host asks its user before a memory is forgotten.

Forgetting is destructive, so `memory_forget` asks the host first, except for a memory
this task itself inferred that nobody else touched (its own scratch work). The host
implements `ForgetApproval` however it talks to its user: a dialog, a chat message, a
saved rule. Without one, every such forget is denied.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict


class ForgetRequest(BaseModel):
    """What the host shows its user: the memory, where it came from, who asks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: str
    text: str
    store: Literal["folder", "items"]
    path: str | None = None
    by: str | None = None
    trust: str | None = None
    added: str | None = None
    task_id: str | None = None


class ForgetApproval(Protocol):
    """Decides whether a forget may go ahead; True allows it, False denies it."""

    def __call__(self, request: ForgetRequest) -> bool: ...


def deny_all(request: ForgetRequest) -> bool:
    """The default when the host gave no approval callback: ask nobody, remove nothing."""
    return False


def allow_all(request: ForgetRequest) -> bool:
    """For hosts whose user approved forgetting in general (a bypass mode or saved rule)."""
    return True
