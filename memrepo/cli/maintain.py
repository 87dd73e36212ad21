"""`memrepo maintain`: run the daily maintenance pass now (issue #32)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.maintenance import MaintenanceReport


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "maintain",
        _maintain,
        "Run the maintenance pass now: items retention, the agent's expired entries (one "
        "undoable commit), commitment expiry. It also runs on its own once a day.",
        ["memrepo maintain", "memrepo maintain --if-due", "memrepo maintain --json"],
    )
    sub.add_argument(
        "--if-due",
        action="store_true",
        help="only when a day has passed since the last pass (for a timer or cron)",
    )
    sub.set_defaults(maintains_itself=True)  # opening the repo starts no second pass


def _maintain(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        report = repo.maintain(if_due=args.if_due)
    return emit(args, report, describe)


def describe(report: MaintenanceReport) -> str:
    """What the pass did, one line per part."""
    if report.skipped:
        return f"maintenance skipped: {report.skipped}"
    lines = []
    if report.retention is not None:
        r = report.retention
        lines.append(
            f"retention: {r.total} item rows dropped ({r.tombstones} forgotten, "
            f"{r.expired} expired, {r.revisions} old revisions)"
        )
    expired = len(report.expired_entries)
    commit = (
        f" in commit {report.commit[:SHORT_COMMIT]} (memrepo undo takes it back)"
        if report.commit
        else ""
    )
    lines.append(f"expired or done agent entries: {expired} removed{commit}")
    if report.commitments is not None:
        closed = len(report.commitments.expired)
        lines.append(
            f"commitments: {closed} closed of {report.commitments.candidates} past their due date"
        )
    return "\n".join(lines)
