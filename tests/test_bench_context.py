"""benchmarks/bench_context.py runs at a tiny size and reports its figure and the L0 cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.slow
def test_bench_context_reports_the_ratio_and_cache_reuse() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_context.py"),
         "--size", "300", "--queries", "8", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert set(result["figures"]) == set(result["within_budget"]) == {"context_p50_ratio"}
    assert result["budget"] == {"context_p50_ratio": 2.0}
    assert result["figures"]["context_p50_ratio"] > 0
    assert result["turns"]["context"]["n"] == result["turns"]["recall"]["n"] == 8
    assert result["turns"]["l0_rebuilds_during_turns"] == 0
    assert result["cache"]["rebuilds_after_one_write"] == 1
    assert result["cache"]["rebuilds_on_the_next_turn"] == 0
    assert result["first_turn_refs"] > 0 and result["first_turn_tokens"] > 0
