"""Metadata values escape only what the format needs, so other readers see real values.

A value never holds ``;``, ``[`` or ``]`` (written ``%3B``, ``%5B``, ``%5D``). A ``%`` is
written ``%25`` only where it is followed by one of the four codes (``3B``, ``5B``,
``5D``, ``25``, any case), so decoding stays unambiguous; every other ``%`` (a URL's
``%20``, ``50%``) is written as it is. Files written earlier, with every ``%`` as
``%25``, decode to the same values as before.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memrepo.formats import escape_value, format_entry, parse, split_metadata, unescape_value
from memrepo.formats.lines import LINE_BREAKS

from .strategies import metadata_keys

#: Values made of the characters escaping turns on, so most draws sit on its edges.
tricky_values = st.lists(
    st.sampled_from([*"%;[]35BbDd2 a", "%25", "%3B", "%3b", "%5D", "%5d", "%5B", "%20", "%%"]),
    max_size=12,
).map("".join)
one_line_values = st.one_of(tricky_values, st.text()).map(
    lambda v: v.translate(dict.fromkeys(map(ord, LINE_BREAKS), " ")).strip()
)


def test_a_url_with_percent_escapes_is_written_as_it_is() -> None:
    url = "https://example.com/a%20b?q=50%25off"
    line = format_entry("Report", {"source": url})

    assert line == f"- Report [source: {url.replace('%25', '%2525')}]"
    assert "%20" in line and "%2520" not in line
    assert escape_value("50% done, %41, 100%") == "50% done, %41, 100%"


def test_only_the_format_characters_and_an_ambiguous_percent_are_escaped() -> None:
    assert escape_value("a;b[c]d") == "a%3Bb%5Bc%5Dd"
    assert escape_value("%3B %3b %5B %5d %25 %2") == "%253B %253b %255B %255d %2525 %2"
    assert escape_value("%;") == "%%3B"


def test_values_written_with_every_percent_escaped_still_read_the_same() -> None:
    old = "- Report [source: https://x.org/a%2520b; p: 100%25; q: a%3Bb]"
    _text, metadata = split_metadata(old[1:])

    assert metadata == {"source": "https://x.org/a%20b", "p": "100%", "q": "a;b"}
    assert parse(old.encode(), "notes.md").entries[0].metadata == metadata


@given(st.one_of(tricky_values, st.text()))
@example("%253B")
@example("%%3B")
@example("%2%5B")
def test_decoding_inverts_encoding(value: str) -> None:
    one_line = value.translate(dict.fromkeys(map(ord, LINE_BREAKS), " "))
    assert unescape_value(escape_value(value)) == one_line


@pytest.mark.slow
@given(st.text(max_size=10), st.dictionaries(metadata_keys, one_line_values, min_size=1))
def test_a_written_entry_reads_back_its_values(text: str, metadata: dict[str, str]) -> None:
    line = format_entry(text, metadata)
    doc = parse(line.encode(), "notes.md")

    assert doc.entries[0].metadata == metadata
    assert split_metadata(line[1:])[1] == metadata
