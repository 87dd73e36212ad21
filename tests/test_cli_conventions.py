"""The `memrepo` command behaves like git: help and version, the repo found from where you
stand, text from stdin, exit codes scripts can tell apart, and never a traceback (closed
pipes, Ctrl-C, OS errors, devices as export targets)."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import build_parser
from memrepo.folder.lock import LOCK_NAME

Run = Callable[..., tuple[int, str, str]]
Git = Callable[..., str]
PROJECT = Path(__file__).resolve().parents[1]
LAUNCH = "import sys; from memrepo.cli import main; sys.exit(main())"


def memrepo(*argv: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    env.pop("MEMREPO_REPO", None)
    return subprocess.run(
        [sys.executable, "-c", LAUNCH, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
        input=input,
    )


@pytest.mark.parametrize("argv", [[], ["help"]])
def test_no_command_and_help_print_the_help(run: Run, argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 0 and err == ""
    assert out.startswith("usage: memrepo") and "Exit codes: 0 done" in out


@pytest.mark.slow
def test_help_of_one_command_and_the_version(run: Run) -> None:
    code, out, _ = run("help", "recall")
    assert code == 0 and out.startswith("usage: memrepo recall")
    done = memrepo("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"memrepo {memrepo_version()}"
    module = subprocess.run(
        [sys.executable, "-m", "memrepo", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        check=False,
    )
    assert module.returncode == 0 and module.stdout == done.stdout


def memrepo_version() -> str:
    from memrepo import __version__

    return __version__


def test_the_repo_is_the_one_you_stand_in(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMREPO_REPO", raising=False)
    inner = memory_repo.root / "topics" / "deep"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    code, out, _ = run("remember", "Found from a subfolder of the memory repo")
    assert code == 0 and out.startswith("inserted folder:MEMORY.md#")
    assert "Found from a subfolder" in (memory_repo.root / "MEMORY.md").read_text()
    # A plain git repo is not a memory repo: the default applies (none here).
    plain = tmp_path / "code"
    plain.mkdir()
    subprocess.run(["git", "init", "-q", str(plain)], check=True)
    monkeypatch.chdir(plain)
    code, _, err = run("log")
    assert code == 1 and "agent-memory" in err
    monkeypatch.setenv("MEMREPO_REPO", str(memory_repo.root))
    assert run("log")[0] == 0


def test_remember_dash_reads_standard_input(
    run: Run, memory_repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "Deploys go through staging, then a canary, then everyone"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode() + b"\n")))
    code, out, _ = run("--repo", str(memory_repo.root), "remember", "-")
    assert code == 0 and out.startswith("inserted ")
    assert text in (memory_repo.root / "MEMORY.md").read_text()


@pytest.mark.slow
def test_text_over_the_argument_limit_goes_through_stdin(memory_repo: MemoryRepo) -> None:
    long_text = "The release checklist says " + "check the changelog and the tags " * 8000
    done = memrepo("--repo", str(memory_repo.root), "remember", "-", input=long_text)
    assert done.returncode == 0, done.stderr
    assert "truncated" in done.stdout
    assert "The release checklist says" in (memory_repo.root / "MEMORY.md").read_text()


def test_a_screened_out_write_exits_3_with_the_reason_on_stderr(
    run: Run, memory_repo: MemoryRepo, git: Git
) -> None:
    before = git(memory_repo.root, "rev-parse", "HEAD")
    code, out, err = run("--repo", str(memory_repo.root), "remember", "ok")
    assert (code, out) == (3, "") and err == "memrepo: skipped: too_short\n"
    code, out, _ = run("--repo", str(memory_repo.root), "remember", "ok", "--json")
    assert code == 3 and '"status": "skipped"' in out
    assert git(memory_repo.root, "rev-parse", "HEAD") == before


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(memory_repo: MemoryRepo) -> None:
    for n in range(60):
        memory_repo.remember(f"Fact number {n} for a long log", by="user")
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    with subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "--repo", str(memory_repo.root), "log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        bufsize=0,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(10)
        proc.stdout.close()  # `| head -c 10`
        err = proc.stderr.read().decode()
        proc.wait(timeout=30)
    assert "Traceback" not in err and err == ""


HOLD_LOCK = """
import sys
from pathlib import Path
from memrepo.folder.lock import WriteLock
with WriteLock(Path(sys.argv[1]), 10):
    print("held", flush=True)
    sys.stdin.readline()
"""


def _wait_until_it_opens(pid: int, name: str, most: float = 60.0) -> None:
    """Until process `pid` holds a file called `name` open: on a loaded machine its
    start can take longer than any fixed pause, and a Ctrl-C before the CLI runs is
    Python's, not ours."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd).endswith(f"/{name}"):
                    return
            except OSError:
                continue
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never opened {name}")


