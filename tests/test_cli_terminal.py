"""Colour and a pager, as a person sees them on a terminal (issue #31).

`memrepo log`, `show` and `why` run as their own process with stdout on a real
pseudo-terminal (or a pipe, as a script reads them): on a terminal they are coloured and
paged through `less -FRX` as git pages; `NO_COLOR`, `TERM=dumb`, `--color never`, a pipe
take the colour away; `--no-pager`, a pipe, an empty or `cat` pager take the pager away.
A stand-in pager (a small script that keeps what it was given) shows what reached it.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli.colour import wants_colour
from memrepo.cli.pager import pager_command

PROJECT = Path(__file__).resolve().parents[1]
ROWS = 24
ESC = "\x1b["

#: A pager that keeps its arguments, its LESS and LV and all it read, then exits.
KEEPING_PAGER = """
import json, os, sys
text = sys.stdin.read()
with open(sys.argv[1], "w", encoding="utf-8") as kept:
    json.dump({"argv": sys.argv[2:], "LESS": os.environ.get("LESS"),
               "LV": os.environ.get("LV"), "text": text}, kept)
"""


@dataclass
class Ran:
    code: int
    out: str  # what the terminal (or the pipe) showed
    err: str


def run(
    root: Path, *argv: str, tty: bool = True, env: dict[str, str] | None = None,
    keys: bytes = b"", after: str = ""
) -> Ran:  # fmt: skip
    """`memrepo --repo ROOT ARGV` with stdin and stdout on a terminal of ROWS rows (or
    stdout on a pipe); `keys` are typed once the terminal shows `after`."""
    base = {k: v for k, v in os.environ.items() if k not in ("PAGER", "LESS", "LV", "NO_COLOR")}
    environ = {**base, "TERM": "xterm-256color", "PYTHONPATH": str(PROJECT), **(env or {})}
    command = [sys.executable, "-m", "memrepo", "--repo", str(root), *argv]
    if not tty:
        done = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=120)
        return Ran(done.returncode, done.stdout, done.stderr)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, 100, 0, 0))
    shown = bytearray()
    with subprocess.Popen(
        command, stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=environ,
        start_new_session=True,
    ) as proc:  # fmt: skip
        os.close(slave)

        def pump() -> None:
            typed = not keys
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: every holder of the terminal closed it
                    return
                if not data:
                    return
                shown.extend(data)
                if not typed and after in shown.decode("utf-8", errors="replace"):
                    typed = True
                    os.write(master, keys)

        reader = threading.Thread(target=pump)
        reader.start()
        assert proc.stderr is not None
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=120)
        reader.join(timeout=60)
    os.close(master)
    return Ran(code, shown.decode("utf-8", errors="replace").replace("\r\n", "\n"), err)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A memory with a history longer than one screen."""
    repo = MemoryRepo.init(tmp_path_factory.mktemp("terminal") / "mem")
    repo.remember("Editor: helix", subject="editor", by="user")
    for n in range(ROWS * 2):
        repo.remember(f"Service {n} deploys from branch release-{n}", by="user")
    repo.remember("Editor: vim", subject="editor", by="user")
    repo.close()
    return repo.root


def keeping_pager(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "pager.py"
    script.write_text(KEEPING_PAGER, encoding="utf-8")
    kept = tmp_path / "kept.json"
    return f"{sys.executable} {script} {kept} --given", kept


# --- the pager ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["log"], "Update: Editor: vim"),
        (["show", "MEMORY.md"], "- Service 3 deploys from branch release-3"),
        (["show"], "folder:MEMORY.md#editor"),
        (["why", "folder:MEMORY.md#editor"], "was “Editor: helix”"),
    ],
    ids=["log", "show-file", "show", "why"],
)
@pytest.mark.slow
def test_long_output_goes_through_the_pager_git_would_use(
    root: Path, tmp_path: Path, argv: list[str], said: str
) -> None:
    pager, kept = keeping_pager(tmp_path)
    ran = run(root, *argv, env={"PAGER": pager})
    assert (ran.code, ran.err) == (0, "")
    got = json.loads(kept.read_text(encoding="utf-8"))
    assert got["argv"] == ["--given"] and (got["LESS"], got["LV"]) == ("FRX", "-c")
    assert said in got["text"] and ESC in got["text"]  # coloured: less -R shows it
    assert said not in ran.out  # the pager showed it, not memrepo


@pytest.mark.slow
def test_memrepo_pager_wins_and_less_settings_of_ones_own_stay(root: Path, tmp_path: Path) -> None:
    pager, kept = keeping_pager(tmp_path)
    ran = run(root, "log", env={"MEMREPO_PAGER": pager, "PAGER": "false", "LESS": "-S"})
    assert ran.code == 0
    assert json.loads(kept.read_text(encoding="utf-8"))["LESS"] == "-S"


