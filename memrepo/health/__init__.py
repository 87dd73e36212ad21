"""Health and sources of a memory root: checks with thresholds, counts of who wrote what.

Everything here only reads (git objects, working-tree bytes, a query-only SQLite
connection, the index's files), so `memrepo health` is safe to run at any time, also
while another process writes. The thresholds live in `thresholds.json` next to this file.
"""

from memrepo.health.report import CHECKS, run_health
from memrepo.health.sources import collect_sources
from memrepo.health.thresholds import PRESETS, Limit, Thresholds, load_thresholds

__all__ = [
    "CHECKS",
    "PRESETS",
    "Limit",
    "Thresholds",
    "collect_sources",
    "load_thresholds",
    "run_health",
]
