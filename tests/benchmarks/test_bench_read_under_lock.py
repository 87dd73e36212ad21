"""benchmarks/bench_read_under_lock.py runs at a tiny size and reports every figure with
its budget; every held write landed once the lock was released (no timings are judged
here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")


@pytest.mark.slow
@pytest.mark.integration
def test_bench_read_under_lock_reports_every_figure(bench: Bench) -> None:
    result = bench(
        "bench_read_under_lock.py", "--entries", "100", "--calls", "4", "--cli-calls", "2",
        "--rounds", "2", timeout=600,
    )  # fmt: skip
    assert set(result["figures"]) == set(result["within_budget"]) == set(result["budget"])
    assert set(result["figures"]) == {"stdio_ratio", "http_ratio", "cli_ratio"}
    assert len(result["rounds"]) == 2
    for one in result["rounds"]:
        for way in ("stdio", "http", "cli"):
            assert one[way]["locked"]["p95_ms"] > 0 and one[way]["idle"]["cpu_s"] >= 0
    assert result["held_writes_landed"] == 2 * 2  # stdio and HTTP, each round
