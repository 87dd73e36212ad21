"""What every ``test_families_*`` module shares: its generator's cases split in halves,
the two faces of the detector each case goes through, and a readable failure report.

The cases are ``families.cases_of``'s, so a test and ``benchmarks/secret_families.py``
see the same ones.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memrepo.hygiene import redact_secrets, screen

from .families import Case, cases_of, lookalikes_of, split


class Generated(NamedTuple):
    """One generator's cases, its tuning and held-out halves, and its look-alikes."""

    cases: list[Case]
    tuning: list[Case]
    held_out: list[Case]
    lookalikes: list[Case]


def generated(name: str) -> Generated:
    """The cases of generator ``name`` (a ``gen_*`` module of this folder)."""
    cases = cases_of(name)
    assert cases, f"{name} generates no case"
    tuning, held_out = split(cases)
    return Generated(cases, tuning, held_out, lookalikes_of(name))


def _redacted(text: str) -> str:
    return redact_secrets(text)[0]


def _screened(text: str) -> str:
    return screen(text, max_chars=100_000).text or ""


#: The detector's two faces: what redaction leaves, and what the write screen keeps.
FACES = [pytest.param(_redacted, id="redact_secrets"), pytest.param(_screened, id="screen")]


def report(kept: list[tuple[Case, list[str]]]) -> list[str]:
    """Each failing case as its family and the start of its text."""
    return [f"{case.family}: {case.text[:100]!r}" for case, _ in kept]
