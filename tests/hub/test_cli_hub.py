"""`memrepo hub` as a person runs it: a real process that prints a one-time address on
stdout, serves it, keeps the memory maintained while it runs, and stops on Ctrl-C.
(Its registration in `memrepo.cli` is one line the CLI's owner adds; until then the
module's own `register` builds the parser.)"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

import httpx2
import pytest

from memrepo import MemoryRepo
from memrepo.cli import hub as cli_hub
from memrepo.maintenance.background import OFF
from memrepo.maintenance.state import STATE_NAME

pytestmark = pytest.mark.integration

PROJECT = Path(__file__).resolve().parents[2]
LAUNCH = (
    "import argparse, sys\n"
    "from memrepo.cli import hub\n"
    "parser = argparse.ArgumentParser(prog='memrepo')\n"
    "parser.add_argument('--repo')\n"
    "hub.register(parser.add_subparsers())\n"
    "args = parser.parse_args(sys.argv[1:])\n"
    "sys.exit(args.handler(args))\n"
)
PATIENCE = 60.0
#: The hub alone, without the CLI (which starts a due pass itself beside any command).
SERVE_ONLY = (
    "import sys\n"
    "from memrepo import MemoryRepo\n"
    "from memrepo.hub.serve import run_hub\n"
    "run_hub(MemoryRepo.open(sys.argv[1]), port=0, open_browser=False)\n"
)


def parser() -> argparse.ArgumentParser:
    built = argparse.ArgumentParser(prog="memrepo")
    built.add_argument("--repo")
    cli_hub.register(built.add_subparsers())
    return built


def test_the_command_has_help_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["hub", "--help"])
    text = capsys.readouterr().out
    assert "memrepo hub --no-browser --port 0" in text and "127.0.0.1 only" in text
    args = parser().parse_args(["hub", "--port", "0", "--no-browser"])
    assert args.port == 0 and args.no_browser


@pytest.mark.slow
def test_hub_prints_a_one_time_address_serves_it_and_stops_on_ctrl_c(root: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "--repo", str(root), "hub", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith(f"Memory Hub of {root}: http://127.0.0.1:"), first
        url = first.split(": ", 1)[1].strip()
        assert "works once" in process.stdout.readline()
        with httpx2.Client(timeout=PATIENCE) as client:
            opened = client.get(url, follow_redirects=True)
            assert opened.status_code == 200 and "What it knows" in opened.text
            assert client.get(url).status_code == 403  # spent
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=PATIENCE) == 0
        assert process.stderr is not None
        err = process.stderr.read()
        assert "stopped" in err and "Traceback" not in err
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.slow
def test_a_running_hub_starts_the_daily_pass_when_it_is_due(root: Path) -> None:
    expired = (date.today() - timedelta(days=2)).isoformat()
    with MemoryRepo.open(root) as repo:
        repo.maintain()  # the clock starts; then pretend a day went by
        repo.remember("The beta banner is on until launch", by="agent", expires=expired)
    state = root / ".git" / "memrepo" / STATE_NAME
    day_ago = time.time() - 25 * 3600
    os.utime(state, (day_ago, day_ago))
    env = {key: value for key, value in os.environ.items() if key != OFF}
    env["PYTHONPATH"] = str(PROJECT)
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_ONLY, str(root)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + PATIENCE
        memory = root / "MEMORY.md"
        while "beta banner" in memory.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "beta banner" not in memory.read_text()  # no person typed anything
        log = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%B"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        assert "Memrepo-Origin: maintenance" in log, log
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=PATIENCE) == 0
        assert process.stderr is not None
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if process.stderr is not None:
            process.stderr.close()
