"""benchmarks/bench_mcp.py runs at a tiny size and reports every figure with its budget,
and every call it timed reached a real server (no timings are judged here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

FIGURES = {
    "stdio_overhead_p50_ms",
    "http_overhead_p50_ms",
    "http_session_overhead_p50_ms",
    "concurrent_errors",
    "recall_only_speedup",
    "mixed_speedup",
    "mixed_errors",
    "lost_writes",
    "fsck_problems",
}
WAYS = ("stdio", "http", "http_session", "stdio_raw", "http_raw")


@pytest.mark.slow
@pytest.mark.integration
def test_bench_mcp_reports_every_figure(bench: Bench) -> None:
    result = bench(
        "bench_mcp.py", "--entries", "200", "--calls", "12", "--rounds", "2",
        "--clients", "3", "--client-calls", "4", timeout=600,
    )  # fmt: skip
    assert set(result["figures"]) == set(result["within_budget"]) == set(result["budget"])
    assert set(result["figures"]) == FIGURES
    assert result["entries"] == 200
    assert len(result["rounds"]) == 2
    for one in result["rounds"]:
        assert one["direct"]["n"] == 12
        for way in WAYS:
            assert one[way]["round_trip"]["n"] == one[way]["overhead"]["n"] == 12
    assert set(result["median"]) == {f"{w}_overhead_{q}_ms" for w in WAYS for q in ("p50", "p95")}
    # The mixed load: every call answered, half the calls of the 50/50 mix remembered.
    assert result["figures"]["mixed_errors"] == result["figures"]["lost_writes"] == 0
    assert result["figures"]["fsck_problems"] == 0
    for one in result["mixed_load"]:
        assert one["mixed"]["many"]["calls"] == 3 * 4
        assert len(one["mixed"]["many"]["written"]) == 3 * 2
        assert one["recall_only"]["one"]["written"] == []

    load = result["concurrent"]
    assert (load["clients"], load["calls_per_client"], load["calls"]) == (3, 4, 12)
    assert load["errors"] == 0 and load["first_errors"] == []
    assert load["latency"]["n"] == 12 and load["calls_per_second"] > 0
    assert result["figures"]["concurrent_errors"] == 0

    server = result["http_server_log"]
    warmup = 10  # bench_mcp.WARMUP calls per way before the timed rounds
    # The three HTTP ways' warm-up and rounds, then the concurrent clients, then the
    # mixed load's recalls (per round: all of 1 + 3 clients' 4 calls, then half): all answered.
    mixed_recalls = 2 * (4 + 3 * 4 + 2 + 3 * 2)
    assert server["tools_call_200"] == 3 * (warmup + 2 * 12) + 12 + mixed_recalls
    assert server["timed_calls"] == 3 * 2 * 12 and server["timed_p50_ms"] > 0
    assert set(result["load_average"]) == {"before", "after"}
    assert server["stopped_cleanly"] is True
