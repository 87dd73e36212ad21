"""The sync benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_bench_sync_reports_ratios() -> None:
    sizes = ["--entries", "4", "--touch", "2", "--rounds", "1"]
    out = subprocess.run(
        [sys.executable, "bench_sync.py", *sizes, "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert set(result["medians_ms"]) == {"same", "different", "git"}
    assert result["ratio_same_files"] > 0 and result["ratio_different_files"] > 0
    assert result["git_status_clean"] is True
    # The corpus (40 files x 20 + 1) and, in each round (warm-up included) and each of
    # the two variants, 4 new entries on each machine.
    assert result["entries_total"] == 40 * 20 + 1 + 2 * 2 * (4 + 4)
