"""Commands for dreaming: `dream` and `review list|show|accept|reject`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    command,
    emit,
    emit_list,
    open_repo,
)
from memrepo.formats.text import ELLIPSIS as ELLIPSIS
from memrepo.formats.text import shorten as shorten
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.dream import AcceptResult, DreamReport, Op, ReviewSummary

#: How much of a reason one line of `memrepo dream` shows (in characters, ellipsis included).
REASON_CHARS = 100


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    dream = command(
        commands,
        "dream",
        _dream,
        "Clean up the memory folder: safe changes as one undoable commit, the rest on a "
        "review branch (offline unless --model is given).",
        [
            "memrepo dream",
            "memrepo dream --dry-run",
            "memrepo dream --model http://127.0.0.1:8080/v1 --json",
            'memrepo dream --note "Sent the Q3 report to Ana" --workspace "Web shop"',
            "memrepo dream --notes notes.txt",
        ],
    )
    dream.add_argument(
        "--model",
        metavar="URL",
        help="an OpenAI-compatible base URL (model and key from $MEMREPO_DREAM_MODEL and "
        "$MEMREPO_DREAM_API_KEY)",
    )
    dream.add_argument(
        "--dry-run", action="store_true", help="show what would change, change nothing"
    )
    dream.add_argument(
        "--note",
        action="append",
        default=[],
        metavar="TEXT",
        help="a recent task note (evidence that a commitment is done); repeatable",
    )
    dream.add_argument(
        "--notes", metavar="FILE", help="recent task notes, one per line ('-': standard input)"
    )
    dream.add_argument(
        "--workspace",
        metavar="W",
        help="the workspace the notes come from: evidence for its commitments and the "
        "global ones only",
    )
    _add_review(commands)


def _add_review(commands: Subparsers) -> None:
    actions = action_command(
        commands,
        "review",
        "List, show, accept or reject dream review branches (never pushed).",
        [
            "memrepo review list",
            "memrepo review show dream/2026-03-01-1",
            "memrepo review accept dream/2026-03-01-1 --op 1 --op 3",
            "memrepo review reject dream/2026-03-01-1",
            "memrepo review reject dream/2026-03-01-1 --op 2",
        ],
    )
    action(actions, "list", _list, "open review branches")
    for name, handler, summary in (
        ("show", _show, "a review's changes as a per-entry diff with reasons"),
        ("accept", _accept, "apply a review (or --op N ...) to main as one commit"),
        ("reject", _reject, "reject a review (or --op N ...); never proposed again"),
    ):
        sub = action(actions, name, handler, summary)
        sub.add_argument("name", metavar="NAME", help="dream/<date>-<n>")
        if name in ("accept", "reject"):
            sub.add_argument(
                "--op",
                action="append",
                metavar="N",
                help=f"{name} only this operation (number or fingerprint); repeatable; "
                "the others stay pending on the review branch",
            )


def _dream(args: argparse.Namespace) -> int:
    model = None
    if args.model:
        from memrepo.dreaming.openai import OpenAIModel

        model = OpenAIModel.from_env(args.model)
    from memrepo.models.dream import RecentNote

    texts = [*args.note, *(_note_lines(args.notes) if args.notes else [])]
    notes = [RecentNote(text=text, workspace=args.workspace) for text in texts]
    report = open_repo(args).dream(model=model, dry_run=args.dry_run, recent_notes=notes)
    return emit(args, report, _report_text)


def _note_lines(path: str) -> list[str]:
    """The non-blank lines of a notes file (or standard input)."""
    if path == "-":
        text = sys.stdin.read()
    else:  # a byte that is not UTF-8 costs only the character it stands for
        text = Path(path).expanduser().read_bytes().decode("utf-8", "replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _report_text(report: DreamReport) -> str:
    head = "dry run: nothing written" if report.dry_run else "dream done"
    lines = [f"{head} ({report.model}): {len(report.safe)} safe, "
             f"{len(report.pending_review)} for review, {report.remembered} skipped as "
             "rejected, undone or pending"]  # fmt: skip
    if report.commit:
        short = report.commit[:SHORT_COMMIT]
        lines.append(f"commit {short} (undo with `memrepo undo {short}`)")
    if report.review:
        lines.append(f"review branch {report.review} (`memrepo review show {report.review}`)")
    lines += [f"  safe    {_op_line(op)}" for op in report.safe]
    lines += [f"  review  {_op_line(op)}" for op in report.pending_review]
    lines += [f"  broken link {b.path}:{b.line} [[{b.target}]]" for b in report.broken_links]
    if report.curation is not None and report.curation.expired:
        lines.append(f"closed {len(report.curation.expired)} done commitment(s)")
    return "\n".join(lines)


def _op_line(op: Op) -> str:
    return f"{op.kind} ({op.found_by}) {op.path}: {shorten(op.reason, REASON_CHARS)}"


def _list(args: argparse.Namespace) -> int:
    reviews = open_repo(args).list_reviews()
    return emit_list(args, reviews, _review_line, "no open review branches")


def _review_line(review: ReviewSummary) -> str:
    stale = "" if review.base_on_main else "  (base gone: reject and dream again)"
    return f"{review.name}  {review.ops} change(s): {', '.join(review.passes)}{stale}"


def _show(args: argparse.Namespace) -> int:
    detail = open_repo(args).show_review(args.name)
    return emit(
        args,
        detail,
        lambda d: f"{d.summary.name} (from {d.summary.base[:SHORT_COMMIT]})\n\n{d.diff}",
    )


def _accept(args: argparse.Namespace) -> int:
    result = open_repo(args).accept_review(args.name, args.op)
    return emit(args, result, _describe_accept)


def _describe_accept(result: AcceptResult) -> str:
    where = f"commit {result.commit[:SHORT_COMMIT]}" if result.commit else "nothing left to change"
    return (
        f"accepted {len(result.accepted)} change(s) of {result.name}: {where}; "
        f"{_left(result.name, result.pending)}"
    )


def _reject(args: argparse.Namespace) -> int:
    result = open_repo(args).reject_review(args.name, args.op)
    return emit(
        args,
        result,
        lambda r: (
            f"rejected {r.name}: {len(r.rejected)} change(s) never proposed again"
            + (f"; {_left(r.name, r.pending)}" if r.pending else "")
        ),
    )


def _left(name: str, pending: tuple[str, ...]) -> str:
    if not pending:
        return "nothing left to review"
    return f"{len(pending)} still pending (memrepo review show {name})"
