"""The per-file batch helpers a dream uses must read every line as the per-line ones do."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.formats import normalize_text
from memrepo.formats.metadata import parse_metadata, split_group, split_groups
from memrepo.formats.text import normalize_texts

#: Bodies made of the characters the grammar turns on, so most draws are near misses.
grammar_bodies = st.lists(
    st.sampled_from(
        [*"[];:%-_ \t\u00a0\u2003ab1Z", "by", "[[", "]]", "%3B", " [k: v]", "; k:", ": "]
    ),
    max_size=16,
).map("".join)

#: Bodies that are mostly well-formed bullets: a file where every group is metadata
#: takes the one-check path, one near miss among them the line-by-line path.
written_bodies = st.builds(
    lambda text, gap, group, tail: f" {text}{gap}[{group}]{tail}",
    st.sampled_from(["Use uv", "a [b] c", "see [[x]]", "", "  spaced  ", "ß İ ς", "half ["]),
    st.sampled_from([" ", ""]),
    st.sampled_from(["by: user", "k: v; k2:", " a : b ;c: d", "k:", "k:x", "", " ", "a; b"]),
    st.sampled_from(["", "  ", "\t", "\u3000"]),
)


def _one_by_one(bodies: list[str]) -> tuple[list[str], list[str | None]]:
    split = [split_group(body) for body in bodies]
    return [text for text, _ in split], [group for _, group in split]


@pytest.mark.slow
@given(st.lists(st.one_of(grammar_bodies, written_bodies, st.text(max_size=20)), max_size=12))
def test_split_groups_splits_a_file_as_split_group_splits_each_line(bodies: list[str]) -> None:
    assert split_groups(bodies) == _one_by_one(bodies)


@pytest.mark.slow
@given(st.lists(written_bodies, min_size=1, max_size=12))
def test_split_groups_agrees_with_the_parser(bodies: list[str]) -> None:
    texts, groups = split_groups(bodies)
    for body, text, group in zip(bodies, texts, groups, strict=True):
        parsed_text, metadata, _ = parse_metadata(body)
        assert text == parsed_text
        assert (group is not None) == bool(metadata)


@pytest.mark.parametrize(
    "bodies",
    [
        [],
        [" no group here", " plain"],
        [" a [by: user]", " b [by: agent; added: 2026-01-01]"],
        # One remark that is not metadata: it stays text, the other lines keep theirs.
        [" a [by: user]", " note [see above]", " c [k: v]"],
        # An empty group is never metadata, even among good ones.
        [" a [by: user]", " empty []", " c [k: v]"],
        [" only empty []"],
        [" a [k: v]   ", " b [k: v]\t", " link [[a: b]]", " half [[a: b]"],
        [" a [k: v;]", " b [k: v] tail", " c [1k: v]", " d [k:v]"],
        # The end of a "[[link]" is never a group, whatever follows the "[".
        [" half [[a: b]"],
        [" a [k: v]", " half [[a: b]", " c [k: v]"],
        [" a [k: x]", " b [k: y]y]", " c [k: [z]"],
    ],
)
def test_split_groups_examples(bodies: list[str]) -> None:
    assert split_groups(bodies) == _one_by_one(bodies)


def test_split_groups_keeps_remarks_as_text() -> None:
    texts, groups = split_groups([" a [by: user]", " note [see above]"])
    assert texts == ["a", "note [see above]"]
    assert groups == ["by: user", None]


#: Texts that need every step of normalizing: case folding that changes length (ß, İ),
#: a final sigma, CJK, combining marks, and whitespace of every kind.
tricky_texts = st.lists(
    st.sampled_from(
        [*"aZ ", "  ", "\t", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "ß", "İ", "ΟΔΟΣ",
         "ς", "日本語", "e\u0301", "\u200d", "ǅ", "ﬁ", "Ω"]
    ),
    max_size=10,
).map("".join)  # fmt: skip


@pytest.mark.slow
@given(st.lists(st.one_of(tricky_texts, st.text(max_size=12)), max_size=10))
def test_normalize_texts_is_normalize_text_of_each(texts: list[str]) -> None:
    assert normalize_texts(texts) == [normalize_text(text) for text in texts]


@pytest.mark.parametrize(
    "texts",
    [
        [],
        [""],
        ["", ""],
        ["a", "", "b"],
        ["Use uv", "Straße", "İstanbul", "ΟΔΟΣ", "日本語 テキスト"],
        ["already normal", "two  spaces"],
        [" leading", "trailing "],
        ["a", "trailing "],
        ["tab\there"],
    ],
)
def test_normalize_texts_examples(texts: list[str]) -> None:
    assert normalize_texts(texts) == [normalize_text(text) for text in texts]


def test_normalize_texts_sees_every_kind_of_whitespace() -> None:
    """Every character `str.split` breaks on is collapsed, in ASCII text and beyond it
    (the fast path relies on such characters being unprintable in Python's Unicode
    database, which this walks whole)."""
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert len(spaces) > 20
    for space in spaces:
        for texts in (["a" + space + "b", "c"], ["é" + space + "b", "c"], ["x", space]):
            assert normalize_texts(texts) == [normalize_text(text) for text in texts], space
