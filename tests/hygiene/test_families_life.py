"""Secrets of a person's life by family (tests/hygiene/gen_life.py): every generated
secret is redacted by ``redact_secrets`` and by ``screen``, and no look-alike changes.

The tuning half is what the rules were fitted on (issue #27); the held-out half was
measured once after tuning and is held to the issue's bar (nothing kept), except for the
one family the measurement found kept: a numbered seed phrase under a heading with none
of the seed detector's gate words ("Recovery sheet:"). It stays a strict xfail until a
rule covers it, so the day it is caught the test says so.
"""

from __future__ import annotations

import random

import pytest

from memrepo.hygiene import redact_secrets, screen

from . import gen_life
from .families import GENERATORS, PER_FAMILY, SEED, Case, failures, split

_INDEX = GENERATORS.index("gen_life")
CASES = gen_life.cases(random.Random(SEED * 1000 + _INDEX), PER_FAMILY)
TUNING, HELD_OUT = split(CASES)
LOOKALIKES = gen_life.lookalikes(random.Random(SEED * 1000 + 500 + _INDEX))
#: Families the held-out measurement found kept (not tuned after it).
KNOWN_MISSES = {"life_seed_phrase_numbered"}


def _without_misses(cases: list[Case]) -> list[Case]:
    return [case for case in cases if case.family not in KNOWN_MISSES]


def _redacted(text: str) -> str:
    return redact_secrets(text)[0]


def _screened(text: str) -> str:
    return screen(text, max_chars=100_000).text or ""


FACES = [pytest.param(_redacted, id="redact_secrets"), pytest.param(_screened, id="screen")]


def _report(kept: list[tuple[Case, list[str]]]) -> list[str]:
    return [f"{case.family}: {case.text[:100]}" for case, _ in kept]


def test_every_family_is_sampled_in_both_halves() -> None:
    families = {case.family for case in CASES}
    assert len(families) == len(gen_life.FAMILIES)
    assert {case.family for case in TUNING} == {case.family for case in HELD_OUT} == families


@pytest.mark.parametrize("face", FACES)
def test_tuning_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(_without_misses(TUNING), face)  # type: ignore[arg-type]
    assert _report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_held_out_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(_without_misses(HELD_OUT), face)  # type: ignore[arg-type]
    assert _report(kept) == []


@pytest.mark.xfail(strict=True, reason="no gate word: a numbered phrase under 'Recovery sheet'")
@pytest.mark.parametrize("face", FACES)
def test_numbered_phrases_without_a_gate_word_are_redacted(face: object) -> None:
    misses = [case for case in CASES if case.family in KNOWN_MISSES]
    kept, _ = failures(misses, face)  # type: ignore[arg-type]
    assert _report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_look_alikes_are_left_as_written(face: object) -> None:
    _, changed = failures(LOOKALIKES, face)  # type: ignore[arg-type]
    assert [case.text for case in changed] == []
