"""The pure readers added for CLAUDE.md, mem0 and Letta agent files, one rule at a time."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import Fact, Import, Rejected, find_imports, read_object
from memrepo.formats.importers.claude_code import memory_type, read_memory_file
from memrepo.formats.importers.markdown import blocks_in_markdown, is_placeholder, split_records
from memrepo.formats.importers.mem0 import read_document


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        ("See @README for the overview and @package.json for scripts", ["package.json"]),
        ("- git workflow @docs/git-instructions.md.", ["docs/git-instructions.md"]),
        ("- mine: @~/.claude/my-project-instructions.md", ["~/.claude/my-project-instructions.md"]),
        ("Mail dana@example.com or ping @dana", []),
        ("Never `@inline/code.md` but @real/one.md", ["real/one.md"]),
        (
            "(@./local.md) and @../up.md, then @/abs/path.md",
            ["./local.md", "../up.md", "/abs/path.md"],
        ),
    ],
)
def test_imports_are_found_like_claude_code_finds_them(line: str, targets: list[str]) -> None:
    assert [i.target for i in find_imports([line])] == targets


def test_imports_in_fenced_code_are_not_imports() -> None:
    texts = ["@a.md", "```", "@b.md", "```", "~~~", "@c.md", "~~~", "@d.md"]
    assert find_imports(texts) == [Import(1, "a.md"), Import(8, "d.md")]


@given(st.text(alphabet="ab./@ `\n", max_size=60))
@pytest.mark.slow
def test_nothing_inside_a_fence_is_ever_an_import(body: str) -> None:
    lines = ["```", *(line.replace("`", "") for line in body.split("\n")), "```"]
    assert find_imports(lines) == []


def test_headings_are_kept_as_the_trail_above_each_block() -> None:
    texts = ["# A", "- one", "## B", "two", "### C", "- three", "## D", "- four"]
    assert [(b.text, b.headings) for b in blocks_in_markdown(texts, 0)] == [
        ("one", ("A",)),
        ("two", ("A", "B")),
        ("three", ("A", "B", "C")),
        ("four", ("A", "D")),
    ]


def test_a_key_value_paragraph_is_one_fact_per_line_and_prose_is_not() -> None:
    record, prose, bullet = blocks_in_markdown(
        ["Name: Dana", "City: Lisbon", "", "Dana lives in Lisbon", "and sails.", "", "- a: b"], 0
    )
    assert split_records(record) == [(1, "Name: Dana"), (2, "City: Lisbon")]
    assert split_records(prose) == [(4, "Dana lives in Lisbon and sails.")]
    assert split_records(bullet) == [(7, "a: b")]


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [
        ("Last name: ?", True),
        ("Age: unknown", True),
        ("Nationality:", True),
        ("First name: {name}", True),
        ("Employer: [COMPANY]", True),
        ("Pets: none", False),  # "none" is an answer
        ("First name: Chad", False),
        ("Is this right? Maybe.", False),
        ("See https://example.com/?", False),
    ],
)
def test_placeholders_are_keys_without_a_value(text: str, placeholder: bool) -> None:
    assert is_placeholder(text) is placeholder


def test_memory_type_prefers_the_current_metadata_type() -> None:
    assert memory_type({"metadata": {"type": "feedback"}, "type": "user"}) == "feedback"
    assert memory_type({"type": "project"}) == "project"
    assert memory_type({"metadata": "odd"}) is None


def test_links_between_memories_name_the_linked_memory() -> None:
    data = (
        b"---\nname: a\n---\nSee [the freeze](notes/freeze.md#why), [[other]], "
        b"[[other|the other one]] and [docs](https://example.com/x.md).\n"
    )
    [fact] = read_memory_file(data, "a.md", {"notes/freeze.md": "Merge freeze"})
    assert isinstance(fact, Fact)
    assert fact.text == (
        "See the freeze, other, the other one and [docs](https://example.com/x.md)."
    )
    assert dict(fact.meta)["related"] == "Merge freeze, other"


def test_a_memory_reads_private_and_routing_from_its_metadata() -> None:
    memory = {
        "id": "m-1",
        "memory": "Sees a therapist on Thursdays",
        "metadata": {"privacy": "private", "workspace": "Home", "mood": "calm"},
        "expiration_date": "2030-01-31",
    }
    got = read_object(memory, "x.json", 1, where="memory 1")
    assert isinstance(got, Fact)
    assert (got.private, got.workspace, got.expires, got.subject) == (
        True,
        "Home",
        "2030-01-31",
        "mem0:m-1",
    )
    assert dict(got.meta) == {"metadata": "mood=calm"}


def test_a_memory_without_text_is_rejected_by_position() -> None:
    got = read_object({"id": "m-2", "hash": "h"}, "x.json", 2, where="memory 2")
    assert isinstance(got, Rejected) and got.message.startswith("memory 2 has no text field")


@pytest.mark.parametrize(
    ("document", "count"),
    [
        ([{"memory": "a"}], 1),
        ({"results": [{"memory": "a"}, {"memory": "b"}], "relations": []}, 2),
        ({"memories": []}, 0),
        ({"id": "m", "memory": "one"}, 1),
    ],
)
def test_mem0_documents_hold_their_memories(document: object, count: int) -> None:
    assert len(read_document(json.dumps(document).encode(), "x.json")) == count


@pytest.mark.parametrize("document", [{"results": {"a": 1}}, "text", 3, None])
def test_other_documents_are_not_mem0_exports(document: object) -> None:
    with pytest.raises(ImportSourceError, match="not a mem0 export"):
        read_document(json.dumps(document).encode(), "x.json")
