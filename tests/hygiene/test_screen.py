"""The screening pipeline: order of checks, redaction before cutting, large inputs."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.hygiene import (
    REDACTION_MARKER,
    SKIP_REASONS,
    Screened,
    collapse_whitespace,
    cut_at_word_boundary,
    has_letter_or_digit,
    redact_secrets,
    screen,
)
from memrepo.hygiene._rules import MAX_RULE_SPAN
from memrepo.models.constants import SkipReason

AWS_KEY_ID = "AKIAIOSFODNN7Q2XK4ZB"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDs1Yp8m0nZ2u0x3Lq7YvQ9kR4tW6eH1sJ8aF3cB5dN7gAAAJg2m1xZNptc\n"
    "-----END OPENSSH PRIVATE KEY-----"
)


def _stored(text: str, origin_text: str | None = None) -> str:
    result = screen(text, origin_text=origin_text)
    assert result.text is not None, result
    return result.text


def test_plain_note_is_kept_with_whitespace_collapsed() -> None:
    assert screen("  The user prefers\n\ntabs over  spaces  ") == Screened(
        text="The user prefers tabs over spaces",
        skip_reason=None,
        redacted=(),
        truncated=False,
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        (" \n\t ", "empty"),
        ("ok", "too_short"),
        (" k \n", "too_short"),
        ("...", "no_content"),
        ("--- *** ---", "no_content"),
        ("Tool called: read_file", "telemetry"),
        ('{"tool": "bash", "args": {"cmd": "ls"}}', "telemetry"),
        ('{\n  "step": 1,\n  "plan": "x"\n}', "telemetry"),
        (AWS_KEY_ID, "secret_only"),
        (f"{JWT}\n{AWS_KEY_ID}", "secret_only"),
        (PEM, "secret_only"),
        ("remember this <no-memory>", "no_memory"),
    ],
)
def test_skip_reasons(text: str, reason: str) -> None:
    result = screen(text)
    assert result.skip_reason == reason
    assert result.text is None
    assert result.skipped
    assert reason in SKIP_REASONS


def test_cjk_counts_as_content() -> None:
    assert _stored("東京都") == "東京都"


def test_no_memory_flag_and_origin_text() -> None:
    assert screen("a fine note", no_memory=True).skip_reason == "no_memory"
    result = screen("a fine note", origin_text="do this task <No-Memory >")
    assert result.skip_reason == "no_memory"
    assert _stored("a fine note", origin_text="do this task") == "a fine note"


def test_no_memory_wins_over_every_other_reason() -> None:
    assert screen("", no_memory=True).skip_reason == "no_memory"
    assert screen("Tool called: x <no-memory>").skip_reason == "no_memory"


def test_secret_only_reports_what_was_redacted() -> None:
    result = screen(f"{AWS_KEY_ID} {JWT}")
    assert result.skip_reason == "secret_only"
    assert result.redacted == ("aws_access_key_id", "jwt")


def test_secret_is_redacted_and_the_rest_kept() -> None:
    result = screen(f"deploy key is {AWS_KEY_ID}\nand password=hunter2x")
    assert result == Screened(
        text="deploy key is [redacted aws_access_key_id] and password=[redacted assignment]",
        skip_reason=None,
        redacted=("aws_access_key_id", "assignment"),
        truncated=False,
    )


def test_pem_block_is_redacted_even_though_newlines_are_collapsed() -> None:
    assert _stored(f"the CI deploy key:\n{PEM}\nrotate yearly") == (
        "the CI deploy key: [redacted private_key] rotate yearly"
    )


def test_long_text_is_cut_at_a_word() -> None:
    result = screen("word " * 400)
    assert result.truncated
    assert result.text is not None
    assert len(result.text) <= 1000
    assert result.text.endswith("word…")


def test_max_chars_is_honoured() -> None:
    result = screen("alpha beta gamma delta epsilon", max_chars=20)
    assert result.text == "alpha beta gamma…"
    assert result.truncated


def test_redaction_happens_before_the_cut() -> None:
    """A secret across the limit is redacted whole, never half kept."""
    text = "x " * 480 + f"key {AWS_KEY_ID} and more text after it"
    result = screen(text)
    assert result.text is not None
    assert "AKIA" not in result.text
    assert "IOSF" not in result.text


def test_cut_never_splits_a_marker() -> None:
    text = "y" * 985 + " " + JWT + " tail"
    result = screen(text)
    assert result.text is not None
    assert "[redacted" not in result.text or "[redacted jwt]" in result.text
    assert "eyJ" not in result.text


def test_only_secrets_in_the_kept_part_is_secret_only() -> None:
    """What would be stored is a row of markers, even though text follows much later."""
    text = " ".join([JWT] * 40) + " " + "real words " * 200
    result = screen(text, max_chars=200)
    assert result.skip_reason == "secret_only"


def test_redacted_lists_only_kinds_in_the_stored_text() -> None:
    result = screen("note " * 300 + AWS_KEY_ID, max_chars=100)
    assert result.redacted == ()


@pytest.mark.slow
def test_ten_megabytes_are_screened() -> None:
    """Speed is measured in benchmarks/bench_screen.py; here only the outcome."""
    text = (
        "The build uses token=abc123XYZ789 and https://u:p4ss@h.io and 4111 1111 1111 1111. "
        "Lorem ipsum dolor sit amet; secret: keep it. "
    ) * 80_000
    assert len(text) > 10_000_000
    result = screen(text)
    assert result.text is not None
    assert result.truncated
    assert "abc123XYZ789" not in result.text


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        pytest.param("-----BEGIN RSA PRIVATE KEY----- " + "QUJD " * 2_000_000, id="pem-no-end"),
        pytest.param("eyJ" * 3_400_000, id="base64-run"),
        pytest.param("4111 " * 2_000_000, id="digit-groups"),
        pytest.param("password=" * 1_100_000, id="keywords"),
        pytest.param("< " * 5_000_000, id="tag-openers"),
        pytest.param("[" * 5_000_000 + "]" * 5_000_000, id="nested-json"),
    ],
)
def test_adversarial_ten_megabytes_are_screened(text: str) -> None:
    """A catastrophic pattern would hang here; benchmarks/bench_screen.py times it."""
    result = screen(text)
    assert result.text is None or len(result.text) <= 1000


def _reference(text: str, max_chars: int) -> str:
    """screen's text computed the slow, obvious way: redact everything, then cut."""
    redacted, _ = redact_secrets(collapse_whitespace(text))
    return cut_at_word_boundary(redacted, max_chars)


