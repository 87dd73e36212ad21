"""Commands over the search index: recall and reindex."""

from __future__ import annotations

import argparse
import sys

from memrepo.cli._common import Subparsers, command, open_repo, print_json
from memrepo.models import RecallHit


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "recall",
        _recall,
        "Search every lane (folder, memory items) and print one fused, ranked answer.",
        [
            'memrepo recall "when do we ship the postgres 16 migration"',
            'memrepo recall deploys --workspace "Web shop" --limit 5',
            'memrepo recall "blood type" --private --json',
        ],
    )
    sub.add_argument("query", metavar="QUERY", help="plain text (no search syntax)")
    sub.add_argument("--limit", type=int, default=10, metavar="N", help="at most N hits")
    sub.add_argument("--workspace", metavar="W", help="also the facts of workspace W")
    sub.add_argument("--private", action="store_true", help="include private items")
    sub.add_argument("--contact", metavar="REF", help="also the facts about contact REF")
    sub.add_argument("--task", metavar="ID", help="also the items bound to task ID")
    sub.add_argument(
        "--min-trust", default="inferred", metavar="SOURCE", help="lowest trust to show"
    )
    sub.add_argument("--full", action="store_true", help="whole texts instead of snippets")
    command(
        commands,
        "reindex",
        _reindex,
        "Rebuild the search index from git and memory_items (it is only a projection).",
        ["memrepo reindex", "memrepo reindex --json"],
    )


def _recall(args: argparse.Namespace) -> int:
    result = open_repo(args).recall(
        args.query,
        limit=args.limit,
        workspace=args.workspace,
        include_private=args.private,
        contact_ref=args.contact,
        task_id=args.task,
        min_trust=args.min_trust,
        detail="full" if args.full else "snippet",
    )
    if args.json:
        print_json(result)
        return 0
    for lane, why in result.lane_errors.items():
        print(f"memrepo: lane {lane} failed: {why}", file=sys.stderr)
    if not result.hits:
        print("nothing found")
    for number, hit in enumerate(result.hits, start=1):
        print(_hit_line(number, hit, full=args.full))
    return 0


def _hit_line(number: int, hit: RecallHit, *, full: bool) -> str:
    where = hit.provenance.path or hit.lane
    if hit.provenance.line:
        where += f":{hit.provenance.line}"
    flags = [f"{hit.relevance:.2f}", where]
    if hit.provenance.uncommitted:
        flags.append("uncommitted")
    if hit.tainted:
        flags.append("tainted")
    text = hit.content if full and hit.content else hit.snippet
    return f"{number:>2}. {text}\n    {hit.ref}  ({', '.join(flags)})"


def _reindex(args: argparse.Namespace) -> int:
    progress = None
    if sys.stderr.isatty():
        print("memrepo: rebuilding the index from git and memory_items", file=sys.stderr)

        def progress(count: int) -> None:
            print(f"\r  {count:,} documents", end="", file=sys.stderr, flush=True)

    report = open_repo(args).reindex(progress)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print_json(report)
    else:
        print(
            f"indexed {report.documents} documents ({report.folder_entries} folder entries, "
            f"{report.items} items) in {report.seconds:.2f}s"
        )
    return 0
