"""Shared fixtures: git isolated from the machine, a fresh memory repo, the real git CLI.

Isolation follows pygit2's own suite: libgit2 reads config from search paths fixed when
it loads, so those are pointed at an empty home as well as the environment the `git` CLI
reads. No test sees the developer's ~/.gitconfig, hooks or signing setup.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygit2
import pytest
from hypothesis import settings

from memrepo import MemoryRepo
from memrepo.cli import main

Git = Callable[..., str]
CommitCount = Callable[..., int]
Run = Callable[..., tuple[int, str, str]]
Bench = Callable[..., Any]

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# The gate must give the same answer on every run: property tests draw the same examples
# each time (derandomized, no example database). To hunt for new cases, run with
# HYPOTHESIS_PROFILE=explore (random draws, up to 1,000 examples); pin what it finds
# as an @example.
settings.register_profile("gate", derandomize=True, database=None)
settings.register_profile("explore", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gate"))

#: The modules that take longest (`--durations`: 15 s to 3 min each), handed out
#: first: with `-n auto` xdist gives each worker whole modules in the order they were
#: collected (`--dist=loadfile`), and a long module collected late leaves one worker
#: running it alone at the end while the other has finished.
LONGEST_FIRST = (
    "tests/test_readme.py",
    "tests/test_mcp_http.py",
    "tests/recall/test_index_current.py",
    "tests/benchmarks/test_bench_faults.py",
    "tests/meaning/test_switch_bad_input.py",
    "tests/recall/test_recall.py",
    "tests/folder/test_scan_watch.py",
    "tests/test_floors.py",
    "tests/sync/test_sync_faults.py",
    "tests/test_cli_terminal.py",
    "tests/hygiene/test_prefilter.py",
    "tests/index/test_query.py",
    "tests/index/test_whoosh_door.py",
    "tests/recall/test_recall_context_bad_input.py",
    "tests/test_evals.py",
    "tests/folder/test_concurrent_saves.py",
    "tests/test_packaging.py",
    "tests/benchmarks/test_bench_recall.py",
    "tests/hub/test_browser_first_hour.py",
    "tests/index/test_store.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the longest modules first (see `LONGEST_FIRST`); the rest keep their order.
    A module of the list that is gone stops the run: a rename would otherwise quietly
    put a long module back at the end."""
    project = BENCHMARKS.parent
    missing = [path for path in LONGEST_FIRST if not (project / path).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py LONGEST_FIRST names no file: {missing}")
    rank = {path: n for n, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


_CONFIG_LEVELS = (
    pygit2.enums.ConfigLevel.GLOBAL,
    pygit2.enums.ConfigLevel.XDG,
    pygit2.enums.ConfigLevel.SYSTEM,
)


@pytest.fixture(scope="session", autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty HOME and global git config, fixed identities, for the whole session."""
    home = tmp_path_factory.mktemp("home")
    global_config = home / ".gitconfig"
    global_config.write_text("")
    saved = {level: pygit2.settings.search_path[level] for level in _CONFIG_LEVELS}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        mp.setenv("GIT_CONFIG_GLOBAL", str(global_config))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv("GIT_AUTHOR_NAME", "Test User")
        mp.setenv("GIT_AUTHOR_EMAIL", "test@example.com")
        mp.setenv("GIT_COMMITTER_NAME", "Test User")
        mp.setenv("GIT_COMMITTER_EMAIL", "test@example.com")
        # No maintenance pass starts beside the suite's commands (tests/maintenance
        # turns it back on where it is what is tested).
        mp.setenv("MEMREPO_NO_MAINTENANCE", "1")
        # Set by git hooks and some shells; they would point git at another repository.
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG", "MEMREPO_REPO"):
            mp.delenv(name, raising=False)
        for level in _CONFIG_LEVELS:
            pygit2.settings.search_path[level] = str(home)
        try:
            yield home
        finally:
            for level, value in saved.items():
                pygit2.settings.search_path[level] = value


@pytest.fixture
def memory_repo(tmp_path: Path) -> Iterator[MemoryRepo]:
    """A new memory repo at `tmp_path / "mem"`, closed after the test."""
    repo = MemoryRepo.init(tmp_path / "mem")
    yield repo
    repo.close()


@pytest.fixture
def git() -> Git:
    """Run the real `git` CLI in a repository and return its stdout."""

    def run(repo_path: str | Path, *args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo_path), *args],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    return run


@pytest.fixture
def commit_count(git: Git) -> CommitCount:
    """`commit_count(root, rev="HEAD", *options)`: how many commits the `git` CLI counts
    from `rev` (a branch, or a range such as `f"{start}..HEAD"`; options such as
    `--merges` narrow it), so a test judges what was written with git's own eyes rather
    than ours. The one counter every test uses."""

    def count(repo_path: str | Path, rev: str = "HEAD", *options: str) -> int:
        return int(git(repo_path, "rev-list", "--count", *options, rev))

    return count


@pytest.fixture
def cli_in(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """`cli_in(root, *first)`: a `run` whose every call is `memrepo --repo ROOT FIRST...
    ARGV...` through the CLI's `main` in this process, giving (exit code, stdout,
    stderr). With no root, the arguments are passed as they are."""

    def bind(root: str | Path | None = None, *first: str) -> Run:
        prefix = [*(["--repo", str(root)] if root is not None else []), *first]

        def call(*argv: str) -> tuple[int, str, str]:
            code = main([*prefix, *argv])
            captured = capsys.readouterr()
            return code, captured.out, captured.err

        return call

    return bind


@pytest.fixture
def run(cli_in: Callable[..., Run]) -> Run:
    """The CLI as a person types it (no `--repo` added); test modules whose commands all
    name one repo bind `cli_in(repo.root)` as their own `run`."""
    return cli_in()


@pytest.fixture
def bench() -> Bench:
    """Run a script of benchmarks/ as a user runs it and return its `--json` figures
    (`bench("bench_why.py", "--commits", "240")`): the smoke runs that keep them working."""

    def call(script: str, *args: str, timeout: float = 300) -> Any:
        out = subprocess.run(
            [sys.executable, str(BENCHMARKS / script), *args, "--json"],
            check=True,
            capture_output=True,
            text=True,
            cwd=BENCHMARKS,
            timeout=timeout,
        ).stdout
        return json.loads(out)

    return call
