"""memory_held: the agent writes a workspace holds for a person (reference §8.7).

Listing is free: the task sees what of its workspace waits. A decision is a person's,
always: the host's approval callback is asked every time (the same one forget and
review ask), so a model can propose approving its own held write but never make it so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from memrepo.errors import ApprovalDenied, EntryNotFound
from memrepo.layout import workspace_slug
from memrepo.tools.approval import ApprovalAction, ForgetRequest
from memrepo.tools.models import ToolInput, ToolOutput
from memrepo.tools.tool import Tool, ToolHints

if TYPE_CHECKING:
    from memrepo.held.store import HeldWrite
    from memrepo.tools.tool import ToolEnv

HELD = "memory_held"


class HeldInput(ToolInput):
    """List the waiting writes, or decide one (with the user's approval)."""

    id: str | None = Field(default=None, max_length=100, description="A held write's id.")
    decision: Literal["approve", "reject"] | None = Field(
        default=None, description="With id: approve (it is written) or reject (it is gone)."
    )

    @model_validator(mode="after")
    def _both_or_neither(self) -> HeldInput:
        if (self.id is None) != (self.decision is None):
            raise ValueError("give both `id` and `decision`, or neither to list")
        return self


class HeldRow(ToolOutput):
    """One waiting write."""

    id: str
    text: str
    workspace: str | None = None
    task_id: str | None = None
    held_at: str


class HeldOutput(ToolOutput):
    """The waiting writes of this task's workspace, or what a decision did."""

    waiting: list[HeldRow] = Field(default_factory=list)
    decided: str | None = None
    ref: str | None = None


def memory_held(env: ToolEnv, args: HeldInput) -> HeldOutput:
    """List, or decide with the user's approval."""
    mine = [w for w in env.repo.held_writes() if _visible(env, w)]
    if args.id is None or args.decision is None:
        return HeldOutput(waiting=[_row(w) for w in mine])
    write = next((w for w in mine if w.id.startswith(args.id.removeprefix("held:"))), None)
    if write is None:
        raise EntryNotFound(args.id, "no held write with this id is visible to this task")
    action: ApprovalAction = "approve_held" if args.decision == "approve" else "reject_held"
    asked = ForgetRequest(
        ref=write.ref, text=write.text, store="folder", by=write.by, task_id=write.task_id,
        action=action, change=f"{args.decision} the held write",
    )  # fmt: skip
    if not env.approval(asked):
        raise ApprovalDenied(write.ref, "the user did not approve", action=action)
    if args.decision == "approve":
        result = env.repo.approve_write(write.id)
        return HeldOutput(decided="approved", ref=result.ref)
    env.repo.reject_write(write.id)
    return HeldOutput(decided="rejected", ref=write.ref)


def _visible(env: ToolEnv, write: HeldWrite) -> bool:
    """A task sees the held writes of the global memory and of its own workspace."""
    own = workspace_slug(env.context.workspace)
    return write.workspace is None or workspace_slug(write.workspace) == own


def _row(write: HeldWrite) -> HeldRow:
    return HeldRow(
        id=write.id, text=write.text, workspace=write.workspace, task_id=write.task_id,
        held_at=write.held_at.isoformat(),
    )  # fmt: skip


HELD_TOOL = Tool(
    name=HELD,
    title="Writes waiting for approval",
    description=(
        "List the memories you saved that wait for the user's approval (this workspace "
        "holds them), or, with id and decision, approve or reject one: the user is "
        "always asked first. Call it when the user wants to review what you saved."
    ),
    input_model=HeldInput,
    handler=memory_held,
    output_model=HeldOutput,
    hints=ToolHints(),
)
