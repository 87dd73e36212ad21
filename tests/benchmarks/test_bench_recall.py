"""benchmarks/bench_recall.py runs at a tiny size and reports every figure with its budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

FIGURES = {
    "recall_p50_ratio_300",
    "recall_p95_ratio_300",
    "recall_p50_ratio_600",
    "recall_p95_ratio_600",
    "whoosh_p50_ratio_300",
    "whoosh_p95_ratio_300",
    "whoosh_p50_ratio_600",
    "whoosh_p95_ratio_600",
    "rebuild_ratio",
    "incremental_ratio",
    "catchup_ratio",
    "peak_rss_mb",
    "cli_seconds_300",
    "cli_seconds_600",
}


@pytest.mark.slow
def test_bench_recall_reports_every_figure(bench: Bench) -> None:
    result = bench("bench_recall.py", "--sizes", "600,300", "--queries", "12", timeout=600)
    assert set(result["figures"]) == FIGURES
    assert set(result["within_budget"]) == FIGURES
    assert set(result["budget"]) == {
        "recall_p50_ratio", "recall_p95_ratio", "whoosh_p50_ratio", "whoosh_p95_ratio",
        "rebuild_ratio", "incremental_ratio", "catchup_ratio",
        "peak_rss_mb", "cli_seconds",
    }  # fmt: skip
    assert all(value > 0 for value in result["figures"].values())
    for size in ("300", "600"):
        recall = result["sizes"][size]["recall"]
        assert recall["memrepo"]["n"] == recall["fts5"]["n"] == recall["raw_whoosh"]["n"] == 12
        assert recall["queries_with_hits"] > 0  # queries come from the corpus
    assert result["rebuild"]["documents"] == 600 + 1  # plus the MEMORY.md fact
    for size in ("300", "600"):
        cli = result["cli"][size]
        assert len(cli["runs"]) == 5
        assert set(cli["split"]) == {
            "import_s",
            "search_import_s",
            "open_s",
            "first_search_s",
            "second_search_s",
        }
        assert all(value > 0 for value in cli["split"].values())
