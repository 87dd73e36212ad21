"""The `why` benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_bench_why_reports_time_memory_and_every_event() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_why.py"), "--commits", "240", "--entries",
         "40", "--rounds", "1", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert result["events"] == [
        "added", "moved", "moved", "changed", "removed", "added", "changed",
    ]  # fmt: skip
    assert result["why_ms"] > 0 and result["why_peak_mib"] > 0
    assert result["ratio_to_parse_every_version"] < 1.0
