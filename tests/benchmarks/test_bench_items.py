"""The items benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_items_reports_every_budget(bench: Bench) -> None:
    result = bench("bench_items.py", "--items", "300", "--ingests", "40")
    assert set(result["budgets"]) == {"p50_ratio_le_5", "peak_rss_lt_300mb"}
    assert result["items"] == 300 and result["ingest"]["n"] == 40
    assert sum(result["actions"].values()) == 40
