"""What every part of the fault suite shares: an isolated environment for the processes it
starts, the `memrepo` CLI in a real process, and the checks of a sound repo.

The suite looks at a memory repo only from outside: the CLI, the public `MemoryRepo`
API, the `git` command line and the files on disk. Nothing here imports a private
function of memrepo, so the figures say what a user would notice.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Environment variables that would point a child's git at another repository.
_DROPPED = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG", "MEMREPO_REPO")
HERE = Path(__file__).resolve().parent


def isolated_env(work: Path) -> dict[str, str]:
    """An empty HOME and global git config and fixed identities: no child process sees
    the developer's ~/.gitconfig, hooks or signing setup (as in tests/conftest.py)."""
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text("")
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Fault Tester",
        GIT_AUTHOR_EMAIL="faults@example.com",
        GIT_COMMITTER_NAME="Fault Tester",
        GIT_COMMITTER_EMAIL="faults@example.com",
        PYTHONPATH=os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH", "")) if p),
    )
    return env


def use_env(env: dict[str, str]) -> None:
    """Make this process (its pygit2 and its children) use `env` too."""
    os.environ.clear()
    os.environ.update(env)
    try:
        import pygit2

        levels = (
            pygit2.enums.ConfigLevel.GLOBAL,
            pygit2.enums.ConfigLevel.XDG,
            pygit2.enums.ConfigLevel.SYSTEM,
        )
        for level in levels:
            pygit2.settings.search_path[level] = env["HOME"]
    except ImportError:  # pragma: no cover - pygit2 is a dependency of memrepo
        pass


def memrepo_command() -> list[str]:
    """The installed `memrepo` console script, else the module (same code either way)."""
    script = Path(sys.executable).with_name("memrepo")
    if script.exists():
        return [str(script)]
    found = shutil.which("memrepo")
    return [found] if found else [sys.executable, "-m", "memrepo.cli"]


@dataclass(frozen=True, slots=True)
class Run:
    """One finished process: its exit code and output."""

    argv: tuple[str, ...]
    code: int
    stdout: str
    stderr: str

    @property
    def failed(self) -> bool:
        return self.code != 0 or "Traceback" in self.stderr

    def describe(self) -> str:
        tail = (self.stderr.strip().splitlines() or [""])[-1]
        return f"`{' '.join(self.argv)}` exit {self.code}: {tail[:200]}"


def cli(root: Path, *args: str, timeout: float = 120.0) -> Run:
    """`memrepo --repo ROOT ARGS...` in its own process."""
    argv = [*memrepo_command(), "--repo", str(root), *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    return Run(tuple(["memrepo", *args]), done.returncode, done.stdout, done.stderr)


def git(root: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {root}: {done.stderr.strip()}")
    return done.stdout


def head_file(root: Path, path: str) -> str:
    """A file's text at main ('' when it is not there)."""
    done = subprocess.run(
        ["git", "-C", str(root), "show", f"main:{path}"], capture_output=True, check=False
    )
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""


def worktree_file(root: Path, path: str) -> str:
    try:
        return (root / path).read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


def repo_problems(root: Path, *, expect_clean: bool = True) -> list[str]:
    """Why the repo is not sound: fsck errors, HEAD off main, leftovers of a write,
    uncommitted changes (when `expect_clean`, i.e. right after a memrepo write)."""
    problems: list[str] = []
    fsck = subprocess.run(
        ["git", "-C", str(root), "fsck", "--full", "--no-dangling"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if fsck.returncode != 0:
        problems.append(f"git fsck --full: {fsck.stderr.strip()[:300]}")
    head = subprocess.run(
        ["git", "-C", str(root), "symbolic-ref", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    if head != "refs/heads/main":
        problems.append(f"HEAD is {head or 'detached'}, not main")
    for leftover in (".git/memrepo/journal.json", ".git/index.lock", ".git/refs/heads/main.lock"):
        if (root / leftover).exists():
            problems.append(f"{leftover} left behind")
    if expect_clean:
        status = git(root, "status", "--porcelain", check=False)
        if status.strip():
            problems.append(f"git status not clean: {status.strip()[:200]}")
    return problems


@dataclass
class Tally:
    """Counts of one part, and a line per thing lost (how to see it again)."""

    name: str
    counts: dict[str, int] = field(default_factory=dict)
    losses: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def lose(self, key: str, what: str) -> None:
        """Count one loss under `key` (a figure that must be 0) and say what it was."""
        self.add(key)
        self.losses.append(f"{key}: {what}")

    @property
    def lost(self) -> int:
        return len(self.losses)

    def summary(self) -> dict[str, Any]:
        return {
            "counts": dict(sorted(self.counts.items())),
            "lost": self.lost,
            "losses": self.losses[:50],
            "info": self.info,
            "seconds": round(self.seconds, 2),
        }

    def line(self) -> str:
        figures = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return f"{self.name}: lost {self.lost} | {figures} | {self.seconds:.1f} s"


class Workers:
    """Worker processes of `_faults_workers.py` that start together (a `go` file)."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.go = work / "go"
        self.stop = work / "stop"
        self.processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []

    def start(self, role: str, root: Path, name: str, *args: str) -> Path:
        out = self.work / f"{name}.jsonl"
        argv = [sys.executable, str(HERE / "_faults_workers.py"), role, "--root", str(root)]
        argv += ["--out", str(out), "--go", str(self.go), "--stop", str(self.stop)]
        argv += ["--name", name, *args]
        log = open(self.work / f"{name}.stderr", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(argv, stdout=log, stderr=log)
        self.processes.append((name, process, out))
        return out

    def release(self, timeout: float = 120.0) -> None:
        """Go, once every worker is ready (or has died): they start their work together."""
        import time

        deadline = time.monotonic() + timeout
        for _name, process, _out in self.processes:
            ready = self.work / f"ready.{process.pid}"
            while not ready.exists() and process.poll() is None:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"worker {process.pid} not ready in {timeout} s")
                time.sleep(0.01)
        self.go.touch()

    def wait(self, names: set[str] | None = None, timeout: float = 600.0) -> dict[str, int]:
        """Wait for the named workers (default: all); their exit codes."""
        codes: dict[str, int] = {}
        for name, process, _out in self.processes:
            if names is None or name in names:
                codes[name] = process.wait(timeout=timeout)
        return codes

    def finish(self, timeout: float = 600.0) -> dict[str, int]:
        """Tell the looping workers (readers) to stop, and wait for every one."""
        self.stop.touch()
        return self.wait(timeout=timeout)

    def records(self, name: str) -> list[dict[str, Any]]:
        import json

        out = self.work / f"{name}.jsonl"
        if not out.exists():
            return []
        return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]

    def stderr(self, name: str) -> str:
        path = self.work / f"{name}.stderr"
        return path.read_text(errors="replace") if path.exists() else ""


SEED_TEXT = "Seed fact written before the faults"
_TEMPLATE: list[Path] = []


def seeded_repo(root: Path) -> Path:
    """A memory repo at `root` with one entry (SEED_TEXT). The first is made with the CLI
    (`init`, `remember`); later ones are copies of it, which saves two processes each."""
    if not _TEMPLATE:
        template = root.parent / f".template-{os.getpid()}"
        for args in (("init",), ("remember", SEED_TEXT)):
            run = cli(template, *args)
            if run.failed:
                raise RuntimeError(run.describe())
        _TEMPLATE.append(template)
    shutil.copytree(_TEMPLATE[0], root, symlinks=True)
    return root.resolve()
