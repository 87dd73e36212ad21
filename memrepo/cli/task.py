"""Commands over the local task registry: `memrepo task add | delete | list`.

Hosts with their own task store pass it to `MemoryRepo.plug_task_registry`; these
commands keep tasks in `.git/memrepo/tasks.json` for everyone else.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    emit,
    emit_list,
    open_repo,
)
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.swarm import TaskInfo, TaskTreeDeleted


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    actions = action_command(
        commands,
        "task",
        "Register tasks and their parents (a root task and its subtasks share a swarm).",
        [
            'memrepo task add task-42 --title "Fix the flaky CI build"',
            'memrepo task add task-43 --title "Read the runner logs" --parent task-42',
            "memrepo task list",
            "memrepo task delete task-42",
        ],
    )
    add = action(actions, "add", _add, "register a task")
    add.add_argument("id", metavar="ID", help="letters, digits, '.', '_' or '-'")
    add.add_argument("--title", required=True, metavar="T", help="what the task is about")
    add.add_argument("--parent", metavar="P", help="the parent task (already registered)")
    delete = action(
        actions,
        "delete",
        _delete,
        "delete a task, its subtasks, their items, and a root's swarm folder",
    )
    delete.add_argument("id", metavar="ID", help="the task to delete, with its subtasks")
    action(actions, "list", _list, "every registered task")


def _add(args: argparse.Namespace) -> int:
    task = open_repo(args).add_task(args.id, args.title, parent=args.parent)
    return emit(
        args,
        task,
        lambda t: (
            f"task {t.id}: {t.title}" + (f" (under {t.parent})" if t.parent else " (a root task)")
        ),
    )


def _delete(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).delete_task_tree(args.id), _describe_deleted)


def _describe_deleted(result: TaskTreeDeleted) -> str:
    lines = [f"deleted task(s) {', '.join(result.tasks)}"]
    if result.swarm_folder and result.commit:
        lines.append(f"removed {result.swarm_folder} (commit {result.commit[:SHORT_COMMIT]})")
    if result.items.deleted:
        lines.append(f"deleted {result.items.deleted} memory item(s)")
    return "\n".join(lines)


def _list(args: argparse.Namespace) -> int:
    return emit_list(args, open_repo(args).local_tasks(), _task_line, "no tasks")


def _task_line(task: TaskInfo) -> str:
    return f"{task.id}  {task.title}" + (f"  (under {task.parent})" if task.parent else "")
