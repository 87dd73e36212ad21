"""Secrets in an encoding by family (tests/hygiene/gen_encoded.py): every generated
secret is redacted by ``redact_secrets`` and by ``screen``, and no look-alike changes.

The tuning half is what the rules were fitted on (issue #27); the held-out half was
measured once after tuning and is held to the issue's bar: nothing kept.
"""

from __future__ import annotations

import random

import pytest

from memrepo.hygiene import redact_secrets, screen

from . import gen_encoded
from .families import GENERATORS, PER_FAMILY, SEED, Case, failures, split

_INDEX = GENERATORS.index("gen_encoded")
CASES = gen_encoded.cases(random.Random(SEED * 1000 + _INDEX), PER_FAMILY)
TUNING, HELD_OUT = split(CASES)
LOOKALIKES = gen_encoded.lookalikes(random.Random(SEED * 1000 + 500 + _INDEX))


def _redacted(text: str) -> str:
    return redact_secrets(text)[0]


def _screened(text: str) -> str:
    return screen(text, max_chars=100_000).text or ""


FACES = [pytest.param(_redacted, id="redact_secrets"), pytest.param(_screened, id="screen")]


def _report(kept: list[tuple[Case, list[str]]]) -> list[str]:
    return [f"{case.family}: {case.text[:100]}" for case, _ in kept]


def test_every_family_is_sampled_in_both_halves() -> None:
    families = {case.family for case in CASES}
    assert len(families) == len(gen_encoded.FAMILIES)
    assert {case.family for case in TUNING} == {case.family for case in HELD_OUT} == families


@pytest.mark.parametrize("face", FACES)
def test_tuning_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(TUNING, face)  # type: ignore[arg-type]
    assert _report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_held_out_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(HELD_OUT, face)  # type: ignore[arg-type]
    assert _report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_look_alikes_are_left_as_written(face: object) -> None:
    _, changed = failures(LOOKALIKES, face)  # type: ignore[arg-type]
    assert [case.text for case in changed] == []
