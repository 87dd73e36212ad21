"""The `memrepo` command: a thin adapter over `MemoryRepo`.

Each command parses its arguments, calls one public method, and prints the result as
human text or, with `--json`, as the result model's JSON. A `MemrepoError` becomes one
line on stderr and exit code 1; argparse usage errors exit 2. The rules live in the
library, never here.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel

from memrepo.engine import BY_VALUES, MemoryRepo
from memrepo.errors import MemrepoError
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    LintProblem,
    LintReport,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)

ENV_REPO = "MEMREPO_REPO"
DEFAULT_REPO = "~/agent-memory"
_SHORT = 10

Handler = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `memrepo` command; returns the process exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits for --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    try:
        return handler(args)
    except MemrepoError as exc:
        print(f"memrepo: {exc}", file=sys.stderr)
        return 1


# --- parser ----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (also used to check the help texts)."""
    parser = argparse.ArgumentParser(
        prog="memrepo",
        description="A git-native manager for an AI agent's long-term memory: markdown "
        "files in a git repository, every write one commit, every commit undoable.",
        epilog=_examples(
            "memrepo init",
            'memrepo remember "Prefers pnpm over npm"',
            "memrepo --repo ~/work-memory log --limit 5",
            "memrepo demo",
        )
        + f"\n\nThe memory repo is --repo, else ${ENV_REPO}, else {DEFAULT_REPO}.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repo", metavar="PATH", default=None, help=_REPO_HELP)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _add_init(commands)
    _add_remember(commands)
    _add_forget(commands)
    _add_log(commands)
    _add_undo(commands)
    _add_status(commands)
    _add_lint(commands)
    _add_show(commands)
    _add_entries(commands)
    _add_demo(commands)
    return parser


_REPO_HELP = f"the memory repo (default: ${ENV_REPO}, else {DEFAULT_REPO})"

# `--repo` may also follow the subcommand. SUPPRESS keeps a subcommand that was not given
# --repo from overwriting the value parsed before it.
_REPO_AFTER = argparse.ArgumentParser(add_help=False)
_REPO_AFTER.add_argument("--repo", metavar="PATH", default=argparse.SUPPRESS, help=_REPO_HELP)

_JSON = argparse.ArgumentParser(add_help=False)
_JSON.add_argument("--json", action="store_true", help="print the result as JSON")


def _examples(*lines: str) -> str:
    return "Example:\n" + "\n".join(f"  {line}" for line in lines)


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    handler: Handler,
    summary: str,
    examples: Sequence[str],
    *,
    json_output: bool = True,
) -> argparse.ArgumentParser:
    parents = [_REPO_AFTER, _JSON] if json_output else [_REPO_AFTER]
    sub = commands.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=_examples(*examples),
        parents=parents,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=handler)
    return sub


def _add_init(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "init",
        _init,
        "Create a memory repo (or adopt an existing git repo): MEMORY.md on branch main.",
        ["memrepo init ~/agent-memory"],
        json_output=False,
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="where (default: the memory repo)")


def _add_remember(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "remember",
        _remember,
        "Screen TEXT and write it as one entry in one commit.",
        [
            'memrepo remember "Prefers pnpm over npm"',
            'memrepo remember "Deploys go through staging first" --workspace "Web shop"',
            'memrepo remember "Editor: helix" --subject editor --file tools/editors.md',
        ],
    )
    sub.add_argument("text", metavar="TEXT", help="the fact to remember (one line)")
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


def _add_forget(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "forget",
        _forget,
        "Remove one entry (as `show` or `remember` printed its ref) in one commit.",
        ["memrepo forget 'folder:MEMORY.md#3f2a9c01de'"],
    )
    sub.add_argument("ref", metavar="REF", help="entry ref, folder:<path>#<id>")


def _add_log(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "log",
        _log,
        "Show main's history, newest first: id, date, origin/by, summary.",
        ["memrepo log --limit 10", "memrepo log --path workspaces/web-shop.md --json"],
    )
    sub.add_argument("--limit", type=int, metavar="N", help="at most N commits")
    sub.add_argument("--path", metavar="P", help="only commits that touched P")


def _add_undo(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "undo",
        _undo,
        "Reverse one commit entry by entry, as a new commit (default: the newest write).",
        ["memrepo undo", "memrepo undo 1a2b3c4d5e"],
    )
    sub.add_argument("commit", nargs="?", metavar="COMMIT", help="commit to reverse")


