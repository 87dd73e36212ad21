"""benchmarks/secret_families.py runs (both halves, a few cases through every write path)
so the report in issue #27's closing note can be made again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_secret_families_reports_both_halves_and_every_path(bench: Bench) -> None:
    figures = bench("secret_families.py", "--per-family", "2", "--paths", "--path-cases", "8")
    assert set(figures) >= {"tuning", "held_out", "fixtures", "paths_held_out"}
    assert figures["fixtures"]["leaks"] == 0
    paths = figures["paths_held_out"]
    assert set(paths) == {"python", "item", "cli", "tools", "jsonl", "claude_code", "hand_edit"}
    assert all(path["kept"] == 0 for path in paths.values()), paths
