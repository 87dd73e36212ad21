"""The write benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_write_reports_every_budget(bench: Bench) -> None:
    result = bench(
        "bench_write.py", "--files", "20", "--entries", "5", "--writes", "5", "--undos", "3",
        "--parse-runs", "1", "--rounds", "1",
    )  # fmt: skip
    assert set(result["median"]) >= {"write_p50_ratio", "parse_ratio", "undo_p50_ratio"}
    assert result["corpus"]["entries"] == 100
    assert result["git_status_clean_after_writes"] is True
