"""Vendor tokens by family (tests/hygiene/gen_tokens.py): every generated secret is
redacted by ``redact_secrets`` and by ``screen``, and no look-alike changes.

The tuning half is what the rules were fitted on; the held-out half was measured once
after tuning (issue #27) and is held to the issue's bar: nothing kept, at most one
false positive.
"""

from __future__ import annotations

import pytest

from memrepo.hygiene import redact_secrets

from . import gen_tokens
from .families import failures
from .family_checks import FACES, generated, report

CASES, TUNING, HELD_OUT, LOOKALIKES = generated("gen_tokens")


def test_every_family_is_sampled_in_both_halves() -> None:
    families = {case.family for case in CASES}
    assert len(families) == len(gen_tokens.FAMILIES) >= 150
    assert {case.family for case in TUNING} == {case.family for case in HELD_OUT} == families


@pytest.mark.parametrize("face", FACES)
def test_tuning_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(TUNING, face)  # type: ignore[arg-type]
    assert report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_held_out_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(HELD_OUT, face)  # type: ignore[arg-type]
    assert report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_look_alikes_are_left_as_written(face: object) -> None:
    _, changed = failures(LOOKALIKES, face)  # type: ignore[arg-type]
    assert [case.text for case in changed] == []


def test_placeholders_of_every_token_rule_are_not_secrets() -> None:
    """Stand-in bodies after real prefixes (gitleaks' own false positives)."""
    placeholders = [case for case in LOOKALIKES if case.family == "token_placeholder"]
    assert len(placeholders) >= 15
    assert [case.text for case in placeholders if redact_secrets(case.text)[1]] == []
