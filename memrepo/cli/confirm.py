"""`memrepo confirm REF`: a person vouches for a memory the agent saved on its own.

Until then such a memory is recalled when a turn asks about it but never stands in
every prompt (L0, reference §4a). The rule lives in `MemoryRepo.confirm`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.folder import ConfirmResult


def register(commands: Subparsers) -> None:
    """Add `confirm` to the parser."""
    sub = command(
        commands,
        "confirm",
        _confirm,
        "Confirm a memory the agent saved on its own (folder entry or item), so it stands "
        "in every prompt: a folder line becomes `by: user` in one undoable commit.",
        [
            "memrepo confirm 'folder:MEMORY.md#3f2a9c01de'",
            "memrepo confirm memory:5b0c...",
        ],
    )
    sub.add_argument("ref", metavar="REF", help="folder:<path>#<id> or memory:<id>")


def _confirm(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        result = repo.confirm(args.ref)
    return emit(args, result, describe)


def describe(result: ConfirmResult) -> str:
    if not result.confirmed:
        return f"{result.ref}: already a person's word, nothing to confirm"
    where = f" in {result.commit[:SHORT_COMMIT]}" if result.commit else ""
    return f"confirmed {result.ref}{where}: {result.text}"
