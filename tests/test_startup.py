"""What a command imports before it does anything (issue #18, "Startup").

Every `memrepo` command is a fresh process, so what it imports is paid each time: help
and `--version` need only argparse and the command modules, and a recall on a small repo
needs libgit2, Whoosh and the models it prints, not the MCP server, dreaming, the agent
tools, sync or the archive crypto. Each test runs the real command in a subprocess under
`python -X importtime` and reads the modules it loaded from that report; how long they
took is `benchmarks/bench_startup.py`'s business, not a test's.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

import memrepo.models
from memrepo import MemoryRepo
from memrepo.cli import COMMAND_MODULES, build_parser

#: Never loaded by help or --version: each costs tens of milliseconds to import.
HEAVY = ("pydantic", "pydantic_core", "pygit2", "whoosh", "cryptography", "markdown_it")

#: Never loaded by a recall in a repo with no team, swarm or dream in it.
NOT_FOR_RECALL = (
    "mcp",
    "cryptography",
    "markdown_it",
    "memrepo.mcp",
    "memrepo.tools",
    "memrepo.dreaming",
    "memrepo.sync",
    "memrepo.transfer",
    "memrepo.health",
    "memrepo.hub",
    "memrepo.swarm.service",
    "memrepo.models.dream",
    "memrepo.models.transfer",
    "memrepo.models.health",
)

_IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \| +(\S+)$", re.MULTILINE)


def imported_by(*argv: str, cwd: Path) -> tuple[str, set[str]]:
    """Stdout of `python -m memrepo ARGV` and every module it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memrepo", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, set(_IMPORTED.findall(done.stderr))


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    """Which of `packages` (or a module inside one) is in `modules`."""
    return sorted(p for p in packages if any(m == p or m.startswith(f"{p}.") for m in modules))


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"], ["--version"], [], ["help"], ["help", "recall"], ["help", "items", "list"],
        ["completion", "bash"], ["completion", "fish"],
    ],
    ids=["--help", "--version", "bare", "help", "help-recall", "help-items-list",
         "completion-bash", "completion-fish"],
)  # fmt: skip
def test_help_and_version_import_nothing_heavy(argv: list[str], tmp_path: Path) -> None:
    out, modules = imported_by(*argv, cwd=tmp_path)
    assert "memrepo" in out
    assert "memrepo.cli" in modules  # the report is read right: the CLI itself is in it
    assert loaded(modules, HEAVY) == []
    assert loaded(modules, ("sqlite3", "memrepo.folder", "memrepo.recall")) == []


@pytest.mark.slow
def test_recall_on_a_small_repo_imports_only_what_recall_needs(tmp_path: Path) -> None:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.remember("Prefers pnpm over npm for every project")
    repo.remember("The staging server is called blackbird")
    repo.close()
    query = ["--repo", str(tmp_path / "mem"), "recall", "pnpm"]
    imported_by(*query, cwd=tmp_path)  # the first recall builds the index
    out, modules = imported_by(*query, cwd=tmp_path)
    assert "Prefers pnpm over npm" in out
    assert loaded(modules, ("pygit2", "whoosh", "pydantic")) == ["pydantic", "pygit2", "whoosh"]
    assert loaded(modules, NOT_FOR_RECALL) == []


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no commands")


def test_each_command_builds_the_parser_it_has_in_the_whole_one() -> None:
    """`memrepo CMD` builds only CMD's module: the table must name every command, and
    the part built must parse and print help exactly as the whole parser does."""
    whole = _commands(build_parser())
    assert sorted(COMMAND_MODULES) == sorted(whole)
    for module in set(COMMAND_MODULES.values()):
        part = _commands(build_parser(only=module))
        assert sorted(part) == sorted(c for c, m in COMMAND_MODULES.items() if m == module)
        for name, sub in part.items():
            assert sub.format_help() == whole[name].format_help(), name


def test_every_model_is_importable_from_the_models_package() -> None:
    names = memrepo.models.__all__
    assert names == sorted(names)
    for name in names:
        assert getattr(memrepo.models, name) is not None, name
