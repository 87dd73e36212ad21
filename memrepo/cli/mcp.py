"""`memrepo mcp`: serve the memory tools to an MCP host over stdio, or over HTTP with
`--http` for agents on other machines."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cli._common import Subparsers, command, open_repo, usage_error

if TYPE_CHECKING:
    from memrepo.mcp.http import HttpSettings

#: What the `mcp` extra of pyproject.toml installs that `memrepo mcp` imports: the MCP SDK,
#: and for `--http` the ASGI server and toolkit it serves with.
EXTRA_MODULES = ("mcp",)
HTTP_EXTRA_MODULES = ("uvicorn", "starlette")
#: Mirrors memrepo.mcp.http, which cannot be imported before the SDK is known to be there.
DEFAULT_PORT = 8765
TOKEN_ENV = "MEMREPO_MCP_TOKEN"
HTTP_ONLY = ("host", "port", "token_file", "allowed_host", "read_processes")


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    sub = command(
        commands,
        "mcp",
        _mcp,
        "Serve the memory tools (and MEMORY.md and the workspace file as resources) to an "
        "MCP host: over stdin/stdout by default, over Streamable HTTP with --http. Off "
        "loopback, --http requires a bearer token.",
        [
            "memrepo mcp",
            'memrepo --repo ~/agent-memory mcp --workspace "Web shop"',
            "memrepo mcp --task build-42 --untrusted",
            'memrepo mcp --task read-logs --parent build-42 --title "Read the runner logs"',
            "memrepo mcp --http --port 8765",
            f"{TOKEN_ENV}=$(cat ~/.memrepo-token) memrepo mcp --http --host 0.0.0.0",
            "memrepo mcp --http --host 10.0.0.5 --token-file ~/.memrepo-token",
        ],
        json_output=False,
    )
    sub.add_argument("--workspace", metavar="W", help="the workspace this session works in")
    sub.add_argument(
        "--task", metavar="ID", help="the task id recorded on writes (default: a new one)"
    )
    sub.add_argument(
        "--parent",
        metavar="ID",
        help="the task this one is a subtask of: swarm_note writes to that tree's swarm "
        "(the parent must be registered: memrepo task add)",
    )
    sub.add_argument(
        "--title",
        metavar="T",
        help="the task's title, recorded when swarm_note registers it (default: 'MCP "
        "session <task>')",
    )
    sub.add_argument(
        "--agent",
        metavar="NAME",
        help="the agent's name the usage log records for what it recalls (default: the "
        "name its MCP client gives, e.g. claude-code)",
    )
    sub.add_argument(
        "--untrusted",
        action="store_true",
        help="the host feeds untrusted text (web pages, mail): mark every write tainted",
    )
    sub.add_argument(
        "--allow-forget",
        action="store_true",
        help="approve every change the model asks for: forget, edit, move and undo any "
        "visible memory, decide dream reviews (default: deny what this session did not "
        "infer itself)",
    )
    _add_http_options(sub)


def _add_http_options(sub: argparse.ArgumentParser) -> None:
    """The options of the Streamable HTTP transport, in their own group of `--help`."""
    http = sub.add_argument_group("HTTP (--http)")
    http.add_argument(
        "--http",
        action="store_true",
        help="serve over Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    http.add_argument(
        "--host",
        metavar="ADDR",
        help="the address to listen on (default: 127.0.0.1); any other than loopback "
        "needs a bearer token",
    )
    http.add_argument(
        "--port",
        metavar="N",
        type=int,
        help=f"the port to listen on (default: {DEFAULT_PORT}; 0 picks a free one)",
    )
    http.add_argument(
        "--token-file",
        metavar="PATH",
        type=Path,
        help="a file holding the bearer token every request must send as "
        f"'Authorization: Bearer <token>' (default: ${TOKEN_ENV}, if set)",
    )
    http.add_argument(
        "--allowed-host",
        metavar="NAME[:PORT]",
        action="append",
        default=[],
        help="another Host header to accept, e.g. the name of a reverse proxy in front "
        "(repeatable; the address served is always accepted)",
    )
    http.add_argument(
        "--read-processes",
        metavar="N",
        type=int,
        help="processes that answer read-only tool calls beside the server, so many "
        "clients' recalls use every core (default: one per core, at most 4; 0: none, "
        "reads run on the server's threads)",
    )


def _mcp(args: argparse.Namespace) -> int:
    from memrepo.cli.extras import require_extra

    require_extra("memrepo mcp", "mcp", EXTRA_MODULES + (HTTP_EXTRA_MODULES if args.http else ()))
    given = [
        f"--{name.replace('_', '-')}" for name in HTTP_ONLY if getattr(args, name) not in (None, [])
    ]
    if given and not args.http:
        return usage_error(f"{', '.join(given)} only apply with --http")
    import uuid  # with `platform` under it: not for every command's start

    from memrepo.tools import MemoryTools, ToolContext, allow_all, deny_all

    # Refuse before opening the repo: a bad token or address is the likelier mistake.
    settings = _http_settings(args) if args.http else None
    if settings is not None:
        settings.check()
    repo = open_repo(args)
    task = args.task or f"mcp-{uuid.uuid4().hex[:12]}"
    context = ToolContext(
        task_id=task,
        workspace=args.workspace,
        untrusted=args.untrusted,
        task_title=args.title or f"MCP session {task}",
        task_parent=args.parent,
        agent=args.agent,
    )
    tools = MemoryTools(repo, context, approval=allow_all if args.allow_forget else deny_all)
    if settings is not None:
        from memrepo.mcp.http import run_http

        try:
            run_http(repo, tools, settings)
        except KeyboardInterrupt:  # Ctrl-C before the server took over the signal
            return 130
        return 0
    from memrepo.mcp.server import run

    run(repo, tools)
    return 0


def _http_settings(args: argparse.Namespace) -> HttpSettings:
    from memrepo.mcp.http import DEFAULT_HOST, HttpSettings, load_token
    from memrepo.mcp.readers import DEFAULT_PROCESSES

    return HttpSettings(
        host=args.host or DEFAULT_HOST,
        port=DEFAULT_PORT if args.port is None else args.port,
        token=load_token(args.token_file.expanduser() if args.token_file else None, os.environ),
        extra_hosts=tuple(args.allowed_host),
        read_processes=DEFAULT_PROCESSES if args.read_processes is None else args.read_processes,
    )
