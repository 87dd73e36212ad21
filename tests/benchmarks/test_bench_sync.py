"""The sync benchmark runs (tiny sizes) so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_sync_reports_ratios(bench: Bench) -> None:
    result = bench("bench_sync.py", "--entries", "4", "--touch", "2", "--rounds", "1")
    assert set(result["medians_ms"]) == {"same", "different", "git"}
    assert result["ratio_same_files"] > 0 and result["ratio_different_files"] > 0
    assert result["git_status_clean"] is True
    # The corpus (40 files x 20 + 1) and, in each round (warm-up included) and each of
    # the two variants, 4 new entries on each machine.
    assert result["entries_total"] == 40 * 20 + 1 + 2 * 2 * (4 + 4)
