"""Control and invisible characters never reach what the screen keeps.

A NUL in remembered text made MEMORY.md binary to git; bidi overrides reorder what a
reader sees; zero-width and tag characters hide text (and can split a token so that it
passes redaction). See memrepo/hygiene/text.py for what is replaced and what is removed.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.hygiene import collapse_whitespace, screen
from memrepo.hygiene.text import clean_invisible

GITHUB_TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
REMOVED = (
    "\u180e\u200b\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2064"
    "\u2066\u2067\u2068\u2069\ufeff\U000e0041"
)


def _kept(text: str) -> str:
    result = screen(text)
    assert result.text is not None, result
    return result.text


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x07", "\x08", "\x1b", "\x7f", "\x80", "\x9f"])
def test_control_characters_become_spaces(char: str) -> None:
    assert _kept(f"deploy{char}notes for the team") == "deploy notes for the team"


@pytest.mark.parametrize("char", list(REMOVED))
def test_hiding_characters_are_removed(char: str) -> None:
    assert _kept(f"trust{char}ed build server") == "trusted build server"


def test_joiners_and_bidi_marks_that_scripts_need_stay() -> None:
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # mi-khaham, with a ZWNJ
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    hebrew = "\u05e9\u05dc\u05d5\u05dd\u200f world"
    assert _kept(f"{persian} {family} {hebrew}") == f"{persian} {family} {hebrew}"


def test_lone_surrogates_become_the_replacement_character() -> None:
    kept = _kept("bytes \udcff from a bad argv")
    assert kept == "bytes \ufffd from a bad argv"
    kept.encode("utf-8")


def test_a_token_split_by_a_zero_width_space_is_still_redacted() -> None:
    split = GITHUB_TOKEN[:10] + "\u200b" + GITHUB_TOKEN[10:]
    result = screen(f"CI pushes with {split}")
    assert result.redacted == ("github_token",)
    assert result.text is not None and GITHUB_TOKEN[4:] not in result.text


def test_a_hidden_no_memory_tag_still_opts_out() -> None:
    assert screen("remember this <no\u200b-memory>").skip_reason == "no_memory"


def test_clean_text_is_returned_as_it_is() -> None:
    text = "plain ASCII, with\ttabs\nand lines"
    assert clean_invisible(text) is text
    assert clean_invisible("café ünïcode") == "café ünïcode"


@pytest.mark.slow
@given(st.text())
def test_nothing_invisible_survives_the_screen(text: str) -> None:
    result = screen(text)
    if result.text is None:
        return
    for char in result.text:
        category = unicodedata.category(char)
        assert category not in {"Cc", "Cs"}, repr(char)
        assert char not in REMOVED, repr(char)
    result.text.encode("utf-8")


@given(st.text())
def test_collapse_whitespace_output_is_always_clean_and_stable(text: str) -> None:
    once = collapse_whitespace(text)
    assert collapse_whitespace(once) == once
    assert "\x00" not in once