@pytest.mark.parametrize(
    ("how", "argv", "env"),
    [
        ("--no-pager before", ["--no-pager", "log"], {}),
        ("--no-pager after", ["log", "--no-pager"], {}),
        ("empty PAGER", ["log"], {"PAGER": ""}),
        ("PAGER=cat", ["log"], {"PAGER": "cat"}),
        ("no such pager", ["log"], {"PAGER": "no-such-pager-here -R"}),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
@pytest.mark.slow
def test_no_pager_prints_straight_to_the_terminal(
    root: Path, tmp_path: Path, how: str, argv: list[str], env: dict[str, str]
) -> None:
    ran = run(root, *argv, env=env)
    assert (ran.code, ran.err) == (0, ""), how
    assert "Update: Editor: vim" in ran.out and "Create the memory repo" in ran.out


@pytest.mark.slow
def test_a_pipe_gets_plain_text_and_no_pager(root: Path, tmp_path: Path) -> None:
    pager, kept = keeping_pager(tmp_path)
    ran = run(root, "log", tty=False, env={"PAGER": pager})
    assert (ran.code, ran.err) == (0, "")
    assert ran.out.splitlines()[0].endswith("Update: Editor: vim") and ESC not in ran.out
    assert not kept.exists()


@pytest.mark.skipif(shutil.which("less") is None, reason="less is not installed")
@pytest.mark.slow
def test_less_shows_one_screen_and_q_quits_cleanly(root: Path) -> None:
    ran = run(root, "log", keys=b"q", after="Service 30 ")
    assert (ran.code, ran.err) == (0, "")
    assert "Update: Editor: vim" in ran.out
    assert "Create the memory repo" not in ran.out  # the last line is screens below


@pytest.mark.skipif(shutil.which("less") is None, reason="less is not installed")
@pytest.mark.slow
def test_less_prints_what_fits_one_screen_and_returns_at_once(root: Path) -> None:
    ran = run(root, "log", "--limit", "3")
    assert (ran.code, ran.err) == (0, "")
    assert "Update: Editor: vim" in ran.out


@pytest.mark.slow
def test_a_pager_that_quits_before_reading_is_not_an_error(root: Path) -> None:
    ran = run(root, "show", "MEMORY.md", env={"PAGER": "true"})
    assert (ran.code, ran.err) == (0, "")


def test_pager_command_follows_git() -> None:
    assert pager_command({}) == (["less"] if shutil.which("less") else None)
    assert pager_command({"PAGER": "more -s", "MEMREPO_PAGER": "cat"}) is None
    assert pager_command({"PAGER": "sh -c 'less'"}) == ["sh", "-c", "less"]
    assert pager_command({"PAGER": "sh 'unbalanced"}) is None


# --- colour ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "env", "tty", "coloured"),
    [
        (["log"], {}, True, True),
        (["log"], {"NO_COLOR": "1"}, True, False),
        (["log"], {"NO_COLOR": ""}, True, True),  # no-color.org: present and not empty
        (["log"], {"TERM": "dumb"}, True, False),
        (["--color", "never", "log"], {}, True, False),
        (["log", "--color=never"], {}, True, False),
        (["log"], {}, False, False),
        (["--color=always", "log"], {}, False, True),
        (["log", "--color", "always"], {"NO_COLOR": "1"}, False, True),
    ],
    ids=["terminal", "NO_COLOR", "empty-NO_COLOR", "dumb", "never", "never-after", "pipe",
         "always-piped", "always-over-NO_COLOR"],
)  # fmt: skip
@pytest.mark.slow
def test_colour_only_where_a_person_reads_it(
    root: Path, argv: list[str], env: dict[str, str], tty: bool, coloured: bool
) -> None:
    ran = run(root, "--no-pager", *argv, env=env, tty=tty)
    assert (ran.code, ran.err) == (0, "")
    assert (ESC + "33m" in ran.out) is coloured
    words = ran.out.replace(ESC + "33m", "").replace(ESC + "2m", "").replace(ESC + "36m", "")
    assert "remember/user Update: Editor: vim" in words.replace(ESC + "0m", "")


def test_wants_colour_reads_the_stream_and_the_environment() -> None:
    master, slave = pty.openpty()
    try:
        with open(slave, "w", closefd=False) as terminal:
            assert wants_colour(None, terminal, {"TERM": "xterm"})
            assert not wants_colour(None, terminal, {"TERM": "xterm", "NO_COLOR": "x"})
            assert not wants_colour("never", terminal, {})
    finally:
        os.close(master)
        os.close(slave)
    assert not wants_colour("auto", io.StringIO(), {})
    assert wants_colour("always", io.StringIO(), {"NO_COLOR": "1"})
