"""memory_edit, memory_move and memory_undo: an agent corrects memory, undoably.

The approval rule is memory_forget's (`memrepo.tools.forget`): the task's own inference,
untouched by anyone else, changes at once; anything else asks the host's user first
(`ForgetRequest.action` says edit, move or undo, `change` what would happen), and a
refusal changes nothing. An approved change is the user's (`Memrepo-By: user`), so the
line keeps the standing it had; the task's own change stays `by: agent`, `tainted` when
the task read untrusted text. `by`, `confirmed` and `tainted` are never the model's to
set: only a person confirms a memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from memrepo.errors import (
    ApprovalDenied,
    EntryNotFound,
    InvalidArgument,
    MemrepoError,
    PathOutsideRoot,
    ReadOnlyRef,
    ToolInputError,
    UndoNeedsConfirmation,
)
from memrepo.folder.undo import is_hand_edit, whose
from memrepo.layout import TEAM_REF_PREFIX
from memrepo.models import RecallHit
from memrepo.models.constants import SHORT_COMMIT
from memrepo.tools.approval import ApprovalAction, ForgetRequest
from memrepo.tools.files import checked_path, visible_path, visible_ref
from memrepo.tools.forget import approval_request, own_inference
from memrepo.tools.handlers import reader
from memrepo.tools.models import MemoryFile, Ref, ToolInput, ToolOutput
from memrepo.tools.tool import Tool, ToolHints

if TYPE_CHECKING:
    from memrepo.tools.tool import ToolEnv

EDIT = "memory_edit"
MOVE = "memory_move"
UNDO = "memory_undo"
PERSON_KEYS = ("by", "confirmed", "tainted")


class MetadataChange(ToolInput):
    """One metadata key to set, or to remove (value null)."""

    key: str = Field(min_length=1, max_length=40, description="e.g. kind, subject, expires.")
    value: str | None = Field(
        default=None, max_length=300, description="The new value; null removes the key."
    )


class EditInput(ToolInput):
    """Arguments of memory_edit."""

    ref: Ref = Field(description="The folder:... ref of the entry to change.")
    text: str | None = Field(
        default=None,
        min_length=1,
        max_length=4000,
        description="The entry's new text, one self-contained sentence; omit to keep it.",
    )
    metadata: list[MetadataChange] | None = Field(
        default=None,
        max_length=10,
        description="Metadata keys to set or remove; by, confirmed and tainted are the "
        "user's to set, not yours.",
    )


class EditOutput(ToolOutput):
    """The result of memory_edit: the ref to use from now on (a reworded entry without a
    subject gets a new one)."""

    ref: str
    old_ref: str
    path: str
    text: str
    changed: bool
    commit: str | None = None
    approval: str
    redacted: list[str] = Field(default_factory=list)


class MoveInput(ToolInput):
    """Arguments of memory_move."""

    ref: Ref = Field(description="The folder:... ref to move.")
    file: MemoryFile = Field(
        min_length=1,
        description="The memory file it belongs in, e.g. 'topics/deploys.md' (created "
        "and linked from MEMORY.md when new).",
    )


class MoveOutput(ToolOutput):
    """The result of memory_move."""

    ref: str
    old_ref: str
    source: str
    target: str
    merged: bool
    commit: str | None = None
    approval: str


class UndoInput(ToolInput):
    """Arguments of memory_undo."""

    commit: str | None = Field(
        default=None,
        min_length=4,
        max_length=64,
        description="The commit to reverse, as memory_recent shows it; omit for the newest change.",
    )


class UndoOutput(ToolOutput):
    """The result of memory_undo."""

    undone: str
    summary: str
    whose: str = Field(
        description="Whose change was reversed: the agent's write, your own hand edit, ..."
    )
    commit: str
    paths: list[str]
    entries_removed: int
    entries_restored: int
    approval: str


def edit(env: ToolEnv, args: EditInput) -> EditOutput:
    """Reword or re-tag one visible folder entry, asking first unless it is the task's own."""
    changes = {change.key.strip(): change.value for change in args.metadata or ()}
    named = [key for key in PERSON_KEYS if key in changes]
    if named:
        raise ToolInputError(
            EDIT, [f"metadata: {', '.join(named)} are the user's to set; ask them to confirm"]
        )
    if args.text is None and not changes:
        raise ToolInputError(EDIT, ["give a new `text`, `metadata` changes, or both"])
    hit = _visible_entry(env, EDIT, args.ref.strip())
    own = _allowed(env, hit, "edit", args.text or f"metadata: {changes}")
    try:
        result = env.repo.edit(
            hit.ref,
            text=args.text,
            metadata=changes,
            by="agent" if own else "user",
            task_id=env.context.task_id,
            tainted=own and env.context.untrusted,
        )
    except MemrepoError as exc:
        raise _as_input_error(EDIT, exc) from exc
    return EditOutput.from_result(result, approval=_approval(own))


