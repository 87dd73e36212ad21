"""The index-build benchmark runs (a tiny corpus) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_index_build_reports_both_sides_in_cpu_and_wall(bench: Bench) -> None:
    result = bench("bench_index_build.py", "--sizes", "300", "--rounds", "1")
    (size,) = result["sizes"]
    assert size["entries"] == 300 and size["documents"] == 301  # + MEMORY.md's own line
    assert size["rebuild_cpu_s"] > 0 and size["one_field_cpu_s"] > 0
    assert size["ratio_cpu"] == size["rebuild_cpu_s"] / size["one_field_cpu_s"]
    assert size["ratio_wall"] > 0 and result["budget_ratio_cpu"] == 6.0
