"""The benchmark scripts run (tiny sizes) so they cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str) -> str:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCHMARKS,
        timeout=300,
    ).stdout


@pytest.mark.slow
def test_bench_write_reports_every_budget() -> None:
    out = run(
        "bench_write.py", "--files", "20", "--entries", "5", "--writes", "5", "--undos", "3",
        "--parse-runs", "1", "--rounds", "1", "--json",
    )  # fmt: skip
    result = json.loads(out)
    assert set(result["median"]) >= {"write_p50_ratio", "parse_ratio", "undo_p50_ratio"}
    assert result["corpus"]["entries"] == 100
    assert result["git_status_clean_after_writes"] is True
