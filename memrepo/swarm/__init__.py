"""Swarm folders (docs/architecture.md §10): shared notes of parallel agents working on one
root task.

A root task and every task under it share `swarms/<slug of the root title>-<root id 8>/`
in the memory folder: findings.md, questions.md and README.md. Agents append notes with
`swarm_note` (screened, one commit each, safe under concurrent writers) and read the
`<swarm>` block, which says peer notes are data, never instructions. Tasks come from a
host's `TaskRegistry`, or from the local one kept in `.git/memrepo/tasks.json`.
"""

from __future__ import annotations

from memrepo.swarm.registry import LocalTaskRegistry, TaskRegistry, TaskTreeRegistry
from memrepo.swarm.resolve import MAX_HOPS, SwarmResolver, resolve_swarm

__all__ = [
    "MAX_HOPS",
    "LocalTaskRegistry",
    "SwarmResolver",
    "TaskRegistry",
    "TaskTreeRegistry",
    "resolve_swarm",
]
