"""The export benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_export_reports_its_ratios(bench: Bench) -> None:
    result = bench(
        "bench_export.py", "--files", "5", "--entries", "4", "--items", "30", "--commits", "2",
        "--rounds", "1", "--kdf-n", "1024",
    )  # fmt: skip
    assert result["corpus"] == {"entries": 23, "items": 30, "commits": 4}
    assert {"ratio", "ratio_without_kdf", "median_seconds"} <= set(result)