def _add_status(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _command(
        commands,
        "status",
        _status,
        "List edits people made that are not committed yet (the next write commits them).",
        ["memrepo status --json"],
    )


def _add_lint(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _command(
        commands,
        "lint",
        _lint,
        "Report format problems, broken links, unlisted files and secrets; exit 1 on errors.",
        ["memrepo lint", "memrepo lint --json"],
    )


def _add_show(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "show",
        _show,
        "List the entries of the folder, or print one file (with --json: its entries).",
        ["memrepo show", "memrepo show MEMORY.md", "memrepo show workspaces/web-shop.md --json"],
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="a file, relative to the root")


def _add_entries(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "entries",
        _entries,
        "List the entries of the folder or of one file (ref, text, metadata).",
        ["memrepo entries", "memrepo entries MEMORY.md --json"],
    )
    sub.add_argument("path", nargs="?", metavar="PATH", help="a file, relative to the root")


def _add_demo(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _command(
        commands,
        "demo",
        _demo,
        "Walk through remember, log and undo in a throwaway memory repo.",
        ["memrepo demo", "memrepo demo --keep"],
        json_output=False,
    )
    sub.add_argument("--keep", action="store_true", help="keep the temporary repo")


# --- commands --------------------------------------------------------------------------


def _init(args: argparse.Namespace) -> int:
    path = Path(args.path).expanduser() if args.path else _repo_path(args)
    repo = MemoryRepo.init(path)
    print(f"memory repo ready at {repo.root}")
    return 0


def _remember(args: argparse.Namespace) -> int:
    result = _open(args).remember(
        args.text,
        file=args.file,
        workspace=args.workspace,
        subject=args.subject,
        source=args.source,
        kind=args.kind,
        by=args.by,
        expires=args.expires,
    )
    if args.json:
        _print_json(result)
    else:
        print(_describe_write(result))
    return 0


def _describe_write(result: WriteResult) -> str:
    if result.status == "skipped":
        by = f" by {result.ref}" if result.ref else ""
        return f"skipped: {result.reason}{by}"
    commit = f"commit {result.commit[:_SHORT]}" if result.commit else "no new commit"
    notes = [commit]
    if result.redacted:
        notes.append(f"redacted: {', '.join(result.redacted)}")
    if result.truncated:
        notes.append("truncated")
    return f"{result.action} {result.ref} ({'; '.join(notes)})"


def _forget(args: argparse.Namespace) -> int:
    result: ForgetResult = _open(args).forget(args.ref)
    if args.json:
        _print_json(result)
    else:
        print(f"forgot {result.ref}: {result.text} (commit {result.commit[:_SHORT]})")
    return 0


def _log(args: argparse.Namespace) -> int:
    commits = _open(args).log(limit=args.limit, path=args.path)
    if args.json:
        _print_json(commits)
    else:
        for commit in commits:
            print(_log_line(commit))
    return 0


def _log_line(commit: CommitInfo) -> str:
    when = commit.time.strftime("%Y-%m-%d %H:%M")
    who = f"{commit.origin or 'git'}/{commit.by or '-'}"
    return f"{commit.id[:_SHORT]} {when} {who} {commit.summary}"


def _undo(args: argparse.Namespace) -> int:
    result: UndoResult = _open(args).undo(args.commit)
    if args.json:
        _print_json(result)
    else:
        print(
            f"undid {result.undone[:_SHORT]} (commit {result.commit[:_SHORT]}): "
            f"{_count(result.entries_removed, 'entry', 'entries')} removed, "
            f"{result.entries_restored} restored in {', '.join(result.paths) or 'no files'}"
        )
    return 0


def _status(args: argparse.Namespace) -> int:
    status: WorktreeStatus = _open(args).status()
    if args.json:
        _print_json(status)
    elif status.clean:
        print("clean: no uncommitted edits")
    else:
        for label, paths in (
            ("modified", status.modified),
            ("added", status.added),
            ("deleted", status.deleted),
        ):
            for path in paths:
                print(f"{label:<9} {path}")
        print("the next memrepo write commits these first, as their own commit (by: user)")
    return 0


def _lint(args: argparse.Namespace) -> int:
    report: LintReport = _open(args).lint()
    if args.json:
        _print_json(report)
    elif not report.problems:
        print("no problems")
    else:
        for problem in report.problems:
            print(_lint_line(problem))
    return 0 if report.ok else 1


def _lint_line(problem: LintProblem) -> str:
    where = f"{problem.path}:{problem.line}" if problem.line is not None else problem.path
    return f"{where}: {problem.severity} {problem.kind}: {problem.message}"


def _show(args: argparse.Namespace) -> int:
    if args.path is None or args.json:
        return _entries(args)
    sys.stdout.write(_open(args).read_text(args.path))
    return 0


def _entries(args: argparse.Namespace) -> int:
    repo = _open(args)
    entries = repo.entries(args.path)
    if args.json:
        _print_json(entries)
    elif not entries:
        print("no entries")
    else:
        for entry in entries:
            print(_entry_text(entry))
    return 0


def _entry_text(entry: EntryView) -> str:
    lines = [f"{entry.ref}  ({entry.path}:{entry.line})", f"    {entry.text}"]
    if entry.metadata:
        lines.append("    " + "; ".join(f"{k}: {v}" for k, v in entry.metadata.items()))
    return "\n".join(lines)


def _demo(args: argparse.Namespace) -> int:
    from memrepo.demo import run_demo  # imported late: only this command needs it

    return run_demo(keep=args.keep)


# --- helpers ---------------------------------------------------------------------------


def _repo_path(args: argparse.Namespace) -> Path:
    chosen = args.repo or os.environ.get(ENV_REPO) or DEFAULT_REPO
    return Path(chosen).expanduser()


def _open(args: argparse.Namespace) -> MemoryRepo:
    return MemoryRepo.open(_repo_path(args))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _print_json(data: BaseModel | Sequence[BaseModel]) -> None:
    if isinstance(data, BaseModel):
        payload: object = data.model_dump(mode="json")
    else:
        payload = [item.model_dump(mode="json") for item in data]
    print(json.dumps(payload, indent=2, ensure_ascii=False))
