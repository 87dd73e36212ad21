"""Which swarm a task belongs to: the root of its parent chain names the folder.

The folder name is derived only from what the registry says about the chain (the root's
title and id), never from anything a caller or a model passes in, so an agent cannot
write into another task's swarm by naming it.
"""

from __future__ import annotations

from memrepo.errors import TaskCycle, TaskNotFound
from memrepo.hygiene import redact_secrets
from memrepo.models.swarm import SwarmRef, TaskInfo
from memrepo.swarm.paths import check_task_id, folder_name, folder_path
from memrepo.swarm.registry import TaskRegistry

#: The reference's bound on the parent walk (memory-repo-swarm.ts: resolveSwarm).
MAX_HOPS = 20


def resolve_swarm(registry: TaskRegistry, task_id: str, *, max_hops: int = MAX_HOPS) -> SwarmRef:
    """Walk from `task_id` up to its root (at most `max_hops` parent hops).

    Raises TaskNotFound for an unknown task or a parent the registry lost, TaskCycle for
    a loop or a chain longer than `max_hops`, InvalidArgument for an unsafe id.
    """
    chain: list[str] = []
    current = _known(registry, check_task_id(task_id), None)
    while True:
        chain.append(current.id)
        if current.parent is None:
            break
        if current.parent in chain:
            loop = " -> ".join([*chain, current.parent])
            raise TaskCycle(f"task {task_id}: its parent chain loops ({loop}); fix the parents")
        if len(chain) > max_hops:
            raise TaskCycle(
                f"task {task_id}: more than {max_hops} parent hops without reaching a root; "
                "swarms follow at most that many"
            )
        current = _known(registry, check_task_id(current.parent), current.id)
    root = current
    goal = " ".join(redact_secrets(root.title)[0].split())
    name = folder_name(root.title, root.id)
    return SwarmRef(
        folder=folder_path(name), name=name, root_id=root.id, goal=goal, chain=tuple(chain)
    )


def _known(registry: TaskRegistry, task_id: str, child: str | None) -> TaskInfo:
    info = registry.task(task_id)
    if info is None:
        if child is None:
            raise TaskNotFound(
                f"task {task_id!r} is not registered; add it with "
                f"`memrepo task add {task_id} --title ...` (or through the host's registry)"
            )
        raise TaskNotFound(
            f"task {child!r} names parent {task_id!r}, which is not registered; "
            "register the parent or delete the orphaned task"
        )
    return info


class SwarmResolver:
    """`resolve_swarm` cached per task: a task's chain never changes while it exists.

    `forget` drops cached tasks when they are deleted (their ids may be reused).
    """

    def __init__(self, registry: TaskRegistry, max_hops: int = MAX_HOPS) -> None:
        self.registry = registry
        self.max_hops = max_hops
        self._cache: dict[str, SwarmRef] = {}

    def resolve(self, task_id: str) -> SwarmRef:
        cached = self._cache.get(task_id)
        if cached is None:
            cached = resolve_swarm(self.registry, task_id, max_hops=self.max_hops)
            self._cache[task_id] = cached
        return cached

    def forget(self, task_ids: set[str] | None = None) -> None:
        """Drop these tasks from the cache (None: all), and every task whose chain
        passes through one of them."""
        if task_ids is None:
            self._cache.clear()
            return
        for key, ref in list(self._cache.items()):
            if task_ids.intersection(ref.chain):
                del self._cache[key]
