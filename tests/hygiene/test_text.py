"""Whitespace, content and cutting at a word boundary."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.hygiene import collapse_whitespace, cut_at_word_boundary, has_letter_or_digit


def test_collapse_whitespace_joins_lines_and_strips() -> None:
    assert collapse_whitespace("  one\n\ttwo \r\n\u2028three  ") == "one two three"


@pytest.mark.parametrize("text", ["a", "7", "東京", "ß", "١٢٣"])
def test_letters_and_digits_of_any_script_are_content(text: str) -> None:
    assert has_letter_or_digit(text)


@pytest.mark.parametrize("text", ["", "...", "___", "!?—", "😀 🎉", "- * -"])
def test_punctuation_and_symbols_are_not_content(text: str) -> None:
    assert not has_letter_or_digit(text)


def test_short_text_is_returned_unchanged() -> None:
    assert cut_at_word_boundary("hello world", 11) == "hello world"


def test_cut_at_last_whitespace_in_the_last_fifth() -> None:
    text = "alpha beta gamma delta epsilon"
    assert cut_at_word_boundary(text, 20) == "alpha beta gamma…"


def test_whitespace_right_at_the_limit_is_used() -> None:
    # budget is 9 characters plus the ellipsis; the space at index 9 allows "123456789".
    assert cut_at_word_boundary("123456789 abc", 10) == "123456789…"


def test_hard_cut_when_no_whitespace_near_the_limit() -> None:
    text = "short " + "x" * 100
    assert cut_at_word_boundary(text, 50) == ("short " + "x" * 43 + "…")


def test_cut_never_splits_a_redaction_marker() -> None:
    text = "see " + "[redacted aws_access_key_id]" + " and more words after"
    cut = cut_at_word_boundary(text, 20)
    assert cut == "see…"


def test_cut_keeps_a_whole_marker_that_fits() -> None:
    text = "see [redacted jwt] and more words after it"
    assert cut_at_word_boundary(text, 30) == "see [redacted jwt] and more…"


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        cut_at_word_boundary("abc", 0)


@given(st.text(), st.integers(min_value=1, max_value=60))
def test_cut_is_a_short_enough_prefix(text: str, limit: int) -> None:
    cut = cut_at_word_boundary(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
    else:
        assert cut.endswith("…")
        assert text.startswith(cut[:-1])
