"""Commands over the memory folder: init, remember, forget, log, undo, status, lint, show."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    command,
    commit_note,
    count,
    emit,
    emit_list,
    emit_write,
    open_repo,
    print_json,
    read_text_argument,
    repo_path,
    written,
)
from memrepo.cli.colour import Palette, add_color_option, palette
from memrepo.cli.pager import add_pager_options
from memrepo.models.constants import BY_VALUES, SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models import (
        CommitInfo,
        EntryView,
        ForgetResult,
        LintFixResult,
        LintProblem,
        LintReport,
        SyncStatus,
        UndoResult,
        WhyReport,
        WorktreeStatus,
        WriteResult,
    )


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    for add in (
        _add_init,
        _add_remember,
        _add_forget,
        _add_log,
        _add_undo,
        _add_status,
        _add_lint,
        _add_show,
        _add_entries,
        _add_why,
        _add_demo,
    ):
        add(commands)


def _add_init(commands: Subparsers) -> None:
    sub = command(
        commands,
        "init",
        _init,
        "Create a memory repo (or make one of an existing git repo): MEMORY.md on branch "
        "main. A folder holding files other than memory markdown (a code repository) is "
        "refused unless --adopt.",
        ["memrepo init ~/agent-memory", "memrepo init --adopt ."],
        json_output=False,
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="where (default: the memory repo)")
    sub.add_argument(
        "--adopt",
        action="store_true",
        help="make a memory repo of a folder that holds other files too; they stay yours: "
        "memrepo never commits them, changed or new (only MEMORY.md, workspaces/, swarms/ "
        "and files MEMORY.md's Index links to are memory)",
    )


def _add_remember(commands: Subparsers) -> None:
    sub = command(
        commands,
        "remember",
        _remember,
        "Screen TEXT and write it as one entry in one commit.",
        [
            'memrepo remember "Prefers pnpm over npm"',
            'memrepo remember "Deploys go through staging first" --workspace "Web shop"',
            'memrepo remember "Editor: helix" --subject editor --file tools/editors.md',
            'memrepo remember "Ana prefers calls after 6pm" --contact mail:ana@example.com',
            'memrepo remember "Draft lives in branch wip-42" --task t-42 --scope task',
        ],
    )
    sub.add_argument(
        "text",
        metavar="TEXT",
        help="the fact to remember (one line); - reads it from standard input",
    )
    sub.add_argument("--file", metavar="F", help="target file inside the memory root")
    sub.add_argument("--workspace", metavar="W", help="write to workspaces/<slug>.md")
    sub.add_argument("--subject", metavar="S", help="stable key; a newer value replaces it")
    sub.add_argument("--source", metavar="URL", help="link to the task or session")
    sub.add_argument("--kind", metavar="K", help="free-form kind (rule, preference, ...)")
    sub.add_argument(
        "--by",
        default="user",
        metavar="|".join(BY_VALUES),
        help="who states the fact (default: user)",
    )
    sub.add_argument("--expires", metavar="YYYY-MM-DD", help="date the fact stops being true")
    sub.add_argument(
        "--due",
        metavar="WHEN",
        help='a commitment due then: 2026-12-11, "friday", "in 2 weeks", "11 December"',
    )
    routing = sub.add_argument_group(
        "memory_items (never written to git)",
        "contact, task, private and third-party facts go to the companion store",
    )
    routing.add_argument("--private", action="store_true", help="keep it private")
    routing.add_argument("--contact", metavar="REF", help="a fact about this contact")
    routing.add_argument("--task", metavar="ID", help="the task this was learned in")
    routing.add_argument(
        "--scope",
        choices=("global", "workspace", "contact", "task"),
        help="item scope (task: bound to --task and purged with it)",
    )
    routing.add_argument(
        "--source-kind",
        metavar="SOURCE",
        help="trust: user_stated, user_confirmed, curated, import, system, inferred, "
        "third_party (default: from --by)",
    )
    routing.add_argument("--pin", action="store_true", help="pin a user-stated item")


def _add_forget(commands: Subparsers) -> None:
    sub = command(
        commands,
        "forget",
        _forget,
        "Remove one entry (as `show` or `remember` printed its ref) in one commit.",
        ["memrepo forget 'folder:MEMORY.md#3f2a9c01de'"],
    )
    sub.add_argument("ref", metavar="REF", help="entry ref, folder:<path>#<id>")


def _add_log(commands: Subparsers) -> None:
    sub = command(
        commands,
        "log",
        _log,
        "Show main's history, newest first: id, date, origin/by, summary.",
        ["memrepo log --limit 10", "memrepo log --path workspaces/web-shop.md --json"],
    )
    sub.add_argument("--limit", type=int, metavar="N", help="at most N commits")
    sub.add_argument("--path", metavar="P", help="only commits that touched P")
    _paged(sub)


def _add_undo(commands: Subparsers) -> None:
    sub = command(
        commands,
        "undo",
        _undo,
        "Reverse one commit entry by entry, as a new commit (default: the newest write "
        "not undone yet), and say whose change it was. A bare undo never takes back your "
        "hand edits (lines you typed in a file) unless you name the commit or add --yes.",
        ["memrepo undo --dry-run", "memrepo undo", "memrepo undo 1a2b3c4d5e", "memrepo undo --yes"],
    )
    sub.add_argument("commit", nargs="?", metavar="COMMIT", help="commit to reverse")
    sub.add_argument(
        "--yes",
        action="store_true",
        help="let a bare undo revert your hand edits too (the lines you typed in a file)",
    )
    sub.add_argument(
        "--dry-run",
        action="store_true",
        help="say which commit undo would reverse and whose it is; change nothing",
    )


def _add_status(commands: Subparsers) -> None:
    command(
        commands,
        "status",
        _status,
        "List edits people made that are not committed yet (the next write commits them).",
        ["memrepo status --json"],
    )


def _add_lint(commands: Subparsers) -> None:
    sub = command(
        commands,
        "lint",
        _lint,
        "Report format problems, broken links, unlisted files, secrets and conflict markers; "
        "exit 1 on errors. --fix moves entries appended below MEMORY.md's Index above it, "
        "in one undoable commit.",
        ["memrepo lint", "memrepo lint --json", "memrepo lint --fix"],
    )
    sub.add_argument(
        "--fix", action="store_true", help="fix what can be fixed (one commit), then lint"
    )


def _add_show(commands: Subparsers) -> None:
    sub = command(
        commands,
        "show",
        _show,
        "List the entries of the folder, or print one file (with --json: its entries).",
        ["memrepo show", "memrepo show MEMORY.md", "memrepo show workspaces/web-shop.md --json"],
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="a file, relative to the root")
    _paged(sub)


def _paged(sub: argparse.ArgumentParser) -> None:
    """Long output: through a pager and in colour on a terminal (`memrepo.cli.pager`)."""
    add_pager_options(sub, after_command=True)
    add_color_option(sub, after_command=True)


def _add_entries(commands: Subparsers) -> None:
    sub = command(
        commands,
        "entries",
        _entries,
        "List the entries of the folder or of one file (ref, text, metadata).",
        ["memrepo entries", "memrepo entries MEMORY.md --json"],
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="a file, relative to the root")


def _add_demo(commands: Subparsers) -> None:
    sub = command(
        commands,
        "demo",
        _demo,
        "Walk through remember, log and undo in a throwaway memory repo.",
        ["memrepo demo", "memrepo demo --keep"],
        json_output=False,
    )
    sub.add_argument("--keep", action="store_true", help="keep the temporary repo")


def _init(args: argparse.Namespace) -> int:
    from memrepo.engine import MemoryRepo  # the one command that opens no repo

    path = Path(args.path).expanduser() if args.path else repo_path(args)
    repo = MemoryRepo.init(path, adopt=args.adopt)
    print(f"memory repo ready at {repo.root}")
    return 0


def _remember(args: argparse.Namespace) -> int:
    result = open_repo(args).remember(
        read_text_argument(args.text),
        file=args.file,
        workspace=args.workspace,
        subject=args.subject,
        source=args.source,
        kind=args.kind,
        by=args.by,
        expires=args.expires,
        due=args.due,
        private=args.private,
        contact_ref=args.contact,
        task_id=args.task,
        scope=args.scope,
        source_kind=args.source_kind,
        pinned=args.pin,
    )
    return emit_write(args, result, _describe_write)


def _describe_write(result: WriteResult) -> str:
    if result.status == "held":
        held_id = (result.ref or "").removeprefix("held:")
        return f"held {result.ref} for approval (memrepo approve {held_id} / reject {held_id})"
    where = "memory_items, not in git" if result.store == "items" else commit_note(result.commit)
    return written(result, where)


def _forget(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).forget(args.ref), _describe_forget)


def _describe_forget(result: ForgetResult) -> str:
    gone = f"commit {result.commit[:SHORT_COMMIT]}" if result.commit else "memory item scrubbed"
    return f"forgot {result.ref}: {result.text} ({gone})"


def _add_why(commands: Subparsers) -> None:
    sub = command(
        commands,
        "why",
        _why,
        "Where a memory came from: the commits that added, changed and moved a folder "
        "entry (who, origin, task, source), or an item's origin and superseded values.",
        ["memrepo why 'folder:MEMORY.md#editor'", "memrepo why memory:3f2a9c01de4b --json"],
    )
    sub.add_argument("ref", metavar="REF", help="folder:<path>#<id> or memory:<id>")
    _paged(sub)


def _why(args: argparse.Namespace) -> int:
    paint = palette(args)
    return emit(args, open_repo(args).why(args.ref), lambda report: _why_text(report, paint))


def _why_text(report: WhyReport, paint: Palette) -> str:
    state = "" if report.present else paint.paint(" (no longer present)", "gone")
    explanation = _DATED.sub(lambda m: paint.paint(m[0], "dim"), report.explanation)
    return f"{paint.paint(report.ref, 'ref')}{state}: {report.text}\n{explanation}"


_DATED = re.compile(r"^\d{4}-\d{2}-\d{2}", re.MULTILINE)


def _log(args: argparse.Namespace) -> int:
    commits = open_repo(args).log(limit=args.limit, path=args.path)
    if args.json:
        print_json(commits)
    else:
        paint = palette(args)
        for commit in commits:
            print(_log_line(commit, paint))
    return 0


def _log_line(commit: CommitInfo, paint: Palette) -> str:
    when = paint.paint(commit.time.strftime("%Y-%m-%d %H:%M"), "dim")
    who = paint.paint(f"{commit.origin or 'git'}/{commit.by or '-'}", "who")
    return f"{paint.paint(commit.id[:SHORT_COMMIT], 'commit')} {when} {who} {commit.summary}"


def _undo(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    if args.dry_run:
        bare = args.commit is None and not args.yes
        return emit(args, repo.undo_target(args.commit), lambda t: _describe_preview(t, bare))
    return emit(args, repo.undo(args.commit, yes=args.yes), _describe_undo)


def _describe_undo(result: UndoResult) -> str:
    return (
        f"undid {result.undone[:SHORT_COMMIT]}, {result.whose}: {result.summary} "
        f"(commit {result.commit[:SHORT_COMMIT]}): "
        f"{count(result.entries_removed, 'entry', 'entries')} removed, "
        f"{result.entries_restored} restored in {', '.join(result.paths) or 'no files'}"
    )


def _describe_preview(target: CommitInfo, bare: bool) -> str:
    """What `undo --dry-run` would undo; a `bare` undo (no commit, no --yes) of a hand edit
    asks first, and the preview says how to answer."""
    from memrepo.folder.undo import is_hand_edit, whose

    when = target.time.strftime("%Y-%m-%d %H:%M")
    short = target.id[:SHORT_COMMIT]
    line = (
        f"would undo {short}, {whose(target)}: {target.summary} ({when}; "
        f"{', '.join(target.paths) or 'no files'})"
    )
    if bare and is_hand_edit(target):
        line += f"\na bare undo asks first: memrepo undo {short} or memrepo undo --yes"
    return line


def _status(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).status(), _status_text)


def _status_text(status: WorktreeStatus) -> str:
    if status.clean:
        lines = ["clean: no uncommitted edits"]
    else:
        held = {edit.path for edit in status.held}
        listed = [
            f"{label:<9} {path}"
            for label, paths in (
                ("modified", status.modified),
                ("added", status.added),
                ("deleted", status.deleted),
            )
            for path in paths
            if path not in held
        ]
        lines = ["\n".join(listed)]  # an empty line when every edit is held, as ever
        if listed:
            lines.append(
                "the next memrepo write commits these first, as their own commit (by: user)"
            )
        lines += [f"held      {edit.message}" for edit in status.held]
    if status.sync is not None:
        lines.append(_sync_line(status.sync))
    return "\n".join(lines)


def _sync_line(sync: SyncStatus) -> str:
    """One line a person can act on: where sync stands and what is waiting."""
    parts = [f"sync: {sync.remote or 'no remote (teams only)'}"]
    if sync.last_success is not None:
        parts.append(f"last success {sync.last_success:%Y-%m-%d %H:%M}")
    elif sync.remote:
        parts.append("never synced")
    if sync.ahead is not None and sync.behind is not None:
        parts.append(f"ahead {sync.ahead}, behind {sync.behind}")
    if sync.conflict_branches:
        parts.append(f"{len(sync.conflict_branches)} conflict branch(es): memrepo conflicts list")
    if sync.last_error:
        parts.append(f"last error: {sync.last_error}")
    return "; ".join(parts)


def _lint(args: argparse.Namespace) -> int:
    if args.fix:
        return _lint_fix(args)
    report: LintReport = open_repo(args).lint()
    emit(args, report, lambda r: "\n".join(map(_lint_line, r.problems)) or "no problems")
    return 0 if report.ok else 1


def _lint_fix(args: argparse.Namespace) -> int:
    result: LintFixResult = open_repo(args).lint_fix()
    emit(args, result, _describe_fix)
    return 0 if result.report.ok else 1


def _describe_fix(result: LintFixResult) -> str:
    if result.commit is None:
        lines = ["nothing to fix"]
    else:
        moved = len(result.moved)
        lines = [
            f"moved {moved} entr{'y' if moved == 1 else 'ies'} above the Index of MEMORY.md "
            f"(commit {result.commit[:8]}; memrepo undo reverts it)"
        ]
    return "\n".join(lines + [_lint_line(problem) for problem in result.report.problems])


def _lint_line(problem: LintProblem) -> str:
    where = f"{problem.path}:{problem.line}" if problem.line is not None else problem.path
    return f"{where}: {problem.severity} {problem.kind}: {problem.message}"


def _show(args: argparse.Namespace) -> int:
    if args.path is None or args.json:
        return _entries(args)
    sys.stdout.write(_markdown(open_repo(args).read_text(args.path), palette(args)))
    return 0


_HEADING = re.compile(r"^#{1,6} .*$", re.MULTILINE)
_METADATA = re.compile(r" \[[a-z_]+: [^\]\n]*\]$", re.MULTILINE)


def _markdown(text: str, paint: Palette) -> str:
    """A memory file as it is, headings in bold and each entry's [metadata] dimmed."""
    if not paint.enabled:
        return text
    text = _HEADING.sub(lambda m: paint.paint(m[0], "heading"), text)
    return _METADATA.sub(lambda m: " " + paint.paint(m[0][1:], "dim"), text)


def _entries(args: argparse.Namespace) -> int:
    entries = open_repo(args).entries(args.path)
    paint = palette(args)
    return emit_list(args, entries, lambda entry: _entry_text(entry, paint), "no entries")


def _entry_text(entry: EntryView, paint: Palette) -> str:
    pending = ", uncommitted" if entry.uncommitted else ""
    where = paint.paint(f"({entry.path}:{entry.line}{pending})", "dim")
    lines = [f"{paint.paint(entry.ref, 'ref')}  {where}", f"    {entry.text}"]
    if entry.metadata:
        metadata = "; ".join(f"{k}: {v}" for k, v in entry.metadata.items())
        lines.append("    " + paint.paint(metadata, "dim"))
    return "\n".join(lines)


def _demo(args: argparse.Namespace) -> int:
    from memrepo.cli.demo import run_demo  # imported late: only this command needs it

    return run_demo(keep=args.keep)
