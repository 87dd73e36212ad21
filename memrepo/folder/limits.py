"""The size memrepo supports for one memory file, shared by every layer that reads one.

A person can commit anything with plain git: a MEMORY.md of a million lines (36 MB) took
more than ten minutes and 1.5 GB to index. Files up to `MAX_FILE_BYTES` are read, linted
and indexed; a larger one is reported (lint, health, recall's one-line notice) and left
out, so the rest of the memory keeps working. The figure is measured, not guessed: a
file at the limit (~145,000 one-line entries) indexes within the repository budget the
benchmarks hold (`benchmarks/bench_big_file.py`). This module imports nothing of ours.
"""

from __future__ import annotations

__all__ = ["MAX_FILE_BYTES", "describe_size"]

MAX_FILE_BYTES = 5 * 1024 * 1024
"""The largest memory file memrepo reads (5 MiB); a larger one is skipped and named."""


def describe_size(size: int) -> str:
    """A byte count as people read file sizes here (``40.9 MiB``)."""
    return f"{size / 1024 / 1024:.1f} MiB"
