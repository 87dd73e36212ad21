"""The dream benchmark and its seeded fixture run (tiny sizes) so they cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_bench_dream_finds_every_planted_problem() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_dream.py"), "--entries", "300", "--rounds",
         "1", "--settled", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    quality = result["quality"]
    assert quality["exact_recall"] == 1.0 and quality["expired_recall"] == 1.0
    assert quality["false_merges"] == 0
    assert quality["contradictions_found"] == quality["contradictions_planted"]
    assert quality["links_reported"] == 3 and quality["unlisted_linked"] == 2
    assert result["corpus"]["entries"] >= 300 and result["timing"]["ratio"] > 0
    assert result["timing"]["dry_run_ms"] > 0 and result["settled"] is True


@pytest.mark.slow
def test_bench_dream_merges_every_reworded_template_fact() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_dream.py"), "--entries", "600", "--corpus",
         "templated", "--rounds", "1", "--json"],
        check=True, capture_output=True, text=True, cwd=BENCHMARKS, timeout=300,
    ).stdout  # fmt: skip
    result = json.loads(out)
    quality = result["quality"]
    assert quality["reworded_planted"] == 12 and quality["near_recall"] == 1.0
    assert quality["false_merges"] == 0
    assert result["corpus"] == {"kind": "templated", "entries": 613, "seed": 7, "rounds": 1}
    assert result["review_ops"] == 12 and result["safe_ops"] == 0
