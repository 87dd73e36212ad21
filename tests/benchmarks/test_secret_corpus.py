"""benchmarks/secret_corpus.py runs and reports the figures the closing note quotes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Bench = Callable[..., Any]


@pytest.mark.slow
def test_secret_corpus_reports_zero_leaks_and_zero_false_positives(bench: Bench) -> None:
    figures = bench("secret_corpus.py", "--entropy", timeout=120)
    assert figures["secrets"] >= 60 and figures["lookalikes"] >= 30
    assert figures["leaks"] == 0 and set(figures["leaks_per_family"].values()) == {0}
    assert figures["false_positives"] == 0
    assert figures["entropy"]["identifiers_flagged"] < 0.02
    assert figures["entropy"]["random_tokens_flagged"] > 0.7
