"""bench_hub.py runs at a tiny size, so it cannot rot between measurements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytest.importorskip("starlette", reason="the Memory Hub is the optional extra memrepo[hub]")

pytestmark = pytest.mark.slow


def test_bench_hub_reports_every_page(bench: Bench) -> None:
    result = bench(
        "bench_hub.py", "--files", "4", "--entries", "10", "--items", "4", "--requests", "2",
        "--baseline-runs", "1",
    )  # fmt: skip
    assert result["entries"] == 44  # 40 topic lines, MEMORY.md's own and 3 that link
    shown = {"knows", "knows_every_prompt", "memory", "file", "history", "review", "settings"}
    assert set(result["pages"]) >= shown | {"agent"}
    for page in result["pages"].values():
        assert page["server"]["n"] == 2 and page["server"]["p50_ms"] > 0
    assert set(result["within_budget"]) == {"page_p50_ms", "page_p95_ms"}
