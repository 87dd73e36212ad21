"""`touched_ids`: when it answers, a full parse of both versions agrees with it."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memrepo.errors import FormatError
from memrepo.formats import parse
from memrepo.formats.changes import touched_ids

from .strategies import TRICKY_LINES, documents, simple_documents

# Mostly bullets, the edits `touched_ids` answers for, so the property is tried often.
BULLETS = (
    "- a",
    "- a [subject: s]",
    "- a [subject: s; by: user]",
    "- b -->",
    "- c >",
    "* d [[x]]",
    "- e\r",
    "- f",
    "+ g [k: v]",
    "- - -",
    "-  two",
    "- <div>",
)
EDIT_LINES = st.one_of(st.sampled_from(BULLETS), st.sampled_from(TRICKY_LINES))


def _by_id(data: bytes, path: str) -> dict[str, list[str]]:
    try:
        doc = parse(data, path)
    except FormatError:  # an unreadable version has no entries
        return {}
    found: dict[str, list[str]] = defaultdict(list)
    for entry in doc.entries:
        found[entry.id].append(entry.raw)
    return found


def _missed(old: bytes, new: bytes, path: str) -> list[str]:
    """Entry ids a full parse sees changed but the answer leaves out (none when there is
    no answer: the caller then parses both versions)."""
    touched = touched_ids(old, new)
    if touched is None:
        return []
    before, after = _by_id(old, path), _by_id(new, path)
    return sorted(
        entry_id
        for entry_id in before.keys() | after.keys()
        if entry_id not in touched and before.get(entry_id) != after.get(entry_id)
    )


@st.composite
def edited(draw: st.DrawFn, base: st.SearchStrategy[str]) -> tuple[bytes, bytes]:
    """A file and the same file with a few lines inserted, removed or replaced."""
    text = draw(base)
    lines = text.split("\n")
    for _ in range(draw(st.sampled_from((1, 1, 1, 2, 3)))):
        at = draw(st.integers(0, len(lines)))
        kind = draw(st.sampled_from(("insert", "remove", "replace")))
        line = draw(st.one_of(st.sampled_from(BULLETS), EDIT_LINES))
        if kind == "insert" or at == len(lines):
            lines.insert(at, line)
        elif kind == "remove":
            del lines[at]
        else:
            lines[at] = line
    return text.encode(), "\n".join(lines).encode()


PATHS = st.sampled_from(("MEMORY.md", "notes.md"))


@pytest.mark.slow
@settings(max_examples=600)
@given(edited(documents()), PATHS)
@example((b"<!--\n- a\n- b -->\n- c\n", b"<!--\n- a\n- b\n- c\n"), "notes.md")
@example((b"- a\n- b\ntext\n", b"- a\ntext\n"), "notes.md")
@example((b"- a\n- b\n\n  more\n", b"- a\n\n  more\n"), "notes.md")
@example((b"x\n- b\n", b"x\nz- b\n"), "notes.md")
def test_an_answer_matches_a_full_parse(pair: tuple[bytes, bytes], path: str) -> None:
    old, new = pair
    assert _missed(old, new, path) == []
    assert _missed(new, old, path) == []


@pytest.mark.slow
@settings(max_examples=300)
@given(edited(simple_documents()), PATHS)
def test_an_answer_matches_a_full_parse_on_simple_files(
    pair: tuple[bytes, bytes], path: str
) -> None:
    old, new = pair
    assert _missed(old, new, path) == []


def test_a_bullet_added_among_bullets_is_answered_from_its_line_alone() -> None:
    old = b"# Notes\n\nIntro.\n\n- a [by: user]\n- b\n\n## More\n"
    new = b"# Notes\n\nIntro.\n\n- a [by: user]\n- new [subject: s]\n- b\n\n## More\n"

    assert touched_ids(old, new) == frozenset({"s"})
    assert touched_ids(new, old) == frozenset({"s"})
    assert touched_ids(old, old) == frozenset()


def test_a_change_that_can_move_block_boundaries_is_not_answered() -> None:
    entry = b"- kept [subject: k]\n"
    assert touched_ids(entry, b"```\n" + entry + b"```\n") is None  # fenced in
    assert touched_ids(b"- a\n- b\ntext\n", b"- a\ntext\n") is None  # lazy continuation
    assert touched_ids(b"<!--\n- b -->\n" + entry, b"<!--\n- b\n" + entry) is None
    assert touched_ids(b"- a\n", b"- a\n  continued\n") is None
