"""The suite's own scheduling: the modules started first must exist, or a rename would
quietly put a long module back at the end of a parallel run (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST_FIRST

PROJECT = Path(__file__).resolve().parent.parent


def test_every_module_started_first_exists() -> None:
    missing = [path for path in LONGEST_FIRST if not (PROJECT / path).is_file()]
    assert missing == []
