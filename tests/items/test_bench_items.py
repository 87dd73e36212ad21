"""The items benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_bench_items_reports_every_budget() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_items.py"), "--items", "300", "--ingests",
         "40", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert set(result["budgets"]) == {"p50_ratio_le_5", "peak_rss_lt_300mb"}
    assert result["items"] == 300 and result["ingest"]["n"] == 40
    assert sum(result["actions"].values()) == 40
