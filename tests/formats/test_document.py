"""Parsing bytes into a Document, and edits that change only the lines they name."""

from __future__ import annotations

import pytest

from memrepo.errors import InvalidUtf8
from memrepo.formats import Line, format_entry, parse, serialize, split_lines

MEMORY = b"# Memory\n\n- first [by: user]\n- second\n\n## Index\n- [[a]]\n"


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b"ok\xff", 2),
        (b"- fine\n- bad \xc3\x28", 13),
        (b"\xef\xbb\xbf- a\n\xfe", 7),
        (b"truncated \xe2\x82", 10),
        (b"\xed\xa0\x80 surrogate", 0),
    ],
)
def test_invalid_utf8_names_path_and_offset(data: bytes, offset: int) -> None:
    with pytest.raises(InvalidUtf8) as caught:
        parse(data, "topics/x.md")
    assert caught.value.path == "topics/x.md"
    assert caught.value.offset == offset
    assert f"offset {offset}" in str(caught.value)


def test_lines_keep_their_endings() -> None:
    assert split_lines("a\r\nb\rc\n\nd") == [
        Line("a", "\r\n"),
        Line("b", "\r"),
        Line("c", "\n"),
        Line("", "\n"),
        Line("d", ""),
    ]
    # Only \r\n, \r and \n end a line, as in markdown-it.
    assert split_lines("a\u2028b\x0bc\x0cd\x85e") == [Line("a\u2028b\x0bc\x0cd\x85e", "")]
    assert parse(b"").lines == []


def test_bom_is_remembered_and_not_text() -> None:
    doc = parse(b"\xef\xbb\xbf- a\n")
    assert doc.bom
    assert doc.lines[0] == Line("- a", "\n")
    assert [e.text for e in doc.entries] == ["a"]
    doc.add_entry("- b [k: v]")
    assert serialize(doc) == b"\xef\xbb\xbf- a\n- b [k: v]\n"


def test_frontmatter_yaml_is_parsed_lazily() -> None:
    doc = parse(b"---\ndescription: Python notes\nbad: [\n---\n- a\n")
    fm = doc.frontmatter
    assert fm is not None
    assert fm.raw == "---\ndescription: Python notes\nbad: [\n---\n"
    assert fm.line_count == 4
    assert fm.data == {}
    assert fm.error is not None and "invalid YAML" in fm.error
    good = parse(b"---\r\ndescription: Python notes\r\n---\r\n").frontmatter
    assert good is not None and good.data == {"description": "Python notes"}
    assert good.error is None
    scalar = parse(b"---\njust text\n---\n").frontmatter
    assert scalar is not None and scalar.data == {} and scalar.error is not None


def test_entry_ids_and_links() -> None:
    doc = parse(b"- Use uv [subject: python-tool]\n- see [[topics/python]]\n")
    assert doc.entries[0].id == "python-tool"
    assert len(doc.entries[1].id) == 10
    assert doc.entries[1].links == ("topics/python",)


def test_index_only_in_root_memory_file() -> None:
    assert parse(MEMORY, "MEMORY.md").index_heading == 5
    other = parse(MEMORY, "workspaces/MEMORY.md")
    assert other.index_heading is None
    assert [e.text for e in other.entries] == ["first", "second", "[[a]]"]


# -- edits ---------------------------------------------------------------------------


def test_add_entry_goes_above_the_index() -> None:
    doc = parse(MEMORY, "MEMORY.md")
    line_no = doc.add_entry(format_entry("third", {"by": "agent"}))
    assert line_no == 4
    assert serialize(doc) == (
        b"# Memory\n\n- first [by: user]\n- second\n- third [by: agent]\n\n## Index\n- [[a]]\n"
    )
    assert [e.text for e in doc.entries] == ["first", "second", "third"]
    assert doc.index_heading == 6
    assert [x.target for x in doc.index_links] == ["a"]


def test_add_entry_keeps_a_blank_line_before_the_index() -> None:
    doc = parse(b"- a\r\n## Index\r\n- [[x]]\r\n", "MEMORY.md")
    assert doc.add_entry("- b [k: v]") == 1
    assert serialize(doc) == b"- a\r\n- b [k: v]\r\n\r\n## Index\r\n- [[x]]\r\n"
    blank_lines = parse(b"- a\n\n\n\n## Index\n", "MEMORY.md")
    blank_lines.add_entry("- b [k: v]")
    assert serialize(blank_lines) == b"- a\n- b [k: v]\n\n\n\n## Index\n"
    top = parse(b"## Index\n- [[x]]\n", "MEMORY.md")
    assert top.add_entry("- b [k: v]") == 0
    assert serialize(top) == b"- b [k: v]\n\n## Index\n- [[x]]\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"", b"- n [k: v]\n"),
        (b"- a", b"- a\n- n [k: v]\n"),
        (b"- a\r\n- b", b"- a\r\n- b\r\n- n [k: v]\r\n"),
        (b"# T\r\r- a\r", b"# T\r\r- a\r- n [k: v]\r"),
        (b"- a\n\n", b"- a\n\n- n [k: v]\n"),
    ],
)
def test_add_entry_appends_with_the_dominant_ending(before: bytes, after: bytes) -> None:
    doc = parse(before, "notes.md")
    line_no = doc.add_entry("- n [k: v]")
    assert serialize(doc) == after
    assert doc.entries[-1].line_no == line_no
    assert doc.entries[-1].metadata == {"k": "v"}


