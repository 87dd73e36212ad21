"""The swarm benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_bench_swarm_reports_every_figure() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_swarm.py"), "--writers", "2", "--notes", "3",
         "--rounds", "1", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert set(result["median"]) >= {"throughput_ratio", "total_time_ratio"}
    assert result["median"]["single_notes_per_s"] > 0
    assert set(result["budgets"]) == {"concurrent_not_slower_than_sequential"}
