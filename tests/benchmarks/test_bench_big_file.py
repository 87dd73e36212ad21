"""benchmarks/bench_big_file.py runs at a small size and reports every figure with its budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

FIGURES = {
    "huge_first_recall_s",
    "huge_peak_rss_mb",
    "under_first_recall_s",
    "under_peak_rss_mb",
    "skip_ratio",
    "parse_linearity",
}


@pytest.mark.slow
def test_bench_big_file_skips_the_big_file_and_indexes_the_one_under_the_limit(
    bench: Bench,
) -> None:
    # 160,000 lines pass the 5 MiB limit (the skip costs little); the file under the
    # limit is kept small here, as the full run's 5 MiB takes minutes to index.
    result = bench("bench_big_file.py", "--lines", "160000", "--under-bytes", "60000")
    assert set(result["figures"]) == FIGURES
    assert set(result["within_budget"]) == FIGURES - {"huge_first_recall_s",
                                                      "under_first_recall_s"}  # fmt: skip
    assert result["files"]["huge"]["bytes"] > result["limit_bytes"]
    assert result["files"]["under"]["bytes"] <= 60000
    huge, under = result["recall"]["huge"], result["recall"]["under"]
    assert huge["found_other"] and under["found_other"]
    assert len(huge["notices"]) == 1 and "MEMORY.md" in huge["notices"][0]
    assert under["notices"] == []
    assert result["parse"]["huge"]["entries"] == 160000
    assert result["parse"]["under"]["entries"] == result["files"]["under"]["lines"] - 5
