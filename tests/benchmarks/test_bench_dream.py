"""The dream benchmark and its seeded fixture run (tiny sizes) so they cannot rot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]

pytestmark = pytest.mark.slow


def test_bench_dream_finds_every_planted_problem(bench: Bench) -> None:
    result = bench("bench_dream.py", "--entries", "300", "--rounds", "1", "--settled")
    quality = result["quality"]
    assert quality["exact_recall"] == 1.0 and quality["expired_recall"] == 1.0
    assert quality["false_merges"] == 0
    assert quality["contradictions_found"] == quality["contradictions_planted"]
    assert quality["links_reported"] == 3 and quality["unlisted_linked"] == 2
    assert result["corpus"]["entries"] >= 300 and result["timing"]["ratio"] > 0
    assert result["timing"]["dry_run_ms"] > 0 and result["settled"] is True


def test_bench_dream_merges_every_reworded_template_fact(bench: Bench) -> None:
    result = bench("bench_dream.py", "--entries", "600", "--corpus", "templated", "--rounds", "1")
    quality = result["quality"]
    assert quality["reworded_planted"] == 12 and quality["near_recall"] == 1.0
    assert quality["false_merges"] == 0
    assert result["corpus"] == {"kind": "templated", "entries": 613, "seed": 7, "rounds": 1}
    assert result["review_ops"] == 12 and result["safe_ops"] == 0
