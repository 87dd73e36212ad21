"""The `why` benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_why_reports_time_memory_and_every_event(bench: Bench) -> None:
    result = bench(
        "bench_why.py", "--commits", "240", "--entries", "40", "--rounds", "1", "--wide", "2000"
    )
    assert result["events"] == [
        "added", "moved", "moved", "changed", "removed", "added", "changed",
    ]  # fmt: skip
    assert result["why_ms"] > 0 and result["why_peak_mib"] > 0
    assert result["ratio_to_parse_every_version"] < 1.0
    wide = result["wide"]  # issue #28: a 2-commit history among 2,000 entries
    assert wide["events"] == ["added", "changed"]
    assert wide["why_cpu_ms"] > 0 and wide["git_log_follow_p_wall_ms"] > 0
