# ruff: noqa: RUF001 - the alphabets hold look-alike letters on purpose
"""The ASCII road of the analyzer gives the terms of the general one, for any text.

A rebuild analyzes most memory lines through `_ascii_terms` (issue #28, "Index build");
a query and every non-ASCII text go through `_general_groups`. A term the two roads spelt
differently would be in the index but never found, so hypothesis checks that both give
the same groups and terms on text made of the pieces people write: camelCase words,
digits, versions, emails, paths, URLs, punctuation, control characters, accents, CJK,
combining marks and the curly apostrophe.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.index.analysis import (
    MAX_TERM_CHARS,
    _ascii_groups,
    _general_groups,
    _general_terms,
    analyze,
    split_groups,
)

_PIECES = st.sampled_from(
    [
        "Postgres", "getUserName", "HTTPServer", "v1.2.3", "postgres-16", "AKS-42",
        "alice@example.com", "/etc/nginx/nginx.conf", "C:\\Users\\bo", "https://x.io/a?b=c#d",
        "don't", "it's", "rock'n'roll", "C++", "C#", "a_b", "__init__", "x--y", "1,000.50",
        "2026-01-31", "12:30", "#tag", "@mention", "+33 1 23", "ran", "went", "children",
        "running", "mice", "!", "?", "...", "(", ")", "[", "]", "\t", "\n", "\x00", "\x1b",
        "\x7f", " ", "  ", "a" * 130, "b-" * 70, "Z" * 129 + ".x",
    ]
)  # fmt: skip
_ASCII_TEXT = st.lists(
    st.one_of(_PIECES, st.text(alphabet=st.characters(max_codepoint=127), max_size=12)),
    max_size=12,
).map("".join)
_NON_ASCII = st.sampled_from(
    ["café", "Straße", "İstanbul", "ıſ", "東京都庁", "e\u0301", "it\u2019s", "ＡＢＣ",
     "Москва", "x\ud800y", "ø-æ", "v1.2\u00b3"]
)  # fmt: skip
_ANY_TEXT = st.lists(st.one_of(_PIECES, _NON_ASCII, st.text(max_size=8)), max_size=12).map("".join)


def _reference(text: str, stemmed: bool) -> list[str]:
    """`analyze` as it was before the ASCII road: every text through the general groups."""
    return list(_general_terms(text, stemmed))


@settings(max_examples=400, deadline=None)
@given(_ASCII_TEXT)
@pytest.mark.slow
def test_ascii_groups_are_the_general_groups(text: str) -> None:
    assert list(_ascii_groups(text)) == list(_general_groups(text))


@settings(max_examples=400, deadline=None)
@given(_ANY_TEXT, st.booleans())
@pytest.mark.slow
def test_terms_are_those_of_the_general_road(text: str, stemmed: bool) -> None:
    assert analyze(text, stemmed=stemmed) == _reference(text, stemmed)
    assert list(split_groups(text)) == list(_general_groups(text))


def test_ascii_compounds_keep_their_whole_and_parts() -> None:
    assert analyze("Ship v1.2.3 to alice@example.com") == [
        "ship", "v1.2.3", "v1", "2", "3", "to", "alice@example.com", "alice", "example", "com",
    ]  # fmt: skip
    assert analyze("The children went running", stemmed=True) == ["the", "child", "go", "run"]


def test_a_long_ascii_word_is_cut_and_a_long_compound_not_indexed_whole() -> None:
    long_compound = "-".join(["abcdefghij"] * 13)  # 142 characters
    assert analyze("x" * 200) == ["x" * MAX_TERM_CHARS]
    assert analyze(long_compound) == ["abcdefghij"] * 13


def test_a_cached_text_gives_a_fresh_list_each_time() -> None:
    first = analyze("postgres runs here")
    first.append("changed")
    assert analyze("postgres runs here") == ["postgres", "runs", "here"]
