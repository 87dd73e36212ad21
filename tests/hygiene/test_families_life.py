"""Secrets of a person's life by family (tests/hygiene/gen_life.py): every generated
secret is redacted by ``redact_secrets`` and by ``screen``, and no look-alike changes.

The tuning half is what the rules were fitted on (issue #27); the held-out half was
measured once after tuning and found one family kept: a numbered seed phrase under a
heading with none of the seed detector's gate words ("Recovery sheet:"). The gate words
gave way to a gate by shape (twelve short words in a row, ``_life_seed.may_hold_phrase``),
which needs no word beside a phrase; a fresh seed, never looked at, was measured after
that (issue #27's note). Both halves are held to the issue's bar: nothing kept.
"""

from __future__ import annotations

import pytest

from memrepo.hygiene import redact_secrets

from . import gen_life
from .families import failures
from .family_checks import FACES, generated, report

CASES, TUNING, HELD_OUT, LOOKALIKES = generated("gen_life")


def test_every_family_is_sampled_in_both_halves() -> None:
    families = {case.family for case in CASES}
    assert len(families) == len(gen_life.FAMILIES)
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
def test_numbered_phrases_under_any_heading_are_redacted(face: object) -> None:
    numbered = [case for case in CASES if case.family == "life_seed_phrase_numbered"]
    kept, _ = failures(numbered, face)  # type: ignore[arg-type]
    assert numbered and report(kept) == []


def test_a_valid_phrase_with_no_word_beside_it_is_redacted() -> None:
    from mnemonic import Mnemonic

    phrase = Mnemonic("english").to_mnemonic(bytes(range(16)))
    redacted, kinds = redact_secrets(f"Sheet 3: {phrase}. Done.")
    assert kinds == ("seed_phrase",) and phrase.split()[5] not in redacted


@pytest.mark.parametrize("face", FACES)
def test_look_alikes_are_left_as_written(face: object) -> None:
    _, changed = failures(LOOKALIKES, face)  # type: ignore[arg-type]
    assert [case.text for case in changed] == []


def test_a_repeated_list_word_is_not_a_phrase() -> None:
    """Twelve "zebra" pass BIP-39's checksum (one such run in sixteen does): a run of few
    distinct words is a placeholder or a test string, and stays as written."""
    text = "Bo: " + " ".join(["zebra"] * 40)
    assert redact_secrets(text) == (text, ())
    assert redact_secrets("seed phrase: " + " ".join(["abandon"] * 12))[1] == ()
