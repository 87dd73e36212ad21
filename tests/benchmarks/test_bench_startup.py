"""benchmarks/bench_startup.py runs (one round, a tiny repo) so it cannot rot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_startup_reports_every_command(bench: Bench) -> None:
    result = bench("bench_startup.py", "--runs", "1", "--facts", "3")
    assert set(result["commands"]) == {
        "python -c pass", "git log -1", "libraries",
        "memrepo --help", "memrepo --version", "memrepo completion bash", "memrepo recall",
    }  # fmt: skip
    assert result["commands"]["git log -1"]["import_ms"] is None
    for name in ("memrepo --help", "memrepo --version", "memrepo completion bash",
                 "memrepo recall"):  # fmt: skip
        row = result["commands"][name]
        assert row["import_ms"] > 0 and row["cpu_ms"] > 0, name
        assert isinstance(row["goal_import_met"], bool)
    assert set(result["met"]) == set(result["budget"])
