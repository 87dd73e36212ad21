"""The import benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_import_reports_speedup_and_rate(bench: Bench) -> None:
    result = bench("bench_import.py", "--facts", "50", "--sample", "5", "--rounds", "1")
    assert result["facts"] == 50
    assert {"speedup", "import_entries_per_second", "remember_scaled_seconds"} <= set(result)
