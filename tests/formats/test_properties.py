"""Properties over generated files: byte round trip, fast path == markdown-it, edits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.formats import format_entry, parse, serialize
from memrepo.formats.blocks import classify
from memrepo.formats.frontmatter import find_frontmatter
from memrepo.formats.layout import Layout
from memrepo.formats.lines import dominant_ending, one_line, split_text
from memrepo.formats.scan import scan

from .strategies import documents, metadata_maps, simple_documents

PATHS = st.sampled_from(("MEMORY.md", "notes.md"))


@given(st.text(), PATHS)
def test_text_round_trips(text: str, path: str) -> None:
    data = text.encode()
    assert serialize(parse(data, path)) == data


@given(st.binary())
def test_decodable_bytes_round_trip(data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert serialize(parse(data, "MEMORY.md")) == data


@pytest.mark.slow
@settings(max_examples=300)
@given(documents(), PATHS)
def test_markdownish_files_round_trip(text: str, path: str) -> None:
    data = text.encode()
    doc = parse(data, path)
    assert serialize(doc) == data
    for entry in doc.entries:
        assert doc.lines[entry.line_no].text == entry.raw


def _shape(layout: Layout) -> tuple[object, ...]:
    return (
        layout.entry_lines,
        layout.index_lines,
        layout.multi_line,
        layout.index_heading,
        layout.index_end,
    )


def _check_fast_path_agrees(text: str) -> bool:
    """Both classifiers agree wherever the fast one answers; True if it answered."""
    texts, endings = split_text(text)
    fm = find_frontmatter(texts, endings)
    start = fm.line_count if fm else 0
    answered = False
    for with_index in (True, False):
        fast = scan(texts, start, with_index)
        if fast is not None:
            answered = True
            assert _shape(fast) == _shape(classify(texts, start, with_index)), with_index
    return answered


@pytest.mark.slow
@settings(max_examples=300)
@given(documents())
def test_fast_path_agrees_with_markdown_it(text: str) -> None:
    _check_fast_path_agrees(text)


@pytest.mark.slow
@settings(max_examples=300)
@given(simple_documents())
def test_fast_path_agrees_on_simple_files(text: str) -> None:
    assert _check_fast_path_agrees(text)


def test_fast_path_answers_for_plain_memory_files() -> None:
    plain = "# Memory\n\nIntro.\n- a [k: v]\n* b\n\n## Index\n- [[x]]\n\n## More\n- c\n"
    assert _check_fast_path_agrees(plain)


BASES = {
    "empty": ("notes.md", b""),
    "memory": ("MEMORY.md", b"# Memory\n\n- kept [by: user]\n\n## Index\n- [[topics/a]]\n"),
    "no-final-newline": ("topics/a.md", b"---\ndescription: x\n---\r\n- last [k: v]"),
}


@pytest.mark.slow
@settings(max_examples=300)
@given(st.sampled_from(sorted(BASES)), st.text(), metadata_maps)
def test_written_entries_read_back(base: str, text: str, metadata: dict[str, str]) -> None:
    path, data = BASES[base]
    doc = parse(data, path)
    before = [(e.line_no, e.raw) for e in doc.entries]
    line_no = doc.add_entry(format_entry(text, metadata))
    again = parse(serialize(doc), path)
    [entry] = [e for e in again.entries if e.line_no == line_no]
    assert entry.text == one_line(text)
    assert entry.metadata == {k: one_line(v) for k, v in metadata.items()}
    assert [(e.line_no, e.raw) for e in again.entries if e.line_no != line_no] == before
    assert [x.target for x in again.index_links] == [
        x.target for x in parse(data, path).index_links
    ]


_EDITS = st.lists(
    st.tuples(
        st.sampled_from(("replace", "remove", "insert")),
        st.integers(min_value=0, max_value=20),
        st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=8),
    ),
    max_size=6,
)


@pytest.mark.slow
@settings(max_examples=300)
@given(documents(), _EDITS)
def test_edits_change_only_their_lines(text: str, edits: list[tuple[str, int, str]]) -> None:
    doc = parse(text.encode(), "MEMORY.md")
    texts, endings = split_text(text)
    for op, at, new in edits:
        if op == "insert":
            at %= len(texts) + 1
            ending = dominant_ending(endings)
            if at == len(texts) and endings and not endings[-1]:
                endings[-1] = ending
            texts.insert(at, new)
            endings.insert(at, ending)
            doc.insert_line(at, new)
        elif texts:
            at %= len(texts)
            if op == "replace":
                texts[at] = new
                doc.replace_line(at, new)
            else:
                del texts[at], endings[at]
                doc.remove_line(at)
        expected = "".join(t + e for t, e in zip(texts, endings, strict=True))
        assert serialize(doc) == expected.encode()
        texts, endings = split_text(expected)  # a reader splits "\r" + "\n" as one ending
        assert [(line.text, line.ending) for line in doc.lines] == list(
            zip(texts, endings, strict=True)
        )
        assert [e.line_no for e in doc.entries] == [
            e.line_no for e in parse(expected.encode(), "MEMORY.md").entries
        ]