_PIECES = [
    "plain words here",
    AWS_KEY_ID,
    JWT,
    PEM,
    "-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",  # no END line
    "-----END PRIVATE KEY-----",
    "password=hunter2x",
    "https://deploy:S3cretPass@git.example.com/r.git",
    "4111 1111 1111 1111",
]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    pieces=st.lists(
        st.tuples(st.sampled_from(_PIECES), st.integers(min_value=0, max_value=40_000)),
        min_size=1,
        max_size=5,
    ),
    max_chars=st.sampled_from([50, 1000, 5000]),
)
def test_windowed_redaction_equals_redacting_everything(
    pieces: list[tuple[str, int]], max_chars: int
) -> None:
    """screen redacts only a window; the result must equal redacting the whole text."""
    text = "".join(("filler " * (gap // 7)) + piece + " " for piece, gap in pieces)
    _assert_same_as_reference(text, max_chars)


def _assert_same_as_reference(text: str, max_chars: int) -> None:
    kept = _reference(text, max_chars)
    only_secrets = not has_letter_or_digit(REDACTION_MARKER.sub("", kept))
    result = screen(text, max_chars=max_chars)
    assert result.text == (None if only_secrets else kept)
    assert (result.skip_reason == "secret_only") == only_secrets


# Where the window's safe boundary falls for the default limit (see screen._redact_kept).
_SAFE = 1000 + MAX_RULE_SPAN + 64


@pytest.mark.parametrize("piece", _PIECES[1:], ids=range(len(_PIECES) - 1))
@pytest.mark.parametrize("offset", [_SAFE - 300, _SAFE - 40, _SAFE - 1, _SAFE, _SAFE + 7])
def test_secrets_at_the_window_boundary(piece: str, offset: int) -> None:
    text = "words " * (offset // 6) + piece + " trailing words" * 3000
    _assert_same_as_reference(text, 1000)


def test_secret_wider_than_the_window() -> None:
    """A PEM block can be longer than any window: the window must grow to its END line."""
    text = "start " + "-----BEGIN PRIVATE KEY----- x " * 5000 + "-----END PRIVATE KEY----- end"
    _assert_same_as_reference(text, 1000)
    assert screen(text).text == "start [redacted private_key] end"


def test_a_marker_cut_off_is_not_reported_as_redacted() -> None:
    result = screen("x" * 14 + "-" + AWS_KEY_ID + " tail", max_chars=20)
    assert result.text == "x" * 14 + "-…"
    assert result.redacted == ()


def test_max_chars_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        screen("a fine note", max_chars=0)


def test_a_write_result_can_carry_every_reason_the_screen_gives() -> None:
    """The screen's reasons are spelled twice on purpose: `models.constants` must not load
    the secret rules (about 145 ms) to name them; this keeps the two lists one."""
    assert get_args(SkipReason)[: len(SKIP_REASONS)] == SKIP_REASONS
