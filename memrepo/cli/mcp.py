"""`memrepo mcp`: serve the memory tools to an MCP host over stdio."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import uuid

from memrepo.cli._common import Subparsers, command, open_repo

EXTRA_HINT = "memrepo mcp needs the MCP SDK: pip install 'memrepo[mcp]'"


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "mcp",
        _mcp,
        "Serve memory_recall, memory_remember and memory_forget (and MEMORY.md and the "
        "workspace file as resources) to an MCP host over stdin/stdout.",
        [
            "memrepo mcp",
            'memrepo --repo ~/agent-memory mcp --workspace "Web shop"',
            "memrepo mcp --task build-42 --untrusted",
        ],
        json_output=False,
    )
    sub.add_argument("--workspace", metavar="W", help="the workspace this session works in")
    sub.add_argument(
        "--task", metavar="ID", help="the task id recorded on writes (default: a new one)"
    )
    sub.add_argument(
        "--untrusted",
        action="store_true",
        help="the host feeds untrusted text (web pages, mail): mark every write tainted",
    )
    sub.add_argument(
        "--allow-forget",
        action="store_true",
        help="let the model forget any visible memory (default: only what this session "
        "inferred itself)",
    )


def _mcp(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("mcp") is None:
        print(f"memrepo: {EXTRA_HINT}", file=sys.stderr)
        return 1
    from memrepo.mcp.server import run
    from memrepo.tools import MemoryTools, ToolContext, allow_all, deny_all

    repo = open_repo(args)
    context = ToolContext(
        task_id=args.task or f"mcp-{uuid.uuid4().hex[:12]}",
        workspace=args.workspace,
        untrusted=args.untrusted,
    )
    tools = MemoryTools(repo, context, approval=allow_all if args.allow_forget else deny_all)
    run(repo, tools)
    return 0
