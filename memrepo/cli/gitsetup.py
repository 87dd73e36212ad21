"""Commands that wire memrepo into plain git: install-git-hooks, merge-driver, git-hook."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo

if TYPE_CHECKING:
    from memrepo.models.gitsetup import GitHooksReport


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    command(
        commands,
        "install-git-hooks",
        _install,
        "Make a plain `git pull` (merge or --rebase) merge memory entry by entry, and check "
        "commits made by hand for secrets and format problems (idempotent; writes only "
        "inside .git/).",
        ["memrepo install-git-hooks", "memrepo --repo ~/agent-memory install-git-hooks --json"],
    )
    driver = command(
        commands,
        "merge-driver",
        _merge_driver,
        "The git merge driver install-git-hooks configures: merge BASE, OURS and THEIRS "
        "entry by entry into OURS. Conflicts are resolved (never markers), reported on "
        "stderr and kept for a sync/conflict-* branch; the exit code is 0.",
        ["memrepo merge-driver %O %A %B %P   (in .git/config, run by git)"],
        json_output=False,
    )
    driver.add_argument("base", type=Path, metavar="BASE", help="common ancestor (%%O)")
    driver.add_argument("ours", type=Path, metavar="OURS", help="our version; gets the result")
    driver.add_argument("theirs", type=Path, metavar="THEIRS", help="their version (%%B)")
    driver.add_argument("path", metavar="PATH", help="the path in the repository (%%P)")
    hook = command(
        commands,
        "git-hook",
        _git_hook,
        "What the hooks install-git-hooks wrote run: pre-commit checks the staged files "
        "(an error blocks the commit: a secret, a NUL byte or bad UTF-8 in a memory file, "
        "conflict markers), post-merge keeps a merge's losers on a branch.",
        ["memrepo git-hook pre-commit   (run by git in the work tree)"],
        json_output=False,
    )
    hook.add_argument("name", choices=("pre-commit", "post-merge"), help="which hook")


def _install(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).install_git_hooks(), _describe_hooks)


def _describe_hooks(report: GitHooksReport) -> str:
    lines = [f"merge driver: {report.driver}", f"markdown routed to it in {report.attributes_file}"]
    for hook in report.hooks:
        lines.append(f"{hook.name}: {hook.state.replace('_', ' ')} ({hook.path})")
        lines += [f"  {hook.note}"] if hook.note else []
    if not report.changed:
        lines.append("already installed; nothing changed")
    return "\n".join(lines)


def _merge_driver(args: argparse.Namespace) -> int:
    from memrepo.sync.driver import report_lines, run_merge_driver

    result = run_merge_driver(args.base, args.ours, args.theirs, args.path)
    for line in report_lines(result):
        print(line, file=sys.stderr)
    return 0


def _git_hook(args: argparse.Namespace) -> int:
    root = Path.cwd()
    if args.name == "post-merge":
        from memrepo.sync.driver import finish_merge

        branch = finish_merge(root)
        if branch is not None:
            print(f"memrepo: the losing side of this merge is on branch {branch}", file=sys.stderr)
        return 0
    from memrepo.sync.hooks import check_staged

    report = check_staged(root)
    secrets = [p for p in report.problems if p.kind == "secret"]
    errors = [p for p in report.problems if p.severity == "error"]
    for problem in report.problems:
        where = f"{problem.path}:{problem.line}" if problem.line else problem.path
        print(f"memrepo: {where}: {problem.severity}: {problem.message}", file=sys.stderr)
    if errors:
        what = (
            f"{len(secrets)} secret(s)"
            if len(secrets) == len(errors)
            else f"{len(errors)} error(s)"
        )
        print(
            f"memrepo: commit blocked: {what} in staged files; fix the lines above and stage again",
            file=sys.stderr,
        )
        return 1
    return 0
