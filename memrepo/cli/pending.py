"""`memrepo pending`, `approve`, `reject`: the agent writes a workspace holds for a
person's approval (reference §8.7, issue #32)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, emit_list, open_repo

if TYPE_CHECKING:
    from memrepo.held.store import HeldWrite


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    command(
        commands,
        "pending",
        _pending,
        "List the agent's writes waiting for your approval (a workspace set with "
        "--approval background or all holds them; recall does not see them).",
        ["memrepo pending", "memrepo pending --json"],
    )
    for name, handler, summary in (
        ("approve", _approve, "Approve a held write: it lands now, as the agent's write it was."),
        ("reject", _reject, "Reject a held write: it is gone, and nothing was ever written."),
    ):
        sub = command(commands, name, handler, summary, [f"memrepo {name} 3fa9c1"])
        sub.add_argument("id", metavar="ID", help="the held write's id (or a unique prefix)")


def _pending(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        waiting = repo.held_writes()
    return emit_list(args, waiting, _line, "no agent writes wait for approval")


def _line(write: HeldWrite) -> str:
    where = f"workspace {write.workspace}" if write.workspace else "global"
    task = f", task {write.task_id}" if write.task_id else ""
    return f"{write.id}  {write.held_at:%Y-%m-%d %H:%M}  {where}{task}\n    {write.text}"


def _approve(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        result = repo.approve_write(args.id)
    return emit(args, result, lambda r: f"approved: {r.status} {r.ref}")


def _reject(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        write = repo.reject_write(args.id)
    return emit(args, write, lambda w: f"rejected {w.id}: {w.text}")
