"""The export and import benchmark scripts run (tiny sizes) so they cannot rot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]


@pytest.mark.slow
def test_bench_export_reports_its_ratios(bench: Bench) -> None:
    result = bench(
        "bench_export.py", "--files", "5", "--entries", "4", "--items", "30", "--commits", "2",
        "--rounds", "1", "--kdf-n", "1024",
    )  # fmt: skip
    assert result["corpus"] == {"entries": 23, "items": 30, "commits": 4}
    assert {"ratio", "ratio_without_kdf", "median_seconds"} <= set(result)


@pytest.mark.slow
def test_bench_import_reports_speedup_and_rate(bench: Bench) -> None:
    result = bench("bench_import.py", "--facts", "50", "--sample", "5", "--rounds", "1")
    assert result["facts"] == 50
    assert {"speedup", "import_entries_per_second", "remember_scaled_seconds"} <= set(result)
