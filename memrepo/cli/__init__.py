"""The `memrepo` command: a thin adapter over `MemoryRepo`.

Each command parses its arguments, calls one public method, and prints the result as
human text or, with `--json`, as the result model's JSON. A `MemrepoError` becomes one
line on stderr and exit code 1; argparse usage errors exit 2; a warning the library
raises (a crash journal set aside, ...) is one `memrepo: warning:` line on stderr, never
Python's file:line form. The rules live in the library, never here.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from typing import TextIO

from memrepo.cli import (
    confirm,
    context,
    dream,
    edit,
    evals,
    folder,
    gitsetup,
    health,
    items,
    mcp,
    recall,
    swarm,
    sync,
    task,
    transfer,
)
from memrepo.cli._common import DEFAULT_REPO, ENV_REPO, REPO_HELP, Handler, examples
from memrepo.errors import MemrepoError

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `memrepo` command; returns the process exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits for --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    with warnings.catch_warnings():
        # memrepo's own warnings are for the person; other libraries' are not.
        warnings.simplefilter("ignore")
        warnings.filterwarnings("always", module=r"memrepo(\.|$)")
        warnings.showwarning = _show_warning
        try:
            return handler(args)
        except MemrepoError as exc:
            print(f"memrepo: {exc}", file=sys.stderr)
            return 1


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (also used to check the help texts)."""
    parser = argparse.ArgumentParser(
        prog="memrepo",
        description="A git-native manager for an AI agent's long-term memory: markdown "
        "files in a git repository, every write one commit, every commit undoable.",
        epilog=examples(
            "memrepo init",
            'memrepo remember "Prefers pnpm over npm"',
            "memrepo --repo ~/work-memory log --limit 5",
            "memrepo demo",
        )
        + f"\n\nThe memory repo is --repo, else ${ENV_REPO}, else {DEFAULT_REPO}.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repo", metavar="PATH", default=None, help=REPO_HELP)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    folder.register(commands)
    items.register(commands)
    confirm.register(commands)
    edit.register(commands)
    recall.register(commands)
    context.register(commands)
    evals.register(commands)
    mcp.register(commands)
    swarm.register(commands)
    task.register(commands)
    gitsetup.register(commands)
    dream.register(commands)
    transfer.register(commands)
    sync.register(commands)
    health.register(commands)
    return parser
