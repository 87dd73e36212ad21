"""benchmarks/secret_corpus.py runs and reports the figures the closing note quotes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _figures(script: str, *args: str) -> Any:
    """The `--json` figures a benchmark script prints, run as a user runs it."""
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args, "--json"],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCHMARKS,
        timeout=120,
    ).stdout
    return json.loads(out)


def test_secret_corpus_reports_zero_leaks_and_zero_false_positives() -> None:
    figures = _figures("secret_corpus.py", "--entropy")
    assert figures["secrets"] >= 60 and figures["lookalikes"] >= 30
    assert figures["leaks"] == 0 and set(figures["leaks_per_family"].values()) == {0}
    assert figures["false_positives"] == 0
    assert figures["entropy"]["identifiers_flagged"] < 0.02
    assert figures["entropy"]["random_tokens_flagged"] > 0.7


def test_bench_screen_small_inputs_run() -> None:
    per_call = _figures("bench_screen.py", "--small-only")["per_call_us"]
    assert set(per_call) == {"memory line", "prose 2000", "notes 2000"}
