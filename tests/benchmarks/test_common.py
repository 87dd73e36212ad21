"""benchmarks/_common.py: the helpers every benchmark's figures rest on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

CHILD = f"""
import json, sys
sys.path.insert(0, {str(BENCHMARKS)!r})
from _common import peak_rss_mb
print(json.dumps(peak_rss_mb()))
"""

PARENT = f"""
import json, subprocess, sys
held = bytearray(300 * 1024 * 1024)
for i in range(0, len(held), 4096):
    held[i] = 1
sys.path.insert(0, {str(BENCHMARKS)!r})
from _common import peak_rss_mb
child = subprocess.run([sys.executable, "-c", {CHILD!r}], capture_output=True, text=True,
                       check=True).stdout
print(json.dumps({{"parent": peak_rss_mb(), "child": json.loads(child)}}))
"""


@pytest.mark.slow
def test_a_child_reports_its_own_peak_not_its_parents() -> None:
    """A benchmark measures a rebuild's memory in a child it starts: the figure must be
    the child's, however much the parent holds (ru_maxrss would carry the parent's)."""
    out = subprocess.run([sys.executable, "-c", PARENT], capture_output=True, text=True,
                         check=True, timeout=120).stdout  # fmt: skip
    peaks = json.loads(out)
    assert peaks["parent"] > 300
    assert peaks["child"] < 100
