"""memory_forget: remove one memory the task can see, asking the host's user first.

The one exception to asking is a memory this task inferred itself and nobody else touched:
for an item, source `inferred`, this task's id, never reinforced, no other record merged
into it, no earlier revision replaced by it; for a folder entry, `by: agent` and every
commit that added or changed it made by this task (`Memrepo-By: agent`, `Memrepo-Task:
<this task>`, origin remember, edit or move), and nobody else stated it again since (a
repeat makes no commit, docs/architecture.md §3 step 4, so `folder.reinforcements` keeps that record
locally). Anything else, including everything a person wrote, needs approval. A ref the
task cannot see is "not found", so a model cannot probe or delete memories outside its
view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.errors import ApprovalDenied, EntryNotFound, ReadOnlyRef, ToolInputError
from memrepo.folder.authorship import entry_commits
from memrepo.folder.reinforcements import party, repeated_by
from memrepo.folder.repo import parse_ref
from memrepo.layout import ITEM_REF_PREFIX, TEAM_REF_PREFIX
from memrepo.models import RecallHit
from memrepo.tools.approval import ApprovalAction, ForgetRequest
from memrepo.tools.handlers import reader
from memrepo.tools.models import ForgetInput, ForgetOutput
from memrepo.tools.tool import Tool, ToolHints

if TYPE_CHECKING:
    from memrepo.tools.tool import ToolEnv

FORGET = "memory_forget"
OWN_ORIGINS = frozenset({"remember", "edit", "move"})
"""The commits that keep an entry the task's own: its writes, rewordings and moves."""
FOLDER_PREFIX = "folder:"


def forget(env: ToolEnv, args: ForgetInput) -> ForgetOutput:
    """Forget `args.ref` when it is visible and either the task's own or approved."""
    ref = args.ref.strip()
    if ref.startswith(TEAM_REF_PREFIX):
        raise ReadOnlyRef(ref)
    if not ref.startswith((FOLDER_PREFIX, ITEM_REF_PREFIX)):
        raise ToolInputError(
            FORGET, ["ref: use a folder:... or memory:... ref exactly as memory_recall gave it"]
        )
    hits = env.repo.expand([ref], **reader(env))
    if not hits:
        raise EntryNotFound(ref, "no memory with this ref is visible to this task")
    hit = hits[0]
    own = own_inference(env, hit)
    if not own and not env.approval(approval_request(env, hit)):
        raise ApprovalDenied(ref, "the user did not approve")
    result = env.repo.forget(ref, by="agent" if own else "user", task_id=env.context.task_id)
    return ForgetOutput.from_result(result, approval="own_inference" if own else "approved")


def approval_request(
    env: ToolEnv, hit: RecallHit, action: ApprovalAction = "forget", change: str | None = None
) -> ForgetRequest:
    """What the host shows its user before `action` changes the memory `hit`."""
    return ForgetRequest(
        ref=hit.ref,
        text=hit.content or hit.text,
        store="items" if hit.ref.startswith(ITEM_REF_PREFIX) else "folder",
        path=hit.provenance.path,
        by=hit.provenance.by,
        trust=hit.provenance.trust,
        added=hit.provenance.added,
        task_id=env.context.task_id,
        action=action,
        change=change,
    )


def own_inference(env: ToolEnv, hit: RecallHit) -> bool:
    """Whether `hit` is this task's own inference that nobody else touched (see the
    module docstring): the one kind of memory a tool may change without asking."""
    task = env.context.task_id
    if not task:
        return False
    if hit.ref.startswith(ITEM_REF_PREFIX):
        item = env.repo.item(hit.ref).item
        return (
            item.source == "inferred"
            and item.task_id == task
            and item.reinforced_count == 0
            and item.supersedes_id is None
            and (item.source_ref is None or not item.source_ref.aliases)
            and item.status == "active"
        )
    if hit.provenance.by != "agent" or hit.provenance.uncommitted:
        return False
    path, entry_id = parse_ref(hit.ref)
    task = " ".join(task.split())
    repeated = repeated_by(env.repo.folder.state_dir, hit.ref)
    if repeated is None or any(who != party("agent", task) for who in repeated):
        return False
    commits = entry_commits(env.repo.folder, path, entry_id)
    return bool(commits) and all(
        c.by == "agent" and c.task == task and c.origin in OWN_ORIGINS for c in commits
    )


MEMORY_FORGET = Tool(
    name=FORGET,
    description=(
        "Remove one memory by its ref (from memory_recall) when the user asks you to "
        "forget it or it is wrong or outdated. Memories you saved yourself in this task "
        "are removed at once; anything else asks the user first and may be refused."
    ),
    input_model=ForgetInput,
    handler=forget,
    title="Forget a memory",
    output_model=ForgetOutput,
    hints=ToolHints(destructive=True, idempotent=True),
)
