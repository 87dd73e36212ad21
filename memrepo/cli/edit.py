"""`memrepo edit REF` and `memrepo move REF FILE`: change one entry without an editor.

A person can always open the file instead; these exist for scripts and for refs a
recall printed. The rules live in `MemoryRepo.edit` and `MemoryRepo.move`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo
from memrepo.errors import InvalidArgument
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models.folder import EditResult, MoveResult


def register(commands: Subparsers) -> None:
    """Add `edit` and `move` to the parser."""
    sub = command(
        commands,
        "edit",
        _edit,
        "Reword one folder entry and/or change its metadata in place, as one undoable "
        "commit (`memrepo undo` reverses it).",
        [
            "memrepo edit 'folder:MEMORY.md#3f2a9c01de' --text 'Deploys happen on Tuesdays'",
            "memrepo edit 'folder:python.md#uv' --set kind=preference --unset expires",
        ],
    )
    sub.add_argument("ref", metavar="REF", help="folder:<path>#<id>, as recall or entries print it")
    sub.add_argument("--text", metavar="TEXT", help="the entry's new text")
    sub.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="set one metadata key (repeatable), e.g. --set subject=editor",
    )
    sub.add_argument(
        "--unset", metavar="KEY", action="append", default=[], help="remove one metadata key"
    )
    sub = command(
        commands,
        "move",
        _move,
        "Move one folder entry to another file (created and linked from MEMORY.md's Index "
        "when new), as one undoable commit; its text and metadata stay as they are.",
        [
            "memrepo move 'folder:MEMORY.md#3f2a9c01de' topics/python.md",
            "memrepo move 'folder:notes.md#9b1e22a0c4' workspaces/web-shop",
        ],
    )
    sub.add_argument("ref", metavar="REF", help="folder:<path>#<id>")
    sub.add_argument("file", metavar="FILE", help="the memory file it goes to (.md is added)")


def _edit(args: argparse.Namespace) -> int:
    metadata: dict[str, str | None] = {}
    for pair in args.set:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidArgument(f"--set {pair!r}: use KEY=VALUE")
        metadata[key.strip()] = value
    for key in args.unset:
        metadata[key.strip()] = None
    with open_repo(args) as repo:
        result = repo.edit(args.ref, text=args.text, metadata=metadata or None)
    return emit(args, result, describe_edit)


def _move(args: argparse.Namespace) -> int:
    with open_repo(args) as repo:
        result = repo.move(args.ref, args.file)
    return emit(args, result, describe_move)


def describe_edit(result: EditResult) -> str:
    if not result.changed:
        return f"{result.ref}: already says that, nothing changed"
    renamed = f" (now {result.ref})" if result.ref != result.old_ref else ""
    return f"edited {result.old_ref}{renamed} in {str(result.commit)[:SHORT_COMMIT]}: {result.text}"


def describe_move(result: MoveResult) -> str:
    commit = str(result.commit)[:SHORT_COMMIT]
    if result.merged:
        return f"{result.target} already held it; removed from {result.source} in {commit}"
    return f"moved to {result.ref} in {commit}: {result.text}"
