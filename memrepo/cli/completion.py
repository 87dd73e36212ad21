"""`memrepo completion bash|zsh|fish`: a shell completion script made from the parser.

The script is written from `build_parser()` each time the command runs, so it completes
exactly what this memrepo parses; load it from the shell's start file (`eval "$(memrepo
completion bash)"`) and it follows every upgrade. How the scripts are made is
`memrepo.cli._completion`, loaded only by this command: every command's start pays for
what this module imports.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from memrepo.cli._common import Subparsers, command

__all__ = ["SHELLS"]

SHELLS = ("bash", "zsh", "fish")


def register(commands: Subparsers) -> None:
    """Add `completion` to the parser."""
    sub = command(
        commands,
        "completion",
        _completion,
        "Print a completion script for your shell, made from this memrepo's commands and "
        "options. Load it from the shell's start file so it follows every upgrade.",
        [
            'memrepo completion bash  # in ~/.bashrc: eval "$(memrepo completion bash)"',
            'memrepo completion zsh   # in ~/.zshrc, after compinit: eval "$(memrepo '
            'completion zsh)"',
            "memrepo completion fish  # in config.fish: memrepo completion fish | source",
        ],
        json_output=False,
    )
    sub.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")


def _completion(args: argparse.Namespace) -> int:
    # `memrepo completion` builds only its own command; the script is of every command,
    # so the whole parser is built here, by the builder `build_parser` passes down
    # (importing `memrepo.cli` from here would tie the two in a circle).
    build: Callable[[], argparse.ArgumentParser] = args.whole_parser
    from memrepo.cli._completion import script

    print(script(args.shell, build()), end="")
    return 0
