"""benchmarks/bench_screen.py runs on its small inputs so it cannot rot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_screen_small_inputs_run(bench: Bench) -> None:
    per_call = bench("bench_screen.py", "--small-only", timeout=120)["per_call_us"]
    assert set(per_call) == {"memory line", "prose 2000", "notes 2000"}
