"""Models of swarm folders: tasks, notes, the swarm view an agent reads, write results.

A swarm is the shared notebook of a root task and every task under it (docs/architecture.md §10).
These are the boundary shapes: API results, `--json` output and tool schemas.
"""

from __future__ import annotations

from pydantic import Field

from memrepo.models._base import Frozen
from memrepo.models.constants import SWARM_KINDS as SWARM_KINDS
from memrepo.models.constants import SwarmKind as SwarmKind
from memrepo.models.folder import WriteResult
from memrepo.models.items import PurgeReport


class TaskInfo(Frozen):
    """One task as a task registry knows it: its id, title and parent (None: a root)."""

    id: str
    title: str
    parent: str | None = None


class SwarmRef(Frozen):
    """Where a task's swarm lives, derived from its parent chain (never from the caller).

    `chain` runs from the task itself to the root; `folder` is the repo path
    `swarms/<slug>-<root8>` and `name` its last part (what refs and audiences use).
    """

    folder: str
    name: str
    root_id: str
    goal: str
    chain: tuple[str, ...]


class SwarmNote(Frozen):
    """One note as it stands in findings.md or questions.md."""

    ref: str
    id: str
    kind: SwarmKind
    text: str
    task_id: str = ""
    author: str = ""
    added: str = ""
    tainted: bool = False
    sources: tuple[str, ...] = ()
    answers: str | None = None
    line: int = 0


class SwarmQuestion(Frozen):
    """A question with the answers peers gave to it (none yet: still open)."""

    question: SwarmNote
    answers: tuple[SwarmNote, ...] = ()

    @property
    def open(self) -> bool:
        return not self.answers


class SwarmView(Frozen):
    """What a swarm holds, shaped for the `<swarm>` block and `memrepo swarm show`.

    `findings` are the latest findings and ruled-out paths, oldest first; `questions` the
    latest questions, oldest first, each with its answers. The totals count everything in
    the folder, shown or not.
    """

    swarm: SwarmRef
    exists: bool
    members: tuple[str, ...] = ()
    findings: tuple[SwarmNote, ...] = ()
    questions: tuple[SwarmQuestion, ...] = ()
    total_findings: int = 0
    total_questions: int = 0
    open_questions: int = 0


class SwarmBlock(Frozen):
    """The rendered `<swarm>` block, the refs it shows and its token estimate."""

    text: str
    refs: tuple[str, ...] = ()
    tokens: int = 0


class SwarmNoteResult(WriteResult):
    """What `swarm_note` did: a folder write (inserted, or reinforced when already there,
    or skipped with the screen's reason) plus the kind of note it was."""

    kind: SwarmKind


class SwarmSummary(Frozen):
    """One swarm folder at HEAD, for `memrepo swarm list`."""

    folder: str
    goal: str = ""
    root_id: str = ""
    members: int = 0
    findings: int = 0
    questions: int = 0


class TaskTreeDeleted(Frozen):
    """What deleting a task tree removed: the tasks, the swarm folder (when the task
    was a root and its swarm had notes), and their memory_items."""

    tasks: tuple[str, ...]
    swarm_folder: str | None = None
    commit: str | None = None
    items: PurgeReport = Field(default_factory=PurgeReport)
