"""The swarm benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_swarm_reports_every_figure(bench: Bench) -> None:
    result = bench("bench_swarm.py", "--writers", "2", "--notes", "3", "--rounds", "1")
    assert set(result["median"]) >= {"throughput_ratio", "total_time_ratio"}
    assert result["median"]["single_notes_per_s"] > 0
    assert set(result["budgets"]) == {"concurrent_not_slower_than_sequential"}
