"""Commands that look at a memory root without changing it: health and sources."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo

if TYPE_CHECKING:
    from memrepo.models.health import HealthCheck, HealthReport, SourceCount, SourcesReport

#: Exit code of `memrepo health --ci` when a check failed (errors exit 1 too: non-zero).
UNHEALTHY = 1


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    health = command(
        commands,
        "health",
        _health,
        "Check the memory repo: format, links, size, secrets, duplicates, index, lock, "
        "sync, team repos, dreaming. Reads only.",
        ["memrepo health", "memrepo health --json", "memrepo health --ci"],
    )
    health.add_argument(
        "--ci",
        action="store_true",
        help="use the ci thresholds and exit non-zero when a check fails",
    )
    command(
        commands,
        "sources",
        _sources,
        "Count memories per source and producer (folder and memory_items); never content.",
        ["memrepo sources", "memrepo sources --json"],
    )


def _health(args: argparse.Namespace) -> int:
    preset = "ci" if args.ci else "default"
    with open_repo(args) as repo:
        report = repo.health(preset=preset)
    emit(args, report, format_report)
    return UNHEALTHY if args.ci and not report.ok else 0


def number(value: float | None) -> str:
    """A figure as both outputs show it (`--json` holds the same float)."""
    return "-" if value is None else f"{value:g}"


def format_check(check: HealthCheck) -> str:
    measured = number(check.figure)
    if check.figure is not None and check.unit:
        measured += f" {check.unit}"
    if check.threshold is not None:
        measured += f" (max {number(check.threshold)})"
    line = f"{check.status:<4}  {check.name:<18} {measured:<28} {check.detail}"
    return line.rstrip() + (f"\n      fix: {check.fix}" if check.fix else "")


def format_report(report: HealthReport) -> str:
    counts = ", ".join(f"{n} {status}" for status, n in report.counts.items())
    lines = [format_check(check) for check in report.checks]
    lines.append(f"health: {report.status} ({counts}), preset {report.preset}")
    return "\n".join(lines)


def _sources(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        report = repo.sources()
    return emit(args, report, format_sources)


def _rows(rows: tuple[SourceCount, ...]) -> list[str]:
    return [f"  {r.count:>7}  {r.source:<12} {r.producer:<14} {r.scope}" for r in rows]


def format_sources(report: SourcesReport) -> str:
    lines = [f"folder: {report.folder_entries} entries at HEAD (count, by, origin, scope)"]
    lines += _rows(report.folder)
    if report.store_error is not None:
        lines.append(f"memory_items: unreadable ({report.store_error})")
    elif not report.store_present:
        lines.append("memory_items: no database yet")
    else:
        lines.append(
            f"memory_items: {report.items_active} active, {report.items_private} private "
            "(count, source, producer, scope)"
        )
        lines += _rows(report.items)
    return "\n".join(lines)