@pytest.mark.slow
def test_ctrl_c_is_one_line_and_exit_130(memory_repo: MemoryRepo) -> None:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(memory_repo.folder.state_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    ) as holder:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "--repo", str(memory_repo.root), "remember",
             "Waits for the lock until interrupted"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        ) as waiting:  # fmt: skip
            _wait_until_it_opens(waiting.pid, LOCK_NAME)  # it waits for the write lock now
            waiting.send_signal(signal.SIGINT)
            out, err = waiting.communicate(timeout=30)
        holder.communicate("\n", timeout=10)
    assert waiting.returncode == 130
    assert err == "memrepo: interrupted\n" and out == ""


@pytest.mark.slow
def test_os_errors_are_one_line(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = memrepo("--repo", str(memory_repo.root), "export", str(blocker / "memory.bundle"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("memrepo: ")


@pytest.mark.parametrize("target", ["/dev/full", "/dev/null", "DIR"])
def test_export_force_never_replaces_a_device_or_a_folder(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, target: str
) -> None:
    path = str(tmp_path) if target == "DIR" else target
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    kind = os.stat(path).st_mode
    code, _, err = run("--repo", str(memory_repo.root), "export", path, "--force")
    assert code == 1 and err.startswith("memrepo: ") and len(err.splitlines()) == 1
    assert os.stat(path).st_mode == kind  # still the device (or folder) it was


def test_the_python_api_expands_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with MemoryRepo.init("~/agent-memory") as repo:
        assert repo.root == (tmp_path / "agent-memory").resolve()
    with MemoryRepo.open("~/agent-memory") as repo:
        assert repo.root == (tmp_path / "agent-memory").resolve()
    assert not (tmp_path / "~").exists()


# --- help a person can scan, and "did you mean" -------------------------------------------


def _section_commands(help_text: str) -> dict[str, list[str]]:
    """Each section of `memrepo --help` and the command names it lists, in order."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in help_text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = sections.setdefault(line[:-1], [])
        elif current is not None and line.startswith("  ") and not line.startswith("   "):
            current.append(line.split()[0])
        elif not line.strip():
            current = None
    return sections


@pytest.mark.slow
def test_help_lists_the_commands_in_groups_daily_first() -> None:
    done = memrepo("--help")
    assert done.returncode == 0
    sections = _section_commands(done.stdout)
    groups = [title for title in sections if title not in ("options", "Example")]
    assert groups == [
        "every day",
        "review what the agent proposed",
        "sync, teams and moving memory",
        "upkeep and settings",
        "plumbing: agents, git and your shell",
    ]
    assert sections["every day"][:5] == ["remember", "recall", "context", "log", "why"]
    assert {"sync", "team", "clone"} <= set(sections["sync, teams and moving memory"])
    assert {"merge-driver", "git-hook", "completion"} <= set(
        sections["plumbing: agents, git and your shell"]
    )
    listed = [name for title in groups for name in sections[title]]
    parser_commands = _commands(build_parser())
    assert sorted(listed) == sorted(parser_commands)  # each command once, none left out
    assert "other commands" not in sections
    # One clause per command here; the whole summary is `memrepo help COMMAND`'s.
    assert "    why                Where a memory came from\n" not in done.stdout
    assert "  why                Where a memory came from\n" in done.stdout
    assert memrepo("help").stdout == done.stdout


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["recal", "deploy"], "memrepo: error: 'recal' is not a memrepo command; "
         "did you mean 'recall'?"),
        (["help", "recal"], "memrepo: error: 'recal' is not a memrepo command; "
         "did you mean 'recall'?"),
        (["hlep"], "memrepo: error: 'hlep' is not a memrepo command; did you mean 'help'?"),
        (["items", "lst"], "memrepo items: error: 'lst' is not an action of memrepo items; "
         "did you mean 'list'?"),
        (["log", "--limt", "3"], "memrepo: error: unknown option '--limt'; "
         "did you mean '--limit'?"),
        (["--repo", "/nowhere", "recall", "x", "--workspce=ops"],
         "memrepo: error: unknown option '--workspce'; did you mean '--workspace'?"),
        (["remember", "x", "--scope", "globl"], "memrepo remember: error: 'globl' is not a "
         "choice of --scope; did you mean 'global'?"),
    ],
    ids=["command", "help-topic", "help", "action", "option", "option=value", "choice"],
)  # fmt: skip
def test_a_mistyped_word_is_one_line_naming_the_nearest(argv: list[str], said: str) -> None:
    done = memrepo(*argv)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == said + "\n"


def test_an_unknown_command_with_no_near_one_keeps_the_usage_not_forty_names() -> None:
    done = memrepo("fly")
    assert (done.returncode, done.stdout) == (2, "")
    usage, said = done.stderr.split("\nmemrepo: error: ")
    assert usage.startswith("usage: memrepo ")
    assert said == "'fly' is not a memrepo command (memrepo help lists them)\n"
