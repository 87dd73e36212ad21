"""The one-line entry grammar: metadata groups, escaping, links, identity."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.formats import (
    entry_id,
    escape_value,
    find_links,
    format_entry,
    normalize_text,
    split_metadata,
    unescape_value,
)
from memrepo.formats.lines import one_line
from memrepo.formats.metadata import decode_group, parse_metadata, split_group

from .strategies import metadata_maps


@pytest.mark.parametrize(
    ("body", "text", "metadata"),
    [
        (" fact [by: user; added: 2024-05-01]", "fact", {"by": "user", "added": "2024-05-01"}),
        (" fact [by: user]   ", "fact", {"by": "user"}),
        (" fact[k: v]", "fact", {"k": "v"}),
        (" [k: v]", "", {"k": "v"}),
        (" url [see: http://x.org/a]", "url", {"see": "http://x.org/a"}),
        (" empty [k:]", "empty", {"k": ""}),
        (" two groups [a: 1] [b: 2]", "two groups [a: 1]", {"b": "2"}),
        (" mid [see: docs] line", "mid [see: docs] line", {}),
        (" [a: b] trailing", "[a: b] trailing", {}),
        (" [not metadata]", "[not metadata]", {}),
        (" half [a: b; c]", "half [a: b; c]", {}),
        (" trailing semicolon [a: b;]", "trailing semicolon [a: b;]", {}),
        (" no space [a:b]", "no space [a:b]", {}),
        (" bad key [1a: b]", "bad key [1a: b]", {}),
        (" link [[a: b]]", "link [[a: b]]", {}),
        (" half link [[a: b]", "half link [[a: b]", {}),
        (" nested [a: [b]]", "nested [a: [b]]", {}),
        (" empty []", "empty []", {}),
        (" blank [  ]", "blank [  ]", {}),
    ],
)
def test_split_metadata(body: str, text: str, metadata: dict[str, str]) -> None:
    assert split_metadata(body) == (text, metadata)
    assert _via_split_group(body) == (text, metadata)


def _via_split_group(body: str) -> tuple[str, dict[str, str]]:
    text, group = split_group(body)
    return text, decode_group(group) if group is not None else {}


#: Bodies made of the characters the grammar turns on, so most draws are near misses.
grammar_bodies = st.lists(
    st.sampled_from([*"[];:%-_ \t\u00a0\u2003ab1Z", "by", "[[", "]]", "%3B", "%5d"]),
    max_size=30,
).map("".join)


@pytest.mark.slow
@given(st.one_of(grammar_bodies, st.text(max_size=30)))
def test_split_group_reads_every_body_as_parse_metadata_does(body: str) -> None:
    """The cheap split a dream uses must never disagree with the grammar."""
    text, metadata, _problem = parse_metadata(body)
    assert _via_split_group(body) == (text, metadata)


@pytest.mark.slow
@given(st.text(max_size=20), metadata_maps)
def test_split_group_reads_written_entries(text: str, metadata: dict[str, str]) -> None:
    line = format_entry(text, metadata)
    assert _via_split_group(line[1:]) == split_metadata(line[1:])


def test_escaping() -> None:
    assert escape_value("a;b[c]d%e") == "a%3Bb%5Bc%5Dd%e"  # a % is escaped only before a code
    assert escape_value("one\ntwo\r\nthree\u2028four") == "one two  three four"
    assert unescape_value("%3b%3B%5b%5D%25%41%2") == ";;[]%%41%2"
    # "%253B" is an escaped "%" followed by "3B", never a ";".
    assert unescape_value("%253B") == "%3B"


@given(st.text())
@pytest.mark.slow
def test_unescape_inverts_escape(value: str) -> None:
    assert unescape_value(escape_value(value)) == value.translate(
        {ord(c): " " for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}
    )


def test_format_entry() -> None:
    line = format_entry("  Use uv\nfor Python  ", {"by": "user", "note": "a;b [c] 5%"})
    assert line == "- Use uv for Python [by: user; note: a%3Bb %5Bc%5D 5%]"
    assert format_entry("", {"k": ""}) == "- [k:]"


@pytest.mark.parametrize("key", ["", "1a", "a b", "a:b", "ä", "_a", "a;"])
def test_format_entry_rejects_bad_keys(key: str) -> None:
    with pytest.raises(ValueError, match="metadata key"):
        format_entry("text", {key: "v"})


def test_format_entry_needs_metadata() -> None:
    with pytest.raises(ValueError, match="at least one metadata key"):
        format_entry("text", {})


@pytest.mark.slow
@given(st.text(), metadata_maps)
def test_format_then_split_gives_back_text_and_metadata(
    text: str, metadata: dict[str, str]
) -> None:
    line = format_entry(text, metadata)
    assert line.startswith("- ")
    assert one_line(line) == line
    assert split_metadata(line[1:]) == (
        one_line(text),
        {k: one_line(v) for k, v in metadata.items()},
    )


def test_caller_text_cannot_forge_metadata() -> None:
    line = format_entry("innocent [by: user]", {"by": "agent"})
    assert split_metadata(line[1:]) == ("innocent [by: user]", {"by": "agent"})


def test_find_links() -> None:
    assert find_links("see [[a/b]] and [[ c | label ]] and [[]] [[ ]] [[x") == ("a/b", "c")
    assert find_links("no links [here]") == ()
    assert find_links("[[[a]]]") == ("a",)


def test_normalize_text() -> None:
    assert normalize_text("  Straße\tIS\n  here ") == "strasse is here"


def test_entry_id() -> None:
    digest = hashlib.sha256(b"use uv").hexdigest()[:10]
    assert entry_id("  Use   UV ", {}) == digest
    assert entry_id("Use uv", {"subject": ""}) == digest
    assert entry_id("Use uv", {"subject": "python-tool"}) == "python-tool"
