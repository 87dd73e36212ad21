"""Commands that move memory in and out: export, restore, import."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, count, emit, open_repo, print_json
from memrepo.cli.progress import terminal_progress
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.transfer import ImportReport

#: `ImportFormat`'s values, spelt out so `memrepo --help` need not import the models
#: (tests/transfer/test_import_cli.py checks the two agree).
IMPORT_FORMATS = ("claude-code", "letta", "mem0", "openmemory", "jsonl")

_SHOWN_PROBLEMS = 100  # every problem the report holds: one line per bad row


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    _add_export(commands)
    _add_restore(commands)
    _add_import(commands)


def _add_export(commands: Subparsers) -> None:
    sub = command(
        commands,
        "export",
        _export,
        "Write the whole memory (git history, memory_items, local settings) to one file, "
        "optionally encrypted (AES-256-GCM, passphrase from $MEMREPO_PASSPHRASE or a prompt).",
        [
            "memrepo export ~/backups/memory.mrx --encrypt",
            "memrepo export ~/backups/all.mrx --encrypt --include-private --force",
            "memrepo export facts.jsonl --format jsonl",
        ],
    )
    sub.add_argument("file", metavar="FILE", help="the file to write")
    sub.add_argument("--encrypt", action="store_true", help="encrypt with a passphrase")
    sub.add_argument(
        "--include-private", action="store_true", help="also private items (needs --encrypt)"
    )
    sub.add_argument("--force", action="store_true", help="replace FILE if it exists")
    sub.add_argument(
        "--format",
        choices=("bundle", "jsonl"),
        default="bundle",
        help="bundle: everything, restorable (default); jsonl: flat facts for other tools",
    )


def _export(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    with terminal_progress():
        result = repo.export(
            args.file,
            encrypt=args.encrypt,
            include_private=args.include_private,
            force=args.force,
            format=args.format,
        )
    if args.json:
        print_json(result)
        return 0
    items = count(result.items, "item", "items")
    if result.format == "bundle":
        what = f"{count(result.commits, 'commit', 'commits')} on "
        what += f"{count(result.branches, 'branch', 'branches')}, {items}"
    else:
        what = f"{count(result.entries, 'entry', 'entries')}, {items}"
    sealed = ", encrypted" if result.encrypted else ""
    print(f"exported {what} to {result.path} ({result.bytes:,} bytes{sealed})")
    if result.uncommitted:
        names = ", ".join(result.uncommitted)
        print(f"memrepo: not in the export (uncommitted edits): {names}", file=sys.stderr)
    if result.private_left_out:
        private = count(result.private_left_out, "private item", "private items")
        print(
            f"memrepo: not in the export: {private} (add --encrypt --include-private "
            "to carry them)",
            file=sys.stderr,
        )
    return 0


def _add_restore(commands: Subparsers) -> None:
    sub = command(
        commands,
        "restore",
        _restore,
        "Create a new memory repo from an export file; the whole file is verified first "
        "and nothing is written when it is damaged or the passphrase is wrong.",
        [
            "memrepo restore ~/backups/memory.mrx ~/agent-memory",
            "MEMREPO_PASSPHRASE=... memrepo restore memory.mrx ./restored --json",
        ],
    )
    sub.add_argument("file", metavar="FILE", help="the export file")
    sub.add_argument("target", metavar="DIR", help="a new (or empty) folder for the repo")


def _restore(args: argparse.Namespace) -> int:
    from memrepo.engine import MemoryRepo

    return emit(
        args,
        MemoryRepo.restore(args.file, args.target),
        lambda r: (
            f"restored {r.root}: main at {r.head[:SHORT_COMMIT]}, "
            f"{count(r.branches, 'branch', 'branches')}, {count(r.items, 'item', 'items')}"
        ),
    )


def _add_import(commands: Subparsers) -> None:
    sub = command(
        commands,
        "import",
        _import,
        "Import another agent's memory (Claude Code, Letta, mem0, OpenMemory, JSONL) through "
        "the normal screening, as one commit; importing the same input again adds nothing "
        "and a changed fact replaces its old text. Reports every row: imported, already "
        "known, or skipped with its reason.",
        [
            "memrepo import --from claude-code ~/code/my-app --workspace my-app",
            "memrepo import --from letta ~/.letta/agents/agent-123/memory --dry-run",
            "memrepo import --from openmemory memories_export_dana.zip",
            "memrepo import --from mem0 mem0-export.json --json",
        ],
    )
    sub.add_argument(
        "--from",
        dest="source",
        required=True,
        choices=IMPORT_FORMATS,
        help="the format of PATH",
    )
    sub.add_argument("path", metavar="PATH", help="the memory folder or export file")
    sub.add_argument("--dry-run", action="store_true", help="report what would happen only")
    sub.add_argument(
        "--workspace",
        metavar="NAME",
        help="file facts that name no workspace of their own under workspace NAME",
    )


def _import(args: argparse.Namespace) -> int:
    """Partial success exits 0 with each bad row named; a run that imported nothing at
    all (every row bad, or no memories) exits 1 with one line on stderr saying why."""
    from memrepo.transfer.importing import nothing_imported

    repo = open_repo(args)
    with terminal_progress():
        report = repo.import_memory(
            args.path, source=args.source, dry_run=args.dry_run, workspace=args.workspace
        )
    code = emit(args, report, _import_summary)
    why = nothing_imported(report)
    if why is None:
        return code
    print(f"memrepo: nothing imported from {Path(report.source).name}: {why}", file=sys.stderr)
    return 1


def _import_summary(report: ImportReport) -> str:
    verb = "would import" if report.dry_run else "imported"
    where = f" into workspace {report.workspace}" if report.workspace else ""
    lines = [
        f"{verb} from {report.format}: {count(report.rows, 'row', 'rows')} read, "
        f"{report.written} written{where} ({report.items_written} as memory items), "
        f"{report.reinforced} already known, {report.skipped_total} skipped"
    ]
    if report.skipped:
        reasons = ", ".join(f"{reason} {n}" for reason, n in report.skipped.items())
        lines.append(f"  skipped: {reasons}")
    if report.commit:
        short = report.commit[:SHORT_COMMIT]
        lines.append(f"  commit {short} (undo: memrepo undo {short})")
    for problem in report.problems[:_SHOWN_PROBLEMS]:
        where = problem.path + (f":{problem.line}" if problem.line else "")
        lines.append(f"  {where}: {problem.message}")
    hidden = report.problem_count - min(len(report.problems), _SHOWN_PROBLEMS)
    if hidden > 0:
        lines.append(
            f"  ... and {hidden} more problems (only the first {_SHOWN_PROBLEMS} are kept)"
        )
    return "\n".join(lines)
