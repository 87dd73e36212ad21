"""memory_recent and memory_why: what changed lately, and where one memory came from.

Both read git history through `MemoryRepo.log` and `MemoryRepo.why` and show only what
this task may see: a commit that touched only files hidden from it (another workspace,
the swarm folders) is left out, and one that touched hidden files beside visible ones
is shown without its summary and without the hidden paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from memrepo.errors import EntryNotFound, ReadOnlyRef, ToolInputError
from memrepo.layout import ITEM_REF_PREFIX, TEAM_REF_PREFIX
from memrepo.models import CommitInfo
from memrepo.models.constants import SHORT_COMMIT
from memrepo.tools.files import checked_path, visible_path, visible_ref
from memrepo.tools.handlers import reader
from memrepo.tools.models import (
    DATA_NOTICE,
    MemoryFile,
    Ref,
    ToolInput,
    ToolOutput,
    moment,
)
from memrepo.tools.tool import READ_ONLY, Tool

if TYPE_CHECKING:
    from memrepo.tools.tool import ToolEnv

RECENT = "memory_recent"
WHY = "memory_why"
HIDDEN_SUMMARY = "(a change that also touched files this task cannot see)"
HIDDEN_HISTORY = "Part of this history is in files this task cannot see; the events list the rest."
_SCAN_FACTOR = 5
"""How many commits are read per one asked for, at most, to fill a page past hidden ones."""


class RecentInput(ToolInput):
    """Arguments of memory_recent."""

    limit: int = Field(default=20, ge=1, le=100, description="At most this many changes.")
    path: MemoryFile | None = Field(default=None, description="Only changes to this memory file.")


class Change(ToolOutput):
    """One commit: who made it (by: user, agent, dream, import) and why (origin)."""

    commit: str
    time: str
    summary: str
    origin: str | None = None
    by: str | None = None
    task: str | None = None
    paths: list[str]


class RecentOutput(ToolOutput):
    """The result of memory_recent, newest first."""

    notice: str = DATA_NOTICE
    changes: list[Change]


class WhyInput(ToolInput):
    """Arguments of memory_why."""

    ref: Ref = Field(description="The ref of one memory (folder:... or memory:...).")


class WhyEvent(ToolOutput):
    """One commit in the life of a folder entry."""

    action: str
    commit: str
    time: str
    path: str
    text: str
    previous_text: str | None = None
    from_path: str | None = None
    by: str | None = None
    origin: str | None = None
    task: str | None = None


class WhyOutput(ToolOutput):
    """The result of memory_why: the story in words, and the commits behind it."""

    notice: str = DATA_NOTICE
    ref: str
    present: bool
    text: str
    explanation: str
    events: list[WhyEvent] = Field(default_factory=list)


def recent(env: ToolEnv, args: RecentInput) -> RecentOutput:
    """The newest visible changes (optionally of one file)."""
    path = checked_path(env, RECENT, args.path) if args.path else None
    commits = env.repo.log(limit=args.limit * _SCAN_FACTOR, path=path)
    changes = [change for c in commits if (change := _visible_change(env, c)) is not None]
    return RecentOutput(changes=changes[: args.limit])


def _visible_change(env: ToolEnv, commit: CommitInfo) -> Change | None:
    shown = [path for path in commit.paths if visible_path(env, path)]
    if commit.paths and not shown:
        return None
    return Change.from_result(
        commit,
        commit=commit.id[:SHORT_COMMIT],
        time=moment(commit.time),
        summary=commit.summary if len(shown) == len(commit.paths) else HIDDEN_SUMMARY,
        paths=shown,
    )


def why(env: ToolEnv, args: WhyInput) -> WhyOutput:
    """The history of one memory this task can see."""
    ref = args.ref.strip()
    if ref.startswith(TEAM_REF_PREFIX):
        raise ReadOnlyRef(ref)  # team history lives in the team's own repo
    if ref.startswith("folder:"):
        if not visible_ref(env, ref):
            raise EntryNotFound(ref, "no memory with this ref is visible to this task")
    elif ref.startswith(ITEM_REF_PREFIX):
        if not env.repo.expand([ref], **reader(env)):
            raise EntryNotFound(ref, "no memory with this ref is visible to this task")
    else:
        raise ToolInputError(WHY, ["ref: use a folder:... or memory:... ref as recall gave it"])
    report = env.repo.why(ref)
    events = [
        WhyEvent.from_result(event, commit=event.commit[:SHORT_COMMIT], time=moment(event.time))
        for event in report.events
        if visible_path(env, event.path)
    ]
    hidden = len(events) != len(report.events)
    return WhyOutput(
        ref=report.ref,
        present=report.present,
        text=report.text,
        explanation=HIDDEN_HISTORY if hidden else report.explanation,
        events=events,
    )


RECENT_TOOL = Tool(
    name=RECENT,
    title="Recent memory changes",
    description=(
        "List the latest changes to the memory files, newest first: what changed, who "
        "(by: user, agent, dream, import), why (origin) and from which task. Use it to "
        "see what was learned lately or to find a change to undo."
    ),
    input_model=RecentInput,
    handler=recent,
    output_model=RecentOutput,
    hints=READ_ONLY,
)
WHY_TOOL = Tool(
    name=WHY,
    title="Where a memory came from",
    description=(
        "Show the history of one memory by ref: who added it, when, from which task and "
        "source, and every rewording and move since. Use it before relying on a memory "
        "you doubt, or when the user asks why you believe something."
    ),
    input_model=WhyInput,
    handler=why,
    output_model=WhyOutput,
    hints=READ_ONLY,
)
