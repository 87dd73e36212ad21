"""Vendor credentials known by a keyword (tests/hygiene/gen_keyed.py): every generated
secret is redacted by ``redact_secrets`` and by ``screen``, only the value is, and no
look-alike changes.

The tuning half is what the rules were fitted on; the held-out half was measured once
after tuning (issue #27) and is held to the issue's bar: nothing kept, at most one
false positive.
"""

from __future__ import annotations

from re import _parser  # type: ignore[attr-defined]  # stdlib, no stub

import pytest

from memrepo.hygiene import find_secrets, redact_secrets
from memrepo.hygiene._base import MAX_RULE_SPAN
from memrepo.hygiene._keyed import _AFTER, _COMPILED, KIND
from memrepo.hygiene._keyed_table import KEYED_FAMILIES

from . import gen_keyed
from .families import failures
from .family_checks import FACES, generated, report

CASES, TUNING, HELD_OUT, LOOKALIKES = generated("gen_keyed")


def test_families_are_unique_and_sampled_in_both_halves() -> None:
    names = [name for name, *_ in gen_keyed.FAMILIES]
    assert len(names) == len(set(names)) >= 100
    assert len({family.name for family in KEYED_FAMILIES}) == len(KEYED_FAMILIES)
    families = {case.family for case in CASES}
    assert {case.family for case in TUNING} == {case.family for case in HELD_OUT} == families


def test_every_generated_family_is_in_the_table() -> None:
    """The generator's shapes are written apart from the detector's table: each family
    must still have its row there, and each row its generated family."""
    table = {family.name for family in KEYED_FAMILIES}
    generated = {name for name, *_ in gen_keyed.FAMILIES}
    assert generated == table


@pytest.mark.parametrize("face", FACES)
def test_tuning_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(TUNING, face)  # type: ignore[arg-type]
    assert report(kept) == []


#: The held-out half, measured once after tuning: 1 of 357 kept, no false positive: a
#: Telegram bot token with a 14-digit bot id, which the token rule (8-10 digits, "AA")
#: did not know. The rule now takes the documented shape (an id of 5-16 digits, ":A" and
#: 34 more); a fresh seed, never looked at, was measured after that (issue #27's note).
@pytest.mark.parametrize("face", FACES)
def test_held_out_half_keeps_no_secret(face: object) -> None:
    kept, _ = failures(HELD_OUT, face)  # type: ignore[arg-type]
    assert report(kept) == []


@pytest.mark.parametrize("face", FACES)
def test_look_alikes_are_left_as_written(face: object) -> None:
    _, changed = failures(LOOKALIKES, face)  # type: ignore[arg-type]
    assert [case.text for case in changed] == []


def test_only_the_value_is_redacted() -> None:
    value = "k3y9b7d2f4h6j8q1z"
    datadog = "q8w3e9r2t7y1u6i0o5p4a8s3d2f7g1h6j9k4l0zx"
    text = f'AIRTABLE_API_KEY="{value}" and the datadog key is {datadog}.'
    assert redact_secrets(text) == (
        'AIRTABLE_API_KEY="[redacted vendor_key]" and the datadog key is [redacted vendor_key].',
        (KIND,),
    )


@pytest.mark.parametrize(
    "text",
    [
        # Airtable's base and table ids have the legacy key's 17 characters.
        "airtable_base_id: appk3y9b7d2f4h6j8 and AIRTABLE_TABLE=tblq8w3e9r2t7y1u6",
        # Inside a word: "nonlinear" and "global" do not name Linear or Lob.
        "nonlinear_checksum: 5d41402abc4b2a76b9719d911017c592",
        "global_order: " + "0a1b2c3d4e5f" * 2 + "9c8b7a6d5e4f3a2b1c0d",
        # The vendor named in prose, no value assigned.
        "Asana and Airtable and Datadog were all discussed at the 2024 offsite meeting.",
    ],
)
def test_near_misses_are_left_as_written(text: str) -> None:
    assert [m.kind for m in find_secrets(text)] == []


def test_value_expressions_have_bounded_width() -> None:
    """``_AFTER`` and the families' values run on text screen cuts to a window: like the
    rules' expressions, none may match more than MAX_RULE_SPAN characters."""
    for pattern in (_AFTER, *_COMPILED.values()):
        _, widest = _parser.parse(pattern.pattern, pattern.flags).getwidth()
        assert widest + 2 <= MAX_RULE_SPAN, pattern.pattern
