"""The memory-tool benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_memtool_times_each_command_against_remember(bench: Bench) -> None:
    result = bench(
        "bench_memtool.py", "--files", "20", "--entries", "5", "--writes", "4", "--rounds", "1"
    )
    assert result["entries"] == 100 and result["budget"] == 1.5
    for key in ("remember_ms", "insert_ms", "create_ms", "str_replace_ms"):
        assert result[key] > 0
    assert result["insert_ratio"] == pytest.approx(result["insert_ms"] / result["remember_ms"])
