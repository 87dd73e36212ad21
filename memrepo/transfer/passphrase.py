"""Where an export's passphrase comes from: the caller, `MEMREPO_PASSPHRASE`, or a prompt.

The prompt is only shown when stdin is a terminal: a script or an agent with no terminal
gets a clear error instead of a process that hangs waiting for input.
"""

from __future__ import annotations

import getpass
import os
import sys

from memrepo.errors import InvalidArgument, TransferError

ENV_PASSPHRASE = "MEMREPO_PASSPHRASE"


def resolve_passphrase(given: str | None, *, confirm: bool) -> str:
    """The passphrase to use; `confirm` asks twice (a typo would lock the export away)."""
    if given is None:
        given = os.environ.get(ENV_PASSPHRASE)
    if given is None:
        given = _prompt(confirm)
    if not given:
        raise InvalidArgument("the passphrase is empty; choose a non-empty passphrase")
    return given


def _prompt(confirm: bool) -> str:
    if not sys.stdin.isatty():
        raise TransferError(
            f"an encrypted export needs a passphrase: set {ENV_PASSPHRASE} or run the "
            "command in a terminal to be asked for one"
        )
    first = getpass.getpass("memrepo passphrase: ")
    if confirm and getpass.getpass("memrepo passphrase (again): ") != first:
        raise InvalidArgument("the two passphrases differ; nothing was written")
    return first
