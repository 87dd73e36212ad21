"""The swarm verbs of `MemoryRepo`: a task's shared notes (docs/architecture.md §10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from memrepo.models.swarm import (
        SwarmNoteResult,
        SwarmRef,
        SwarmSummary,
        SwarmView,
        TaskInfo,
        TaskTreeDeleted,
    )


class SwarmApi(Area):
    """Swarms: the folder a task tree shares, found from the task's parent chain."""

    def add_task(self, task_id: str, title: str, *, parent: str | None = None) -> TaskInfo:
        """Register a task in the local registry (`.git/memrepo/tasks.json`); refused when
        the host's registry is plugged in (tasks are added there)."""
        return self.parts.swarms.add_task(task_id, title, parent)

    def join_task(self, task_id: str, title: str, *, parent: str | None = None) -> TaskInfo | None:
        """Register the task unless the registry knows it (a session naming its own task);
        None when nothing was added, as with a host's registry."""
        return self.parts.swarms.join(task_id, title, parent)

    def local_tasks(self) -> list[TaskInfo]:
        """Every task of the local registry, in the order they were added."""
        return self.parts.swarms.local_tasks()

    def list_swarms(self) -> list[SwarmSummary]:
        """Every swarm folder of the repo, with its root task and members."""
        return self.parts.swarms.summaries()

    def resolve_swarm(self, task_id: str) -> SwarmRef:
        """The swarm folder of a task, from its parent chain (never from the caller)."""
        return self.parts.swarms.resolve(task_id)

    def swarm_note(
        self,
        task_id: str,
        kind: str,
        text: str,
        *,
        sources: Sequence[str] | None = None,
        author: str | None = None,
        tainted: bool = False,
        answers: str | None = None,
    ) -> SwarmNoteResult:
        """Append a screened note (finding, ruled_out, question, or an answer naming its
        question) to the task's swarm in one commit with origin swarm."""
        return self.parts.swarms.note(
            task_id, kind, text, sources=sources, author=author, tainted=tainted, answers=answers
        )

    def swarm_view(self, task_id: str) -> SwarmView:
        """The task's swarm: goal, members, latest findings, questions with answers."""
        return self.parts.swarms.view(task_id)

    def swarm_block(self, task_id: str, *, budget: int | None = None) -> str:
        """The `<swarm>` prompt block of the task's swarm within `budget` tokens (default
        400); "" before its first note."""
        return self.parts.swarms.block(task_id, budget).text

    def delete_task_tree(self, task_id: str, *, by: str = "user") -> TaskTreeDeleted:
        """Delete a task and its subtasks: their items, their registry records, and the
        swarm folder (in one commit) when the task is a root."""
        return self.parts.swarms.delete_tree(task_id, self.items.purge_task, by=by)
