"""Properties of merge_file over generated files."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memrepo.formats import parse
from memrepo.sync.merge import merge_file

# Lines on the edges of what an entry is, so generated files mix entries, links, fences,
# headings and frontmatter; endings mixed; plus arbitrary bytes (binary, bad UTF-8).
LINES = (
    "",
    "- a",
    "- b [k: v]",
    "- c [subject: s; by: user]",
    "- c2 [subject: s; by: agent]",
    "* d",
    "- [[x]]",
    "## Index",
    "# T",
    "---",
    "desc: y",
    "```",
    "> q",
    "  more",
    "text",
)
line = st.one_of(st.sampled_from(LINES), st.text(max_size=8).filter(lambda t: "\r" not in t))
documents = st.lists(st.tuples(line, st.sampled_from(("\n", "\r\n", ""))), max_size=12).map(
    lambda parts: "".join(text + (ending or "\n") for text, ending in parts)
)
files = st.one_of(documents.map(str.encode), st.binary(max_size=40))
paths = st.sampled_from(["MEMORY.md", "topic.md", "notes.txt"])


@given(paths, files, files)
@pytest.mark.slow
def test_a_side_that_changed_nothing_gives_the_other_side_byte_exact(
    path: str, base: bytes, changed: bytes
) -> None:
    assert merge_file(path, base, changed, base).merged == changed
    assert merge_file(path, base, base, changed).merged == changed
    assert merge_file(path, base, changed, base).conflicts == ()


@pytest.mark.slow
@given(paths, files, files, files)
@example(path="MEMORY.md", base=b"", ours=b"\xef\xbb\xbf", theirs=b"- a\n")
@settings(max_examples=300)
def test_every_merged_line_comes_from_an_input(
    path: str, base: bytes, ours: bytes, theirs: bytes
) -> None:
    """The merge only chooses and orders lines: it never invents text (no markers)."""
    result = merge_file(path, base, ours, theirs)
    assert result.merged is not None

    def lines(data: bytes) -> set[bytes]:
        # A byte-order mark belongs to the file, not its first line: one side adding a BOM
        # and the other a first line rightly gives "BOM + that line".
        data = data.removeprefix(b"\xef\xbb\xbf")
        return {line.rstrip(b"\r\n") for line in data.replace(b"\r", b"\n").split(b"\n")}

    known = lines(base) | lines(ours) | lines(theirs)
    assert lines(result.merged) <= known
    if result.loser is not None:
        assert lines(result.loser) <= known
    assert (result.loser is None) == (result.conflicts == ())


words = st.from_regex(r"[a-z]{3,8}", fullmatch=True)


@pytest.mark.slow
@given(
    st.lists(words, unique=True, max_size=8),
    st.data(),
)
@settings(max_examples=200)
def test_entries_added_and_removed_on_both_sides_all_land(
    base_words: list[str], data: st.DataObject
) -> None:
    removed_ours = set(data.draw(st.lists(st.sampled_from(base_words or ["_"]), max_size=3)))
    removed_theirs = set(data.draw(st.lists(st.sampled_from(base_words or ["_"]), max_size=3)))
    added_ours = [f"ours {w}" for w in data.draw(st.lists(words, unique=True, max_size=4))]
    added_theirs = [f"theirs {w}" for w in data.draw(st.lists(words, unique=True, max_size=4))]

    def file(entries: list[str]) -> bytes:
        return ("# Memory\n\n" + "".join(f"- {e}\n" for e in entries) + "\n## Index\n").encode()

    base = file(base_words)
    ours = file(_shuffle_in(data, [w for w in base_words if w not in removed_ours], added_ours))
    theirs = file(
        _shuffle_in(data, [w for w in base_words if w not in removed_theirs], added_theirs)
    )
    result = merge_file("MEMORY.md", base, ours, theirs)
    assert result.conflicts == ()
    assert result.merged is not None
    merged = [e.text for e in parse(result.merged, "MEMORY.md").entries]
    kept = [w for w in base_words if w not in removed_ours | removed_theirs]
    assert sorted(merged) == sorted(kept + added_ours + added_theirs)
    # Each side's own order survives.
    assert [e for e in merged if e in added_ours] == added_ours
    assert [e for e in merged if e in added_theirs] == added_theirs


def _shuffle_in(data: st.DataObject, kept: list[str], added: list[str]) -> list[str]:
    """Insert the added entries at drawn positions, in their order."""
    out = list(kept)
    position = 0
    for entry in added:
        position = data.draw(st.integers(min_value=position, max_value=len(out)))
        out.insert(position, entry)
        position += 1
    return out
