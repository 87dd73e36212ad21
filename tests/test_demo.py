"""`memrepo demo`: the real commands and their real output, today's dates, then cleanup.

The tour is checked against the CLI itself: after `demo --keep`, the read-only commands
it ended with are typed again against the kept repo and must print what the tour showed.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli.demo import run_demo

pytestmark = pytest.mark.slow

Run = Callable[..., tuple[int, str, str]]
Git = Callable[..., str]

COMMAND = re.compile(r"^\$ (memrepo .*)$", re.MULTILINE)
LOG_LINE = re.compile(r"^[0-9a-f]{10} (\d{4}-\d{2}-\d{2}) \d{2}:\d{2} \S+/\S+ .+$")
KEPT = re.compile(r"^Kept the demo repo at (\S+)$", re.MULTILINE)
REMOVED = re.compile(r"^Removed (\S+) ", re.MULTILINE)


def _outputs(out: str) -> list[tuple[str, str]]:
    """Each `$ memrepo ...` line of the tour with the text printed under it."""
    found = []
    marks = list(COMMAND.finditer(out))
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        end = following.start() if following else len(out)
        shown = out[mark.end() + 1 : end]
        shown = re.split(r"(?<=\n)\n(?=== \d+\. |Kept the |Removed )", shown)[0]
        found.append((mark.group(1), shown))
    return found


def _today_range(before: datetime, after: datetime) -> set[date]:
    """The dates a write made between `before` and `after` can carry (UTC or local)."""
    days = set()
    for moment in (before, after):
        days |= {moment.astimezone(UTC).date(), moment.astimezone().date()}
    return days


def test_the_tour_runs_the_real_commands_with_todays_dates(run: Run) -> None:
    before = datetime.now(UTC)
    code, out, err = run("demo")
    after = datetime.now(UTC)
    assert (code, err) == (0, "")
    commands = [command for command, _ in _outputs(out)]
    assert commands[0].startswith("memrepo init ")
    assert "memrepo log" in commands and "memrepo undo" in commands
    assert "git log" not in out  # the history is shown with memrepo's own command
    dates = [m.group(1) for line in out.splitlines() if (m := LOG_LINE.match(line))]
    assert len(dates) == 5 + 6  # before the undo: init and four writes; after: one more
    assert set(dates) <= {d.isoformat() for d in _today_range(before, after)}
    assert "2025-" not in out


def test_undo_in_the_tour_brings_the_old_value_back(run: Run) -> None:
    code, out, _ = run("demo")
    assert code == 0
    shown = _outputs(out)
    logs = [text for command, text in shown if command == "memrepo log"]
    assert len(logs) == 2
    assert logs[1].splitlines()[1:] == logs[0].splitlines()  # one commit on top, none lost
    assert " undo/" in logs[1].splitlines()[0] and "Undo: Update: Editor: helix" in logs[1]
    files = [text for command, text in shown if command == "memrepo show MEMORY.md"]
    assert "- Editor: helix" in files[0] and "- Editor: vim [" not in files[0]
    assert "- Editor: vim [" in files[-1] and "helix" not in files[-1]
    recalls = dict(shown)
    assert recalls["memrepo recall 'dentist appointment'"] == "nothing found\n"
    assert "My dentist appointment" in recalls["memrepo recall 'dentist appointment' --private"]


def test_what_the_tour_showed_is_what_the_commands_print(run: Run, git: Git) -> None:
    code, out, _ = run("demo", "--keep")
    kept = KEPT.search(out)
    assert code == 0 and kept is not None
    root = Path(kept.group(1))
    try:
        assert git(root, "status", "--porcelain") == ""
        shown = _outputs(out)
        last_log = [text for command, text in shown if command == "memrepo log"][-1]
        again = {
            "memrepo log": last_log,
            "memrepo why 'folder:MEMORY.md#editor'": dict(shown)[
                "memrepo why 'folder:MEMORY.md#editor'"
            ],
            "memrepo context 'which editor?' --workspace 'Web shop'": dict(shown)[
                "memrepo context 'which editor?' --workspace 'Web shop'"
            ],
        }
        for command, printed in again.items():
            argv = shlex.split(command)[1:]
            code, now, err = run("--repo", str(root), *argv)
            assert (code, err) == (0, "")
            assert now == printed, command
        assert (
            '<memory layer="L0">' in again["memrepo context 'which editor?' --workspace 'Web shop'"]
        )
    finally:
        shutil.rmtree(root.parent)


def test_the_tour_leaves_the_readers_own_memory_alone(
    run: Run, memory_repo: MemoryRepo, git: Git, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMREPO_REPO", str(memory_repo.root))
    history = git(memory_repo.root, "log", "--format=%H")
    code, out, _ = run("demo")
    assert code == 0
    assert git(memory_repo.root, "log", "--format=%H") == history
    assert os.environ["MEMREPO_REPO"] == str(memory_repo.root)  # as it was before
    removed = REMOVED.search(out)
    assert removed is not None and not Path(removed.group(1)).exists()


def test_a_failing_step_stops_the_tour_and_still_cleans_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    out = io.StringIO()
    steps = (
        ("Forget what is not there", (("forget", "folder:MEMORY.md#nope"),)),
        ("Never reached", (("log",),)),
    )
    assert run_demo(out=out, steps=steps) == 1
    shown = out.getvalue()
    assert "$ memrepo forget 'folder:MEMORY.md#nope'" in shown and "Never reached" not in shown
    assert capsys.readouterr().err.startswith("memrepo: folder:MEMORY.md#nope")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.integration
def test_on_a_fresh_machine_it_runs_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """No git identity, an empty home, no $MEMREPO_REPO: what `pip install . && memrepo
    demo` meets. Its temporary folder is the only thing it makes, and it is gone after."""
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "GIT_CONFIG_NOSYSTEM": "1",
        "LANG": "C.UTF-8",
    }
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "demo"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "$ memrepo log" in done.stdout
    assert list(tmp.iterdir()) == [] and list(home.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "tmp"]
