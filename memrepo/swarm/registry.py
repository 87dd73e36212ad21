"""The task registry seam, and a simple registry in local state for hosts without one.

A host application already knows its tasks (titles, parent task ids), so swarm code only
asks it through `TaskRegistry`, one method. The CLI and hosts without a task store use
`LocalTaskRegistry`: a JSON file in `.git/memrepo/` (local state, never committed),
changed under a file lock and replaced atomically, so concurrent `memrepo task add` calls
from several processes never lose one another's tasks.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TypedDict, runtime_checkable

from memrepo.diskio import flock_within, write_atomic
from memrepo.errors import InvalidArgument, LockTimeout, StoreError, TaskNotFound
from memrepo.hygiene import redact_secrets
from memrepo.models.swarm import TaskInfo
from memrepo.swarm.paths import check_task_id

TASKS_FILE = "tasks.json"
TITLE_CHARS = 300
#: How long a registry change waits for another one (a change holds it for milliseconds).
LOCK_TIMEOUT = 30.0


class _Record(TypedDict):
    title: str
    parent: str | None


@runtime_checkable
class TaskRegistry(Protocol):
    """What swarm code asks a host about its tasks."""

    def task(self, task_id: str) -> TaskInfo | None:
        """The task (title and parent id), or None when the host does not know it."""
        ...


@runtime_checkable
class TaskTreeRegistry(TaskRegistry, Protocol):
    """A registry that can also list children and forget tasks (the local one does).

    `delete_task_tree` uses it to find every task under a root and to drop them; with a
    plain `TaskRegistry` the host keeps its own tasks and only the root is handled.
    """

    def children(self, task_id: str) -> list[str]:
        """Direct children of a task, in the order they were added."""
        ...

    def remove(self, task_ids: Iterable[str]) -> None:
        """Forget these tasks (unknown ids are ignored)."""
        ...


class LocalTaskRegistry:
    """Tasks kept in `<state>/tasks.json`: `{"tasks": {id: {"title", "parent"}}}`."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / TASKS_FILE
        self._lock_path = state_dir / (TASKS_FILE + ".lock")

    def task(self, task_id: str) -> TaskInfo | None:
        raw = self._load().get(task_id)
        if raw is None:
            return None
        return TaskInfo(id=task_id, title=raw["title"], parent=raw["parent"])

    def tasks(self) -> list[TaskInfo]:
        """Every task, in the order they were added."""
        return [
            TaskInfo(id=key, title=raw["title"], parent=raw["parent"])
            for key, raw in self._load().items()
        ]

    def children(self, task_id: str) -> list[str]:
        return [key for key, raw in self._load().items() if raw["parent"] == task_id]

    def add(self, task_id: str, title: str, parent: str | None = None) -> TaskInfo:
        """Register a task; adding the same task again is a no-op, changing one refused.

        A task's title and parent are what its swarm folder is named after, so they are
        fixed once set (a rename would orphan the folder's notes).
        """
        check_task_id(task_id)
        # The registry is local state, but its titles name swarm folders and READMEs.
        clean = " ".join(redact_secrets(title)[0].split())[:TITLE_CHARS]
        if not clean:
            raise InvalidArgument(f"task {task_id}: the title is empty; give it a title")
        if parent is not None:
            check_task_id(parent)
            if parent == task_id:
                raise InvalidArgument(f"task {task_id}: a task cannot be its own parent")
        with self._locked() as tasks:
            if parent is not None and parent not in tasks:
                raise TaskNotFound(
                    f"parent task {parent!r} is not registered; add it first with "
                    f"`memrepo task add {parent} --title ...`"
                )
            existing = tasks.get(task_id)
            if existing is not None:
                if existing["title"] == clean and existing["parent"] == parent:
                    return TaskInfo(id=task_id, title=clean, parent=parent)
                raise InvalidArgument(
                    f"task {task_id} already exists with another title or parent; its swarm "
                    "folder is named after them, so delete it first to change them"
                )
            tasks[task_id] = {"title": clean, "parent": parent}
        return TaskInfo(id=task_id, title=clean, parent=parent)

    def remove(self, task_ids: Iterable[str]) -> None:
        doomed = set(task_ids)
        with self._locked() as tasks:
            for key in doomed:
                tasks.pop(key, None)

    # --- storage -----------------------------------------------------------------------

    def _load(self) -> dict[str, _Record]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(text)
            tasks = data["tasks"]
            if not isinstance(tasks, dict) or not all(map(_is_record, tasks.values())):
                raise TypeError("each task needs a string title and a parent id or null")
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(
                f"{self.path}: not a task registry ({exc}); fix or delete the file",
                path=str(self.path),
            ) from exc
        return tasks

    @contextmanager
    def _locked(self) -> Iterator[dict[str, _Record]]:
        """The tasks, for changing under an exclusive lock; written back atomically."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if not flock_within(fd, LOCK_TIMEOUT):
                raise LockTimeout(str(self._lock_path), LOCK_TIMEOUT, "another task change")
            tasks = self._load()
            before = json.dumps(tasks)
            yield tasks
            if json.dumps(tasks) != before:
                write_atomic(self.path, json.dumps({"tasks": tasks}, indent=2) + "\n")
        finally:
            os.close(fd)  # closing the descriptor releases the flock


def _is_record(raw: object) -> bool:
    return (
        isinstance(raw, dict)
        and isinstance(raw.get("title"), str)
        and isinstance(raw.get("parent", 0), str | None)
    )
