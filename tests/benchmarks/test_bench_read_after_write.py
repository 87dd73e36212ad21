"""The read-after-write benchmark runs (a tiny corpus) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_read_after_write_reports_both_budgets_in_cpu_and_wall(bench: Bench) -> None:
    result = bench(
        "bench_read_after_write.py", "--sizes", "200", "--writes", "4", "--rounds", "1",
        "--memory-md", "40",
    )  # fmt: skip
    (size,) = result["sizes"]
    assert size["entries"] == 200 and size["writes_per_round"] == 4
    assert size["after_ms"] > 0 and size["idle_cpu_ms"] > 0 and size["git_ms"] > 0
    # The figures are rounded to 2 places, the ratios taken before rounding.
    assert size["recall_after_write_ratio"] == pytest.approx(
        size["after_ms"] / size["idle_ms"], 0.02
    )
    assert size["remember_vs_git"] == pytest.approx(size["write_ms"] / size["git_ms"], 0.02)
    assert result["budget_recall_after_write"] == 1.2
    assert result["memory_md"]["entries"] == 40 and result["memory_md"]["write_cpu_ms"] > 0
