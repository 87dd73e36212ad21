"""benchmarks/bench_context.py runs at a tiny size and reports its figure and the L0 cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_context_reports_the_ratio_and_cache_reuse(bench: Bench) -> None:
    result = bench("bench_context.py", "--size", "300", "--queries", "8")
    assert set(result["figures"]) == set(result["within_budget"]) == {"context_p50_ratio"}
    assert result["budget"] == {"context_p50_ratio": 2.0}
    assert result["figures"]["context_p50_ratio"] > 0
    assert result["turns"]["context"]["n"] == result["turns"]["recall"]["n"] == 8
    assert result["turns"]["l0_rebuilds_during_turns"] == 0
    assert result["cache"]["rebuilds_after_one_write"] == 1
    assert result["cache"]["rebuilds_on_the_next_turn"] == 0
    assert result["first_turn_refs"] > 0 and result["first_turn_tokens"] > 0