def move(env: ToolEnv, args: MoveInput) -> MoveOutput:
    """Move one visible folder entry to another visible file, asking first unless own."""
    hit = _visible_entry(env, MOVE, args.ref.strip())
    target = checked_path(env, MOVE, args.file, "file")
    own = _allowed(env, hit, "move", target)
    try:
        result = env.repo.move(
            hit.ref, target, by="agent" if own else "user", task_id=env.context.task_id
        )
    except MemrepoError as exc:
        raise _as_input_error(MOVE, exc) from exc
    return MoveOutput.from_result(result, approval=_approval(own))


def undo(env: ToolEnv, args: UndoInput) -> UndoOutput:
    """Reverse one commit entry by entry: the task's own at once, anything else approved."""
    spec = args.commit.strip() if args.commit else None
    if spec is not None and not all(c in "0123456789abcdefABCDEF" for c in spec):
        raise ToolInputError(UNDO, ["commit: a commit id as memory_recent shows it"])
    info = env.repo.undo_target(spec)
    paths = info.paths
    if not all(visible_path(env, path) for path in paths):
        raise EntryNotFound(spec or "HEAD", "no change visible to this task")
    if spec is None and is_hand_edit(info):
        # The CLI's and MemoryRepo.undo's rule (issue #31): "undo" without a commit never
        # lands on the lines a person typed; the commit named is asked about as usual.
        how = f"only if the user asks for it, call memory_undo with commit {info.id[:SHORT_COMMIT]}"
        raise UndoNeedsConfirmation(info.id, whose(info), info.summary, how)
    task = env.context.task_id
    own = bool(task) and info.by == "agent" and info.task == " ".join((task or "").split())
    request = ForgetRequest(
        ref=info.id,
        text=info.summary,
        store="folder",
        path=paths[0] if len(paths) == 1 else None,
        by=info.by,
        task_id=task,
        action="undo",
        change=f"reverse {info.id[:SHORT_COMMIT]}, {whose(info)} ({info.summary})",
    )
    if not own and not env.approval(request):
        raise ApprovalDenied(info.id[:SHORT_COMMIT], "the user did not approve", action="undo")
    try:
        result = env.repo.undo(info.id, by="agent" if own else "user")
    except MemrepoError as exc:
        raise _as_input_error(UNDO, exc) from exc
    return UndoOutput.from_result(
        result, summary=info.summary, whose=whose(info), approval=_approval(own)
    )


def _visible_entry(env: ToolEnv, tool: str, ref: str) -> RecallHit:
    """The folder entry `ref` names, when this task may see it ("not found" otherwise)."""
    if ref.startswith(TEAM_REF_PREFIX):
        raise ReadOnlyRef(ref)
    if not ref.startswith("folder:"):
        raise ToolInputError(
            tool, ["ref: only folder entries (folder:...) change in place; for a memory:... "
                   "item remember the new version with the same subject, or forget it"]
        )  # fmt: skip
    hits = env.repo.expand([ref], **reader(env)) if visible_ref(env, ref) else []
    if not hits:
        raise EntryNotFound(ref, "no memory with this ref is visible to this task")
    return hits[0]


def _allowed(env: ToolEnv, hit: RecallHit, action: ApprovalAction, change: str) -> bool:
    """True when `hit` is the task's own inference; else the user's approval or denied."""
    if own_inference(env, hit):
        return True
    request = approval_request(env, hit, action, change)
    if not env.approval(request):
        raise ApprovalDenied(hit.ref, "the user did not approve", action=action)
    return False


def _approval(own: bool) -> str:
    return "own_inference" if own else "approved"


def _as_input_error(tool: str, exc: MemrepoError) -> MemrepoError:
    """A refusal the model can act on stays itself (not found, denied, read-only); a bad
    value becomes a ToolInputError naming the tool."""
    if isinstance(exc, (InvalidArgument, PathOutsideRoot)):
        return ToolInputError(tool, [str(exc)])
    return exc


EDIT_TOOL = Tool(
    name=EDIT,
    title="Correct a memory",
    description=(
        "Reword one memory file entry or change its metadata in place, by ref, when it is "
        "wrong, outdated or unclear (a new commit the user can undo). An entry you saved "
        "yourself in this task changes at once; anything else asks the user first and "
        "may be refused. Prefer this over forgetting and remembering again: the history "
        "stays connected."
    ),
    input_model=EditInput,
    handler=edit,
    output_model=EditOutput,
    hints=ToolHints(destructive=True, idempotent=True),
)
MOVE_TOOL = Tool(
    name=MOVE,
    title="Move a memory to another file",
    description=(
        "Move one memory file entry, by ref, to the file where it belongs (created and "
        "listed in MEMORY.md when new); its text does not change. Same approval rule as "
        "memory_edit."
    ),
    input_model=MoveInput,
    handler=move,
    output_model=MoveOutput,
    hints=ToolHints(idempotent=False),
)
UNDO_TOOL = Tool(
    name=UNDO,
    title="Undo a memory change",
    description=(
        "Reverse one change to the memory files (a commit from memory_recent, or the "
        "newest one) as a new change, entry by entry. Your own changes in this task are "
        "undone at once; anything else asks the user first and may be refused."
    ),
    input_model=UndoInput,
    handler=undo,
    output_model=UndoOutput,
    hints=ToolHints(destructive=True),
)
