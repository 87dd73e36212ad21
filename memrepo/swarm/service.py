"""Swarms of one memory root: the task registry, the per-task cache, notes and blocks.

`MemoryRepo` holds one `Swarms` and delegates to it, so the rules live here and the
engine stays a thin face. The registry is the host's (`use_registry`) or, by default,
the local one in `.git/memrepo/tasks.json`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memrepo.errors import InvalidArgument, SwarmError
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.swarm_writes import (
    read_swarm_files,
    remove_swarm_folder,
    swarm_folder_names,
    swarm_folder_version,
)
from memrepo.models.items import PurgeReport
from memrepo.models.swarm import (
    SwarmBlock,
    SwarmNoteResult,
    SwarmRef,
    SwarmSummary,
    SwarmView,
    TaskInfo,
    TaskTreeDeleted,
)
from memrepo.swarm.block import SWARM_BLOCK_TOKENS, render_block
from memrepo.swarm.notes import NoteInput, write_note
from memrepo.swarm.paths import README, audience
from memrepo.swarm.readme import members
from memrepo.swarm.registry import LocalTaskRegistry, TaskRegistry, TaskTreeRegistry
from memrepo.swarm.resolve import SwarmResolver
from memrepo.swarm.view import LATEST, count_notes, read_view

#: Deletes a task's memory_items (the engine passes its item writer's purge).
PurgeItems = Callable[[str], PurgeReport]


#: Swarm views kept per process (a task sees one swarm; a host runs a few at a time).
_VIEWS_KEPT = 16


class Swarms:
    """Swarm folders of one memory root."""

    def __init__(self, folder: MemoryFolder, registry: TaskRegistry | None = None) -> None:
        self.folder = folder
        self.resolver = SwarmResolver(registry or LocalTaskRegistry(folder.state_dir))
        self._views: dict[tuple[str, str | None, int], SwarmView] = {}

    @property
    def registry(self) -> TaskRegistry:
        return self.resolver.registry

    def use_registry(self, registry: TaskRegistry) -> Callable[[], None]:
        """Ask the host's registry from now on (the cache of the old one is dropped);
        the returned function goes back to the registry used before."""
        before = self.resolver
        self.resolver = SwarmResolver(registry, before.max_hops)

        def restore() -> None:
            if self.resolver.registry is registry:
                self.resolver = SwarmResolver(before.registry, before.max_hops)

        return restore

    def add_task(self, task_id: str, title: str, parent: str | None = None) -> TaskInfo:
        """Register a task in the local registry (hosts register tasks in their own)."""
        return self._local().add(task_id, title, parent)

    def join(self, task_id: str, title: str, parent: str | None = None) -> TaskInfo | None:
        """Register a task the local registry does not know yet (a session naming its own
        task at its first note); a host's registry is the host's to fill, so nothing is
        added there. None when nothing was added."""
        registry = self.registry
        if not isinstance(registry, LocalTaskRegistry) or registry.task(task_id) is not None:
            return None
        return registry.add(task_id, title, parent)

    def local_tasks(self) -> list[TaskInfo]:
        """Every task of the local registry, in the order they were added."""
        return self._local().tasks()

    def _local(self) -> LocalTaskRegistry:
        registry = self.registry
        if not isinstance(registry, LocalTaskRegistry):
            raise InvalidArgument(
                "this repo asks the host's task registry; add tasks there, not here"
            )
        return registry

    def resolve(self, task_id: str) -> SwarmRef:
        return self.resolver.resolve(task_id)

    def audience(self, task_id: str | None) -> str | None:
        """The recall audience of the task's swarm, or None when the task is in none.

        Recall must not fail because a host's task chain is broken: a task the registry
        cannot place simply sees no swarm notes (swarm_note reports the real error).
        """
        if not task_id:
            return None
        try:
            return audience(self.resolve(task_id).name)
        except SwarmError:
            return None

    def note(
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
        swarm = self.resolve(task_id)
        task = self.registry.task(task_id)
        assert task is not None  # resolve just found it
        note = NoteInput(task, kind, text, tuple(sources or ()), author, tainted, answers)
        return write_note(self.folder, swarm, note, self.folder.clock)

    def view(self, task_id: str, latest: int = LATEST) -> SwarmView:
        """The task's swarm at HEAD. Kept while the swarm folder does not change: every
        turn of every member asks for it (see `SwarmContextSource`)."""
        swarm = self.resolve(task_id)
        key = (swarm.name, swarm_folder_version(self.folder, swarm.name), latest)
        cached = self._views.get(key)
        if cached is not None and cached.swarm == swarm:
            return cached
        view = read_view(self.folder, swarm, latest)
        if len(self._views) >= _VIEWS_KEPT:
            self._views.clear()
        self._views[key] = view
        return view

    def block(self, task_id: str, budget: int | None = None) -> SwarmBlock:
        """The `<swarm>` block of the task's swarm (`budget` tokens, default 400)."""
        return render_block(self.view(task_id), SWARM_BLOCK_TOKENS if budget is None else budget)

    def summaries(self) -> list[SwarmSummary]:
        """Every swarm folder at HEAD with its goal and counts."""
        out: list[SwarmSummary] = []
        for name in swarm_folder_names(self.folder):
            files = read_swarm_files(self.folder, name)
            findings, questions = count_notes(files, name)
            goal, root = _readme_facts(files.get(README))
            out.append(
                SwarmSummary(
                    folder=f"swarms/{name}",
                    goal=goal,
                    root_id=root,
                    members=len(members(files.get(README))),
                    findings=findings,
                    questions=questions,
                )
            )
        return out

    def delete_tree(
        self, task_id: str, purge_items: PurgeItems | None = None, *, by: str = "user"
    ) -> TaskTreeDeleted:
        """Delete a task and every task under it: the swarm folder when `task_id` is a
        root (one commit), their memory_items, and their registry records."""
        swarm = self.resolve(task_id)
        tree = self._subtree(task_id)
        commit = None
        if len(swarm.chain) == 1:
            commit = remove_swarm_folder(
                self.folder, swarm.name, by=by, reason=f"task {task_id} deleted", task=task_id
            )
        report = PurgeReport()
        if purge_items is not None:
            for member in tree:
                done = purge_items(member)
                report = PurgeReport(
                    deleted=report.deleted + done.deleted, detached=report.detached + done.detached
                )
        if isinstance(self.registry, TaskTreeRegistry):
            self.registry.remove(tree)
        self.resolver.forget(set(tree))
        return TaskTreeDeleted(
            tasks=tuple(tree),
            swarm_folder=swarm.folder if commit else None,
            commit=commit,
            items=report,
        )

    def remove_root_folder(self, task_id: str, *, by: str = "user") -> str | None:
        """Remove the swarm folder when `task_id` is a known root (purge_task's part);
        None when it is not a root, not known, or has no folder."""
        try:
            swarm = self.resolve(task_id)
        except SwarmError:
            return None
        if len(swarm.chain) != 1:
            return None
        return remove_swarm_folder(
            self.folder, swarm.name, by=by, reason=f"task {task_id} purged", task=task_id
        )

    def _subtree(self, task_id: str) -> list[str]:
        registry = self.registry
        if not isinstance(registry, TaskTreeRegistry):
            return [task_id]
        out: list[str] = []
        todo = [task_id]
        while todo:
            current = todo.pop(0)
            if current in out:
                continue
            out.append(current)
            todo.extend(registry.children(current))
        return out


def _readme_facts(readme: bytes | None) -> tuple[str, str]:
    """(goal, root id) as the README states them."""
    goal = root = ""
    if readme is None:
        return goal, root
    for line in readme.decode("utf-8", errors="replace").splitlines():
        if line.startswith("Goal: ") and not goal:
            goal = line.removeprefix("Goal: ").strip()
        elif line.startswith("Shared notes of the agents working on root task `") and not root:
            root = line.split("`")[1] if line.count("`") >= 2 else ""
    return goal, root
