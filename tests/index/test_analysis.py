# ruff: noqa: RUF001, RUF003 - these tests are about look-alike letters (ı, σ, ...)
"""The analyzer: Unicode words, folding, CJK units, compounds, stemming, no stopwords."""

from __future__ import annotations

import itertools
import sys
import unicodedata

import pytest

from memrepo.index._marks import MARKS
from memrepo.index.analysis import analyze, fold, sanitize, split_groups, stem


@pytest.mark.parametrize(
    ("written", "folded"),
    [
        ("café", "cafe"),
        ("CAFÉ", "cafe"),
        ("Müller", "muller"),
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("İstanbul", "istanbul"),
        ("ISTANBUL", "istanbul"),
        ("istanbul", "istanbul"),
        ("ıstanbul", "istanbul"),
        ("Øresund", "oresund"),
        ("Ærø", "aero"),
        ("Łódź", "lodz"),
        ("ＡＢＣ", "abc"),
    ],
)
def test_latin_words_fold_case_and_accents(written: str, folded: str) -> None:
    assert analyze(written) == [folded]


def test_casefold_alone_leaves_a_combining_dot_on_turkish_capital_i() -> None:
    # Documents why folding strips marks: casefold("İ") is "i" + U+0307, not "i".
    assert "İ".casefold() == "i\u0307"
    assert fold("İ") == "i"


@pytest.mark.parametrize(
    ("written", "terms"),
    [
        ("Москва йогурт", ["москва", "йогурт"]),  # й keeps its breve: not Latin
        ("ΣΊΣΥΦΟΣ", ["σίσυφοσ"]),  # Greek keeps its tonos; final sigma folds
        ("مَرْحَبًا", ["مَرْحَبًا"]),  # Arabic marks stay inside the word
        ("שָׁלוֹם עולם", ["שָׁלוֹם", "עולם"]),
    ],
)
def test_non_latin_scripts_are_words_and_keep_their_marks(written: str, terms: list[str]) -> None:
    assert analyze(written) == [unicodedata.normalize("NFC", t) for t in terms]


def test_a_cjk_run_is_indexed_as_characters_and_bigrams() -> None:
    assert analyze("東京都庁") == ["東", "京", "都", "庁", "東京", "京都", "都庁"]


def test_cjk_inside_a_latin_word_is_split_off() -> None:
    assert analyze("iPhone用") == ["iphone", "用"]


@pytest.mark.parametrize(
    ("written", "terms"),
    [
        ("postgres-16", ["postgres-16", "postgres", "16"]),
        ("v1.2.3", ["v1.2.3", "v1", "2", "3"]),
        ("AKS-42", ["aks-42", "aks", "42"]),
        ("snake_case", ["snake_case", "snake", "case"]),
        ("end.", ["end"]),
        ("a - b", ["a", "b"]),
    ],
)
def test_compounds_are_indexed_whole_and_by_parts(written: str, terms: list[str]) -> None:
    assert analyze(written) == terms


def test_stopwords_are_never_dropped_at_index_time() -> None:
    assert analyze("May us yet the and of") == ["may", "us", "yet", "the", "and", "of"]


def test_the_stem_field_stems_english_words_only() -> None:
    assert analyze("running runs ran", stemmed=True) == ["run", "run", "run"]  # ran: a lemma
    assert analyze("postgres-16 東京", stemmed=True) == ["postgr", "16"]
    assert stem("москва") == "москва"


@pytest.mark.parametrize(
    "text", ["😀🎉", "1️⃣ 👍🏽", "\u200b\u200d", "\x00\x07\x1b[31m", "\ud800x\udfff"]
)
def test_emoji_controls_and_lone_surrogates_do_not_crash(text: str) -> None:
    terms = analyze(text)
    assert all(term.encode("utf-8") for term in terms)


def test_sanitize_replaces_lone_surrogates_and_controls() -> None:
    assert sanitize("a\ud800b\x00c") == "a b c"


def test_overlong_words_are_cut_and_overlong_compounds_not_indexed_whole() -> None:
    groups = list(split_groups("x" * 500 + " " + "-".join(["ab"] * 100)))
    assert len(groups[0].parts[0]) == 128
    assert groups[1].whole == ""
    assert len(groups[1].parts) == 100


@pytest.mark.slow
def test_generated_mark_table_matches_this_python() -> None:
    expected = {
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)).startswith("M")
    }
    # The table is a regex class body: single characters and "a-b" ranges.
    found = {ord(char) for char in MARKS if char != "-"}
    pairs = MARKS.split("-")
    for left, right in itertools.pairwise(pairs):
        found.update(range(ord(left[-1]), ord(right[0]) + 1))
    assert found == expected
