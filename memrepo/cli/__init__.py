"""The `memrepo` command: a thin adapter over `MemoryRepo`.

Each command parses its arguments, calls one public method, and prints the result as
human text or, with `--json`, as the result model's JSON. A `MemrepoError` becomes one
line on stderr and exit code 1; argparse usage errors exit 2; a warning the library
raises (a crash journal set aside, ...) is one `memrepo: warning:` line on stderr, never
Python's file:line form. The rules live in the library, never here.

`memrepo --help` lists the commands in groups, daily ones first (`COMMAND_GROUPS`); a
mistyped command or option is one line naming the nearest one (`memrepo.cli._parser`).
On a terminal, output is coloured (`--color`, `NO_COLOR`) and `log`, `show` and `why`
go through a pager (`--no-pager`, `MEMREPO_PAGER`, `PAGER`); neither ever reaches a pipe.

Every command pays for the start of this one: `memrepo --help` imports no more than the
command modules (no engine, pydantic or libgit2: `memrepo.cli._common` says how), and a
command builds only its own module's part of the parser (`COMMAND_MODULES`).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from memrepo.cli import (
    completion,
    confirm,
    context,
    dream,
    edit,
    evals,
    folder,
    gitsetup,
    health,
    hub,
    items,
    maintain,
    mcp,
    meaning,
    pending,
    recall,
    secrets,
    swarm,
    sync,
    task,
    transfer,
)
from memrepo.cli._common import DEFAULT_REPO, ENV_REPO, REPO_HELP, Handler, examples
from memrepo.cli._parser import CommandParser
from memrepo.cli.colour import Palette, add_color_option, wants_colour
from memrepo.cli.pager import add_pager_options, run_paged
from memrepo.errors import MemrepoError

__all__ = ["COMMAND_GROUPS", "COMMAND_MODULES", "build_parser", "main"]

#: Each command module and the commands it registers, in the order `memrepo --help` lists
#: them. Building the whole parser costs about as much as a short command's own work, so
#: `memrepo recall ...` builds recall's module only; help without a command, and anything
#: not named here, builds all of it (`tests/test_startup.py` checks the table).
_COMMANDS: dict[ModuleType, tuple[str, ...]] = {
    folder: (
        "init", "remember", "forget", "log", "undo", "status", "lint", "show", "entries",
        "why", "demo",
    ),
    items: ("items", "retention", "workspace"),
    secrets: ("secrets",),
    confirm: ("confirm",),
    edit: ("edit", "move"),
    recall: ("recall", "reindex"),
    meaning: ("meaning",),
    context: ("context",),
    evals: ("eval",),
    mcp: ("mcp",),
    swarm: ("swarm",),
    task: ("task",),
    gitsetup: ("install-git-hooks", "merge-driver", "git-hook"),
    dream: ("dream", "review"),
    transfer: ("export", "restore", "import"),
    sync: ("clone", "remote", "sync", "team", "conflicts"),
    health: ("health", "sources"),
    maintain: ("maintain",),
    pending: ("pending", "approve", "reject"),
    hub: ("hub",),
    completion: ("completion",),
}  # fmt: skip
COMMAND_MODULES = {
    name: module.__name__.rpartition(".")[2]
    for module, names in _COMMANDS.items()
    for name in names
}
"""The module (of `memrepo.cli`) that registers each command."""

COMMAND_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("every day", (
        "remember", "recall", "context", "log", "why", "show", "undo", "edit", "move",
        "forget", "status", "hub", "init", "demo",
    )),
    ("review what the agent proposed", (
        "confirm", "pending", "approve", "reject", "dream", "review",
    )),
    ("sync, teams and moving memory", (
        "sync", "remote", "clone", "team", "conflicts", "export", "restore", "import",
    )),
    ("upkeep and settings", (
        "health", "lint", "maintain", "entries", "items", "workspace", "secrets", "sources",
        "retention", "reindex", "meaning", "eval",
    )),
    ("plumbing: agents, git and your shell", (
        "mcp", "swarm", "task", "install-git-hooks", "merge-driver", "git-hook",
        "completion",
    )),
)  # fmt: skip
"""The sections of `memrepo --help`, in order, and the commands each lists, in order."""


EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `memrepo` command; returns the process exit code.

    0 done, 1 an error (one `memrepo:` line on stderr), 2 a usage error, 3 a write that
    was screened out (`EXIT_SKIPPED`), 130 Ctrl-C. No traceback reaches the person: an
    OS error is one line naming it, and a pipe the reader closed early (`memrepo log |
    head -1`) ends the command quietly, as it ends git's.
    """
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        print("memrepo: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _run(argv: list[str]) -> int:
    if not argv or argv[0] == "help":
        return _help(argv[1:])
    parser = build_parser(only=_module_of(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits for --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    args.palette = Palette(wants_colour(args.color, sys.stdout, os.environ))
    with warnings.catch_warnings():
        # memrepo's own warnings are for the person; other libraries' are not.
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", module=r"memrepo(\.|$)")
        warnings.showwarning = _show_warning
        try:
            if getattr(args, "pages", False) and not args.no_pager:
                return run_paged(lambda: handler(args), os.environ)
            return handler(args)
        except MemrepoError as exc:
            print(f"memrepo: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            print(f"memrepo: {_os_error(exc)}", file=sys.stderr)
            return 1


def _help(topic: list[str]) -> int:
    """`memrepo`, `memrepo help` and `memrepo help COMMAND [ACTION]` print help (exit 0)."""
    parser = build_parser(only=_module_of(topic))
    if topic:
        try:
            parser.parse_args([*topic, "--help"])
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 2
    parser.print_help()
    return 0


def _module_of(argv: Sequence[str]) -> str | None:
    """The module of the command `argv` runs, when that is plain without parsing: the
    first word after any `--repo PATH`. None (build every command) for anything else: no
    command, an unknown one, another option before it (argparse reads `--rep` as
    `--repo`), so the whole parser answers exactly as before."""
    words = iter(argv)
    for word in words:
        if word == "--repo":
            if next(words, None) is None:
                return None
        elif not word.startswith("--repo="):
            return COMMAND_MODULES.get(word)
    return None


def _os_error(exc: OSError) -> str:
    """An OS error in words: what failed, on which file ("No space left on device:
    /mnt/x/memory.bundle")."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    where = exc.filename if exc.filename is not None else None
    return f"{reason}: {where}" if where is not None else reason


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so Python's exit flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """One line a person can read; where in memrepo it was raised is not their concern."""
    text = " ".join(str(message).split()).removeprefix("memrepo: ")
    print(f"memrepo: warning: {text}", file=sys.stderr)


# --- parser ----------------------------------------------------------------------------


def _version() -> str:
    from memrepo.version import __version__

    return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every command (also used to check the help texts), or with
    `only` of the commands of that module (`COMMAND_MODULES`): the same parser for them."""
    parser = CommandParser(
        prog="memrepo",
        description="A git-native manager for an AI agent's long-term memory: markdown "
        "files in a git repository, every write one commit, every commit undoable.",
        epilog=examples(
            "memrepo init",
            'memrepo remember "Prefers pnpm over npm"',
            "memrepo --repo ~/work-memory log --limit 5",
            "memrepo demo",
        )
        + f"\n\nThe memory repo is --repo, else ${ENV_REPO}, else the memory repo the "
        f"current directory is in, else {DEFAULT_REPO}.\n"
        "Exit codes: 0 done, 1 error, 2 usage error, 3 not remembered (screened out), "
        "130 interrupted.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repo", metavar="PATH", default=None, help=REPO_HELP)
    parser.add_argument("--version", action="version", version=f"memrepo {_version()}")
    add_color_option(parser)
    add_pager_options(parser)
    parser.command_groups = COMMAND_GROUPS
    parser.extra_commands = ("help",)
    parser.set_defaults(whole_parser=build_parser)  # for `completion`, which describes it
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for module in _COMMANDS:
        if only is None or module.__name__ == f"{__name__}.{only}":
            module.register(commands)
    return parser
