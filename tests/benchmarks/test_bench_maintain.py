"""The maintenance benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_maintain_reports_the_passes_cpu(bench: Bench) -> None:
    result = bench(
        "bench_maintain.py", "--files", "10", "--entries", "5", "--items", "20", "--rounds", "1"
    )
    assert result["entries"] == 50 and result["items"] == 20
    assert result["maintain_cpu_s"] > 0 and result["parse_all_cpu_s"] > 0
    assert result["budget_cpu_s"] == 2.0
