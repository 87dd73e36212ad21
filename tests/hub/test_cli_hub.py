"""`memrepo hub` as a person runs it: a real process that prints a one-time address on
stdout, serves it, and stops on Ctrl-C. (Its registration in `memrepo.cli` is one line
the CLI's owner adds; until then the module's own `register` builds the parser.)"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from memrepo.cli import hub as cli_hub

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
