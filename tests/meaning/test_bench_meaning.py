"""The meaning bench runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_meaning_reports_each_budget_with_cpu_time(bench: Bench) -> None:
    result = bench(
        "bench_meaning.py", "--entries", "40", "--rows", "2000", "--rounds", "1",
        "--queries", "3",
    )  # fmt: skip
    embedding, vectors = result["embedding"], result["vectors"]
    assert embedding["entries"] == 40
    assert embedding["cpu_s_per_1000"] > 0 and embedding["model_alone_cpu_s_per_1000"] > 0
    assert vectors["rows"] == 2000 and vectors["file_bytes"] > 2000 * 384
    assert vectors["search_lane_cpu_ms"] > 0 and vectors["search_numpy_cpu_ms"] > 0
    assert result["import"]["after_recall_wall_s"] > 0
    assert "fastembed" in result["installed"]["distributions"]
    assert result["budgets"]["vector_mb_per_100000"] == 50.0
