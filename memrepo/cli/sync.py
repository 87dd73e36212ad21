"""Commands for sync and team memory: clone, remote, sync, team, conflicts."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
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
    print_json,
)
from memrepo.cli._terminal import is_terminal
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.sync import (
        ConflictBranch,
        ConflictInfo,
        SyncReport,
        SyncStatus,
        TeamInfo,
    )

_CONFIRM = "--i-own-this-private-repo"
_CONFIRM_HELP = "confirm that the repository is private and yours (memrepo pushes all of it)"
_BRANCH_HELP = "sync/conflict-<date>-<n>, as conflicts list shows it"


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    for add in (_add_clone, _add_remote, _add_sync, _add_team, _add_conflicts):
        add(commands)


def _add_clone(commands: Subparsers) -> None:
    sub = command(
        commands,
        "clone",
        _clone,
        "Start this machine's memory from your own private remote (and sync with it).",
        [
            "memrepo clone git@github.com:me/agent-memory.git ~/agent-memory "
            "--i-own-this-private-repo"
        ],
        json_output=False,
    )
    sub.add_argument("url", metavar="URL", help="your private remote (no credentials in it)")
    sub.add_argument("path", metavar="PATH", help="a new or empty folder")
    _add_remote_options(sub)


def _add_remote_options(sub: argparse.ArgumentParser) -> None:
    """What a command that starts pushing to a remote asks: that it is private and yours,
    and which ssh key opens it."""
    sub.add_argument(_CONFIRM, dest="confirm", action="store_true", help=_CONFIRM_HELP)
    sub.add_argument("--ssh-key", metavar="FILE", help="ssh private key to use (path only)")


def _clone(args: argparse.Namespace) -> int:
    from memrepo.engine import MemoryRepo  # a clone opens no repo: it makes one

    repo = MemoryRepo.clone(
        args.url, Path(args.path).expanduser(), confirm_private=args.confirm, ssh_key=args.ssh_key
    )
    print(f"cloned {args.url} into {repo.root} ({len(repo.entries())} entries)")
    for branch in repo.conflicts():  # a new clone's branches are the clone's own
        refused = _refused_line(branch.conflicts, branch.name)
        if refused:
            print(refused)
    return 0


def _add_remote(commands: Subparsers) -> None:
    verbs = action_command(
        commands,
        "remote",
        "Set, show or remove the private remote that `memrepo sync` uses.",
        [
            "memrepo remote set git@github.com:me/agent-memory.git --i-own-this-private-repo",
            "memrepo remote set https://git.example.com/me/memory.git --i-own-this-private-repo",
            "memrepo remote show --json",
            "memrepo remote remove",
        ],
    )
    set_ = action(verbs, "set", _remote_set, "use URL as your own private remote")
    set_.add_argument("url", metavar="URL", help="no credentials in it: ssh-agent, key or helper")
    _add_remote_options(set_)
    action(verbs, "show", _remote_show, "the remote and the sync status (no network)")
    action(verbs, "remove", _remote_remove, "stop syncing (the remote itself is untouched)")


def _remote_set(args: argparse.Namespace) -> int:
    info = open_repo(args).set_remote(args.url, confirm_private=args.confirm, ssh_key=args.ssh_key)
    return emit(args, info, lambda r: f"remote set to {r.url}; run `memrepo sync`")


def _remote_show(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).sync_status(), _status_text)


def _status_text(status: SyncStatus) -> str:
    lines = [f"remote: {status.remote or '(none; memrepo remote set URL ' + _CONFIRM + ')'}"]
    if status.last_success is not None:
        lines.append(f"last sync: {status.last_success:%Y-%m-%d %H:%M:%S %Z}")
    if status.last_error is not None:
        lines.append(f"last error ({status.last_error_kind}): {status.last_error}")
    if status.ahead is not None and status.behind is not None:
        lines.append(f"ahead {status.ahead}, behind {status.behind} (as of the last fetch)")
    lines.extend(f"conflict branch: {name}" for name in status.conflict_branches)
    lines.extend(_team_line(team) for team in status.teams)
    return "\n".join(lines)


def _remote_remove(args: argparse.Namespace) -> int:
    removed = open_repo(args).remove_remote()
    if args.json and removed is not None:
        print_json(removed)
    else:
        print(f"removed remote {removed.url}" if removed else "no remote was set")
    return 0


def _add_sync(commands: Subparsers) -> None:
    command(
        commands,
        "sync",
        _sync,
        "Commit pending edits, fetch, merge entry by entry, push main; fetch team repos.",
        ["memrepo sync", "memrepo sync --json"],
    )


def _sync(args: argparse.Namespace) -> int:
    def progress(step: str) -> None:
        print(f"memrepo: {step}…", file=sys.stderr, flush=True)

    report = open_repo(args).sync(progress=progress if is_terminal(sys.stderr) else None)
    return emit(args, report, _report_text)


def _report_text(report: SyncReport) -> str:
    words = {
        "up_to_date": "already up to date",
        "ahead": "pushed local commits",
        "first_push": "pushed main to the empty remote",
        "fast_forward": "fast-forwarded to the remote",
        "merged": "merged the remote's changes",
        "no_remote": "no remote set; team repos fetched",
    }
    lines = [f"{words[report.integration]} (main at {report.head[:SHORT_COMMIT]})"]
    if report.edits_committed:
        lines.append(f"committed your edits first ({report.edits_committed[:SHORT_COMMIT]})")
    others = [c for c in report.conflicts if c.kind != "unsafe"]
    for conflict in others:
        lines.append(f"conflict: {conflict.path} ({conflict.kind}): {conflict.detail}")
    if report.conflict_branch and others:
        lines.append(f"losing versions kept on {report.conflict_branch} (`memrepo conflicts show`)")
    refused = _refused_line(report.conflicts, report.conflict_branch)
    if refused:
        lines.append(refused)
    lines.extend(f"warning: {warning}" for warning in report.warnings)
    for team in report.teams:
        state = f"error: {team.error}" if team.error else ("updated" if team.changed else "same")
        lines.append(f"team {team.name}: {state}")
    return "\n".join(lines)


def _refused_line(conflicts: Sequence[ConflictInfo], branch: str | None) -> str | None:
    """The one line naming what a remote sent that is not a file, and where it is kept."""
    refused = [c for c in conflicts if c.kind == "unsafe"]
    if not refused or branch is None:
        return None
    what = ", ".join(f"{c.path} ({c.detail.partition(';')[0]})" for c in refused)
    return (
        f"refused: {what} from the remote; main keeps its own files, the remote's version "
        f"is kept on {branch} (`memrepo conflicts show {branch}`)"
    )


def _add_team(commands: Subparsers) -> None:
    verbs = action_command(
        commands,
        "team",
        "Add, list or remove read-only team memory repos (at most three).",
        [
            "memrepo team add platform git@github.com:acme/platform-memory.git",
            "memrepo team list",
            "memrepo team remove platform",
        ],
    )
    add = action(verbs, "add", _team_add, "add a team repo and fetch it")
    add.add_argument("name", metavar="NAME", help="lowercase letters, digits, - or _")
    add.add_argument("url", metavar="URL", help="the team repo (no credentials in it)")
    action(verbs, "list", _team_list, "configured team repos and their state")
    remove = action(verbs, "remove", _team_remove, "forget a team repo and its local clone")
    remove.add_argument("name", metavar="NAME", help="the team repo's name, as team list shows it")


def _team_line(team: TeamInfo) -> str:
    at = team.commit[:SHORT_COMMIT] if team.commit else "not fetched"
    error = f"; last error: {team.last_error}" if team.last_error else ""
    return f"team {team.name}: {team.url} ({at}{error})"


def _team_add(args: argparse.Namespace) -> int:
    info = open_repo(args).team_add(args.name, args.url)
    emit(args, info, _team_line)
    if info.last_error:
        print(f"memrepo: team {info.name} was added; it has no main yet", file=sys.stderr)
    return 0


def _team_list(args: argparse.Namespace) -> int:
    return emit_list(args, open_repo(args).team_list(), _team_line, "no team repos")


def _team_remove(args: argparse.Namespace) -> int:
    removed = open_repo(args).team_remove(args.name)
    return emit(args, removed, lambda r: f"removed team {r.name}")


def _add_conflicts(commands: Subparsers) -> None:
    verbs = action_command(
        commands,
        "conflicts",
        "List, show or settle the branches holding the losing side of sync merges (never pushed).",
        [
            "memrepo conflicts list",
            "memrepo conflicts show sync/conflict-2026-03-01-1",
            "memrepo conflicts keep sync/conflict-2026-03-01-1 --side theirs",
            "memrepo conflicts keep sync/conflict-2026-03-01-1 --side main",
        ],
    )
    action(verbs, "list", _conflicts_list, "conflict branches, oldest first")
    show = action(verbs, "show", _conflicts_show, "what lost, and the diff from main")
    show.add_argument("name", metavar="BRANCH", help=_BRANCH_HELP)
    keep = action(
        verbs, "keep", _conflicts_keep, "keep main's side or the branch's, then delete the branch"
    )
    keep.add_argument("name", metavar="BRANCH", help=_BRANCH_HELP)
    keep.add_argument(
        "--side",
        required=True,
        choices=("main", "theirs"),
        help="main: leave main as it is; theirs: put the losing versions back on main "
        "(one commit, `memrepo undo` reverses it)",
    )


def _branch_line(branch: ConflictBranch) -> str:
    paths = ", ".join(f"{c.path} ({c.kind})" for c in branch.conflicts)
    return f"{branch.name}  {paths}"


def _conflicts_list(args: argparse.Namespace) -> int:
    return emit_list(args, open_repo(args).conflicts(), _branch_line, "no conflicts")


def _conflicts_show(args: argparse.Namespace) -> int:
    detail = open_repo(args).conflict(args.name)
    if args.json:
        print_json(detail)
        return 0
    print(_branch_line(detail.branch))
    for conflict in detail.branch.conflicts:
        print(f"- {conflict.path} ({conflict.kind}): {conflict.detail}")
    print(f"\n`git diff main {detail.branch.name}` (main -> the losing versions):")
    print(detail.diff, end="")  # as git printed it: its last line ends itself, or not
    return 0


def _conflicts_keep(args: argparse.Namespace) -> int:
    commit = open_repo(args).resolve_conflict(args.name, args.side)
    if args.json:
        print(json.dumps({"name": args.name, "side": args.side, "commit": commit}))
        return 0
    if commit is None:
        what = "main was kept" if args.side == "main" else "main already had those versions"
        print(f"{what}; deleted {args.name}")
    else:
        print(
            f"kept the other side of {args.name} in commit {commit[:SHORT_COMMIT]}; "
            "deleted the branch"
        )
    return 0
