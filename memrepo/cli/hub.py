"""`memrepo hub`: the Memory Hub, a local web page over the same memory (memrepo.hub)."""

from __future__ import annotations

import argparse

from memrepo.cli._common import Subparsers, command, open_repo

#: Mirrors memrepo.hub.serve, which cannot be imported before the extra is known to be there.
DEFAULT_PORT = 8766
#: What the `hub` extra of pyproject.toml installs that the Hub imports.
EXTRA_MODULES = ("starlette", "jinja2", "uvicorn")


def register(commands: Subparsers) -> None:
    """Add `hub` to the parser."""
    sub = command(
        commands,
        "hub",
        _hub,
        "Open the Memory Hub in your browser: see what the agent knows (folder entries "
        "and memory items), fix or forget it, review dream branches, see what the agent "
        "will be told, check health and settings. Serves 127.0.0.1 only; the printed "
        "address works once and signs that browser in.",
        [
            "memrepo hub",
            "memrepo --repo ~/work-memory hub --port 9000",
            "memrepo hub --no-browser --port 0",
        ],
        json_output=False,
    )
    sub.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0 takes any free one)",
    )
    sub.add_argument(
        "--no-browser",
        action="store_true",
        help="only print the address (open it yourself, e.g. on a remote shell's tunnel)",
    )


def _hub(args: argparse.Namespace) -> int:
    from memrepo.cli.extras import require_extra

    require_extra("memrepo hub", "hub", EXTRA_MODULES)
    from memrepo.hub.serve import run_hub

    run_hub(open_repo(args), port=args.port, open_browser=not args.no_browser)
    return 0
