"""The secret corpus (fixtures/secrets/): 0 leaks per family, 0 look-alikes redacted.

Every sample goes through both faces of the one detector: ``redact_secrets`` (what
exports, swarm and dream use) and ``screen`` (what remember, import and the items store
use). A secret leaks when its value, or any 5-character piece of it, is still in the
output. benchmarks/secret_corpus.py prints the same figures per family.
"""

from __future__ import annotations

from collections import Counter

import pytest

from memrepo.hygiene import REDACTION_MARKER, SECRET_KINDS, find_secrets, redact_secrets, screen

from .corpus import Sample, load_lookalikes, load_secrets

SECRETS = load_secrets()
LOOKALIKES = load_lookalikes()


def _leaks(secret: str, output: str) -> bool:
    """Whether ``secret`` or a 5-character piece of it survives in ``output`` (markers
    aside: "[redacted github_token]" shares "github_" with github_pat_ tokens)."""
    visible = REDACTION_MARKER.sub("[]", output)
    return any(secret[i : i + 5] in visible for i in range(max(1, len(secret) - 4)))


def test_the_corpus_is_as_big_as_promised() -> None:
    assert len(SECRETS) >= 60
    assert len({sample.family for sample in SECRETS}) >= 40
    assert len(LOOKALIKES) >= 30


@pytest.mark.parametrize("sample", SECRETS, ids=lambda s: f"{s.family}-{s.line}")
def test_no_secret_of_any_family_leaks(sample: Sample) -> None:
    redacted, kinds = redact_secrets(sample.text)
    assert kinds, sample.text
    screened = screen(sample.text)
    for secret in sample.secrets:
        assert not _leaks(secret, redacted), redacted
        if screened.text is not None:
            assert not _leaks(secret, screened.text), screened.text
        else:
            assert screened.skip_reason == "secret_only"


def test_leaks_per_family_are_zero() -> None:
    leaks: Counter[str] = Counter()
    for sample in SECRETS:
        redacted, _ = redact_secrets(sample.text)
        leaks[sample.family] += sum(_leaks(secret, redacted) for secret in sample.secrets)
    assert +leaks == Counter()


def test_every_kind_is_in_the_corpus() -> None:
    seen = {kind for sample in SECRETS for kind in redact_secrets(sample.text)[1]}
    assert seen == set(SECRET_KINDS)


@pytest.mark.parametrize("sample", LOOKALIKES, ids=lambda s: f"{s.family}-{s.line}")
def test_look_alikes_are_not_redacted(sample: Sample) -> None:
    assert find_secrets(sample.text) == []
    assert redact_secrets(sample.text) == (sample.text, ())


def test_false_positive_count_is_zero() -> None:
    false_positives = [sample.family for sample in LOOKALIKES if find_secrets(sample.text)]
    assert false_positives == []
