"""The `eval` command: the recall-quality gate over the eval fixtures."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, count, print_json
from memrepo.cli.progress import terminal_progress

if TYPE_CHECKING:
    from memrepo.models.evals import CategoryScore, EvalReport


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    parser = command(
        commands,
        "eval",
        _eval,
        "Measure recall quality on the eval fixtures: recall@1/@5/@10, MRR and leaks per "
        "category. Exits 1 below --min-recall-at-5, on any leak, on any failed case and on "
        "any case that found its ordered expectations out of order.",
        [
            "memrepo eval",
            "memrepo eval --category privacy --category accents",
            "memrepo eval --min-recall-at-5 0.9 --json",
            "memrepo eval --path my-evals/ --misses",
        ],
    )
    parser.add_argument(
        "--path",
        metavar="DIR",
        type=Path,
        default=None,
        help="directory of *.json fixtures (default: the cases shipped with memrepo)",
    )
    parser.add_argument(
        "--category",
        metavar="C",
        action="append",
        default=None,
        help="run only this category (repeatable)",
    )
    parser.add_argument(
        "--min-recall-at-5",
        metavar="X",
        type=float,
        default=None,
        help="exit 1 when overall recall@5 is below X (0..1)",
    )
    parser.add_argument("--limit", metavar="N", type=int, default=10, help="hits per query")
    parser.add_argument(
        "--misses", action="store_true", help="also list cases that missed or leaked"
    )


def _eval(args: argparse.Namespace) -> int:
    from memrepo.evals import run_evals  # lazy: the other commands never pay for it

    with terminal_progress():
        report = run_evals(args.path, categories=args.category, limit=args.limit)
    if args.json:
        print_json(report)
    else:
        _print_table(report)
        if args.misses:
            _print_misses(report)
        _print_problems(report)
    return _exit_code(report, args.min_recall_at_5)


def _exit_code(report: EvalReport, min_recall_at_5: float | None) -> int:
    if not report.passed:
        return 1
    if min_recall_at_5 is not None and (report.overall.recall_at_5 or 0.0) < min_recall_at_5:
        return 1
    return 0


_HEADER = ("category", "cases", "R@1", "R@5", "R@10", "MRR", "leaks", "failed", "order")


def _row(score: CategoryScore) -> tuple[str, ...]:
    def fmt(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    return (
        score.category,
        str(score.cases),
        fmt(score.recall_at_1),
        fmt(score.recall_at_5),
        fmt(score.recall_at_10),
        fmt(score.mrr),
        str(score.leaks),
        str(score.failures),
        str(score.misordered),
    )


def _print_table(report: EvalReport) -> None:
    rows = [_HEADER, *(_row(score) for score in report.categories), _row(report.overall)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADER))]

    def line(row: tuple[str, ...]) -> str:
        first = row[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))
        return "  ".join((first, *rest))

    print(line(rows[0]))
    for row in rows[1:-1]:
        print(line(row))
    print("-" * len(line(rows[0])))
    print(line(rows[-1]))


def _print_misses(report: EvalReport) -> None:
    for case in report.cases:
        missed = any(rank is None or rank > 5 for rank in case.ranks)
        if not (missed or case.leaks or case.misordered):
            continue
        ranks = ", ".join("-" if rank is None else str(rank) for rank in case.ranks)
        print(f"\n{case.id}: {case.query!r} (expected at ranks: {ranks or 'none expected'})")
        for i, text in enumerate(case.hits, start=1):
            print(f"  {i:2}. {text}")


def _print_problems(report: EvalReport) -> None:
    if report.leaks:
        print(f"\n{count(len(report.leaks), 'leak', 'leaks')}:")
        for leak in report.leaks:
            print(f"  {leak.case_id}: {leak.text!r} at rank {leak.rank} ({leak.ref})")
    if report.failures:
        print(f"\n{count(len(report.failures), 'failed case', 'failed cases')}:")
        for failure in report.failures:
            print(f"  {failure.case_id}: {failure.message}")
    if report.misordered:
        ranks = {case.id: case.ranks for case in report.cases}
        print(f"\n{count(len(report.misordered), 'misordered case', 'misordered cases')}:")
        for case_id in report.misordered:
            found = ", ".join("-" if rank is None else str(rank) for rank in ranks[case_id])
            print(f"  {case_id}: expected texts found at ranks {found}, not in the listed order")
