"""`memrepo context`: show a person exactly what their agent would get for a turn."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, emit, open_repo

if TYPE_CHECKING:
    from memrepo.models.prompt_context import ContextBlocks


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "context",
        _context,
        "Print the memory blocks an agent would get for QUERY, the gate's decision per "
        "layer and the refs used (a preview: nothing is marked used).",
        [
            'memrepo context "when do we ship the postgres migration"',
            'memrepo context "deploy the shop" --surface plan_step --workspace "Web shop"',
            'memrepo context "my blood type" --private --json',
            "memrepo context   # what stands in every prompt, no query",
        ],
    )
    sub.add_argument(
        "query",
        metavar="QUERY",
        nargs="?",
        default="",
        help="the user's message for this turn; without it, what stands in every prompt "
        "(L0) is shown",
    )
    sub.add_argument(
        "--surface",
        choices=["chat", "plan_step", "follow_up"],
        default="chat",
        help="where the memory goes (plan steps get a bigger recall budget)",
    )
    sub.add_argument("--workspace", metavar="W", help="the workspace the turn runs in")
    sub.add_argument(
        "--private", action="store_true", help="ask for private items (the user's own chat)"
    )
    sub.add_argument("--task", metavar="ID", help="the task the turn belongs to")
    sub.add_argument("--contact", metavar="REF", help="the contact the turn is about")


def _context(args: argparse.Namespace) -> int:
    from memrepo.models.prompt_context import ContextRequest

    request = ContextRequest(
        query=args.query,
        surface=args.surface,
        workspace=args.workspace,
        include_private=args.private,
        task_id=args.task,
        contact_ref=args.contact,
        preview=True,
    )
    with open_repo(args) as repo:
        if args.workspace is not None:
            repo.known_workspace(args.workspace)  # a misspelt name is an error
        result = repo.context(request)
    return emit(args, result, describe)


def describe(result: ContextBlocks) -> str:
    """The injected text, then the gate's decision, refs, sizes and any failure."""
    from memrepo.models.prompt_context import GATE_LAYERS

    parts = [result.text or "(no memory for this turn)", "", "--- gate"]
    decision = result.decision
    width = max(len(layer) for layer in GATE_LAYERS)
    for layer in GATE_LAYERS:
        verdict = "yes" if decision.allows(layer) else "no "
        parts.append(f"{layer:<{width}} {verdict}  {decision.reasons.get(layer, '')}")
    parts.append(f"--- refs ({len(result.refs)})")
    parts += list(result.refs) or ["none"]
    for block in result.blocks:
        left_out = f", {block.dropped} lines left out" if block.dropped else ""
        parts.append(
            f"--- {block.name.upper()}: {block.used} of {block.budget} tokens{left_out} "
            f"({block.tokens} with the frame)"
        )
    parts += [f"--- {source} failed: {why}" for source, why in result.errors.items()]
    return "\n".join(parts)
