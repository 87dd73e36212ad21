"""Commands over the search index: recall and reindex."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo, print_json
from memrepo.cli.progress import terminal_progress

if TYPE_CHECKING:
    from memrepo.models.recall import Detail, Explanation, RecallHit


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
            'memrepo recall "what did Ana cook on 29 Dec 2023" --explain',
        ],
    )
    sub.add_argument("query", metavar="QUERY", help="plain text (no search syntax)")
    sub.add_argument("--limit", type=int, default=10, metavar="N", help="at most N hits")
    sub.add_argument(
        "--workspace",
        metavar="W",
        help="only what workspace W sees (its facts and the global ones); "
        "without it every workspace is searched",
    )
    sub.add_argument("--private", action="store_true", help="include private items")
    sub.add_argument("--contact", metavar="REF", help="also the facts about contact REF")
    sub.add_argument("--task", metavar="ID", help="also the items bound to task ID")
    sub.add_argument(
        "--min-trust", default="inferred", metavar="SOURCE", help="lowest trust to show"
    )
    sub.add_argument("--full", action="store_true", help="whole texts instead of snippets")
    sub.add_argument(
        "--explain",
        action="store_true",
        help="show for each hit which words matched where (text, context, date, label) "
        "and the parts of its score",
    )
    command(
        commands,
        "reindex",
        _reindex,
        "Rebuild the search index from git and memory_items (it is only a projection).",
        ["memrepo reindex", "memrepo reindex --json"],
    )


def _recall(args: argparse.Namespace) -> int:
    """A person asks their whole memory: without `--workspace` (and without a task or
    contact to read as), every workspace is searched and each hit says where it is."""
    repo = open_repo(args)
    scoped = args.workspace is not None or args.contact or args.task
    if args.workspace is not None:
        repo.known_workspace(args.workspace)  # a misspelt name is an error, not "nothing"
    detail: Detail = "full" if args.full else "snippet"
    with terminal_progress():  # the first recall may build or catch up the index
        if scoped:
            result = repo.recall(
                args.query,
                limit=args.limit,
                workspace=args.workspace,
                include_private=args.private,
                contact_ref=args.contact,
                task_id=args.task,
                min_trust=args.min_trust,
                detail=detail,
                explain=args.explain,
            )
        else:
            result = repo.recall_everywhere(
                args.query, limit=args.limit, include_private=args.private,
                min_trust=args.min_trust, detail=detail, explain=args.explain,
            )  # fmt: skip
    if args.json:
        print_json(result)
        return 0
    for lane, why in result.lane_errors.items():
        print(f"memrepo: lane {lane} failed: {why}", file=sys.stderr)
    if not result.hits:
        print("nothing found")
    for number, hit in enumerate(result.hits, start=1):
        print(_hit_line(number, hit, full=args.full))
        if hit.explain is not None:
            print(_explain_lines(hit.explain))
    return 0


def _explain_lines(why: Explanation) -> str:
    """The explanation as two indented lines a person can follow left to right."""
    matched = "  ".join(
        f"{part}[{', '.join(words)}]" for part, words in why.matched.items() if words
    )
    terms = ", ".join(f"{term} {score:.2f}" for term, score in why.term_scores.items())
    score = f"index {why.index_score:.2f}" if why.index_score is not None else "lane rank"
    if terms:
        score += f" ({terms})"
    if why.label_boost != 1.0:
        score += f" x label {why.label_boost:g}"
    lanes = " + ".join(f"{lane} {value:.4f}" for lane, value in why.lanes.items())
    if why.reader_boost != 1.0:
        lanes += f" (x reader {why.reader_boost:g})"
    return f"    matched: {matched or 'nothing of its own'}\n    score: {score} -> {lanes}"


def _hit_line(number: int, hit: RecallHit, *, full: bool) -> str:
    where = hit.provenance.path or hit.lane
    if hit.provenance.line:
        where += f":{hit.provenance.line}"
    flags = [f"{hit.relevance:.2f}", where]
    if hit.workspace:
        flags.append(f"workspace {hit.workspace}")
    if hit.provenance.due:
        from memrepo.models.recall import due_label  # loaded with the hit

        flags.append(f"due {due_label(hit.provenance.due)}")
    if hit.provenance.uncommitted:
        flags.append("uncommitted")
    if hit.tainted:
        flags.append("tainted")
    text = hit.content if full and hit.content else hit.snippet
    return f"{number:>2}. {text}\n    {hit.ref}  ({', '.join(flags)})"


def _reindex(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    with terminal_progress():
        report = repo.reindex()
    return emit(
        args,
        report,
        lambda r: (
            f"indexed {r.documents} documents ({r.folder_entries} folder entries, "
            f"{r.items} items) in {r.seconds:.2f}s"
        ),
    )