def test_add_index_link() -> None:
    doc = parse(b"- a\n\n## Index\n- [[x]]\n\n## Later\n- b\n", "MEMORY.md")
    assert doc.add_index_link("topics/y") == 4
    assert serialize(doc) == b"- a\n\n## Index\n- [[x]]\n- [[topics/y]]\n\n## Later\n- b\n"
    assert [x.target for x in doc.index_links] == ["x", "topics/y"]
    assert [e.text for e in doc.entries] == ["a", "b"]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"", b"## Index\n- [[t]]\n"),
        (b"- a", b"- a\n\n## Index\n- [[t]]\n"),
        (b"- a\r\n\r\n", b"- a\r\n\r\n## Index\r\n- [[t]]\r\n"),
        (b"## Index", b"## Index\n- [[t]]\n"),
        (b"## Index\n\n", b"## Index\n- [[t]]\n\n"),
    ],
)
def test_add_index_link_makes_the_index(before: bytes, after: bytes) -> None:
    doc = parse(before, "MEMORY.md")
    line_no = doc.add_index_link("t")
    assert serialize(doc) == after
    assert doc.index_links[-1].line_no == line_no
    assert doc.index_links[-1].target == "t"


def test_add_index_link_refuses_other_files_and_bad_targets() -> None:
    with pytest.raises(ValueError, match=r"only MEMORY\.md"):
        parse(b"", "notes.md").add_index_link("x")
    for bad in ("", "  ", "a]]b", "a|b", "a\nb", "[x"):
        with pytest.raises(ValueError, match="link target"):
            parse(b"", "MEMORY.md").add_index_link(bad)


def test_line_edits_touch_only_their_lines() -> None:
    doc = parse(b"- a\r\n- b\n- c", "notes.md")
    doc.replace_line(1, "- B [k: v]")
    assert serialize(doc) == b"- a\r\n- B [k: v]\n- c"
    doc.insert_line(0, "# Title")
    assert serialize(doc) == b"# Title\r\n- a\r\n- B [k: v]\n- c"
    doc.insert_line(4, "- d")
    assert serialize(doc) == b"# Title\r\n- a\r\n- B [k: v]\n- c\r\n- d\r\n"
    doc.remove_line(1)
    assert serialize(doc) == b"# Title\r\n- B [k: v]\n- c\r\n- d\r\n"
    assert [(e.line_no, e.text, e.metadata) for e in doc.entries] == [
        (1, "B", {"k": "v"}),
        (2, "c", {}),
        (3, "d", {}),
    ]


def test_edits_recompute_structure() -> None:
    doc = parse(b"- a\n- b\n", "notes.md")
    doc.insert_line(0, "```")
    assert doc.entries == []
    doc.remove_line(0)
    assert [e.text for e in doc.entries] == ["a", "b"]
    doc.insert_line(0, "---")
    doc.insert_line(2, "---")
    assert doc.frontmatter is not None and doc.frontmatter.line_count == 3
    assert [e.line_no for e in doc.entries] == [3]


def test_edits_check_their_arguments() -> None:
    doc = parse(b"- a\n", "notes.md")
    with pytest.raises(IndexError):
        doc.replace_line(1, "x")
    with pytest.raises(IndexError):
        doc.remove_line(-1)
    with pytest.raises(IndexError):
        doc.insert_line(2, "x")
    for bad in ("two\nlines", "cr\r", "\ud800"):
        with pytest.raises(ValueError, match="line"):
            doc.insert_line(0, bad)
    assert serialize(doc) == b"- a\n"


# -- size ----------------------------------------------------------------------------


def test_very_long_entry_line() -> None:
    text = "word " * 20_000
    doc = parse(f"- {text}[k: v]\n".encode(), "notes.md")
    assert doc.entries[0].text == text.strip()
    assert doc.entries[0].metadata == {"k": "v"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "body",
    [
        "a [b: c] " * 1_200_000 + "[k: v]",
        "[[" * 5_000_000,
        "[" * 10_000_000 + "]" * 10,
        "x" + " " * 10_000_000 + "[k:" + " " * 100 + "]",
        "[k: " + "%3B" * 3_400_000 + "]",
    ],
    ids=["groups", "open-links", "brackets", "spaces", "escapes"],
)
def test_ten_megabyte_line_parses(body: str) -> None:
    data = f"- {body}\n".encode()
    assert len(data) >= 10_000_000
    doc = parse(data, "notes.md")  # quadratic backtracking would hang here
    assert len(doc.entries) == 1
    assert serialize(doc) == data
