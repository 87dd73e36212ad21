"""Commands over the local task registry: `memrepo task add | delete | list`.

Hosts with their own task store pass it to `MemoryRepo.plug_task_registry`; these
commands keep tasks in `.git/memrepo/tasks.json` for everyone else.
"""

from __future__ import annotations

import argparse

from memrepo.cli._common import (
    SHORT,
    Subparsers,
    action,
    action_command,
    open_repo,
    print_json,
)


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
    if args.json:
        print_json(task)
    else:
        parent = f" (under {task.parent})" if task.parent else " (a root task)"
        print(f"task {task.id}: {task.title}{parent}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    result = open_repo(args).delete_task_tree(args.id)
    if args.json:
        print_json(result)
        return 0
    print(f"deleted task(s) {', '.join(result.tasks)}")
    if result.swarm_folder and result.commit:
        print(f"removed {result.swarm_folder} (commit {result.commit[:SHORT]})")
    if result.items.deleted:
        print(f"deleted {result.items.deleted} memory item(s)")
    return 0


def _list(args: argparse.Namespace) -> int:
    tasks = open_repo(args).local_tasks()
    if args.json:
        print_json(tasks)
    elif not tasks:
        print("no tasks")
    for task in [] if args.json else tasks:
        print(f"{task.id}  {task.title}" + (f"  (under {task.parent})" if task.parent else ""))
    return 0
