"""The pure readers of other agents' memory, plus golden files for the sample folders."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memrepo.formats.importers import (
    Fact,
    Rejected,
    facts_in_markdown,
    read_block_file,
    read_line,
    read_memory_file,
)
from memrepo.transfer.import_sources import open_source
from memrepo.transfer.sources import MAX_LINE_BYTES, bounded_lines, read_jsonl_stream

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
#: (format, input under fixtures/imports, golden file): see fixtures/imports/README.md.
GOLDEN: list[tuple[str, str, str]] = [
    ("claude-code", "claude-code-memory", "claude-code-memory.json"),
    ("claude-code", "claude-project/project", "claude-project.json"),
    ("jsonl", "mem0/get_all.json", "mem0.json"),
    ("letta", "letta/agent.af", "letta-af.json"),
    ("letta", "letta/memfs", "letta-memfs.json"),
    ("letta", "letta/memgpt_agent.af", "letta-memgpt.json"),
    ("openmemory", "openmemory/memories_export_dana.zip", "openmemory.json"),
]


def as_row(item: Fact | Rejected) -> dict[str, object]:
    """An item as its golden file writes it: the fields that say something."""
    row = {k: v for k, v in dataclasses.asdict(item).items() if v not in (None, False, ())}
    if "meta" in row:
        row["meta"] = dict(row["meta"])
    return {"type": type(item).__name__, **row}


@pytest.mark.parametrize(("fmt", "source", "expected"), GOLDEN)
def test_sample_sources_read_as_their_golden_files(fmt: str, source: str, expected: str) -> None:
    home = FIXTURES / "claude-project" / "home"
    got = open_source(fmt, FIXTURES / source, home=home)
    golden = json.loads((FIXTURES / "expected" / expected).read_text())
    assert (got.title, got.stem) == (golden["title"], golden["stem"])
    assert [as_row(item) for item in got.items] == golden["items"]


def test_claude_memory_file_is_one_fact_with_name_and_type() -> None:
    data = (
        b"---\nname: tabs\ndescription: d\ntype: feedback\n---\n\nUse tabs.\n**Why:** team rule.\n"
    )
    assert read_memory_file(data, "tabs.md") == [
        Fact(
            "Use tabs. **Why:** team rule.",
            "tabs.md",
            7,
            subject="tabs",
            kind="feedback",
            key="memory-file:tabs.md",
            meta=(("description", "d"),),
        )
    ]


def test_claude_memory_without_body_falls_back_to_its_description() -> None:
    data = b"---\nname: n\ndescription: Prefers dark mode\ntype: user\n---\n"
    assert [f.text for f in read_memory_file(data, "n.md") if isinstance(f, Fact)] == [
        "Prefers dark mode"
    ]


def test_claude_index_links_are_not_facts() -> None:
    data = b"# Index\n- [Role](user_role.md) - data scientist\n- [[other]]\n- Keep replies short\n"
    assert read_memory_file(data, "MEMORY.md") == [Fact("Keep replies short", "MEMORY.md", 4)]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"---\nname: [unclosed\n---\nbody text\n", "invalid YAML"),
        (b"---\nname: x\nbody text without a closing fence\n", "no closing ---"),
        (b"---\n- a\n- list\n---\nbody\n", "not a YAML mapping"),
    ],
)
def test_malformed_frontmatter_is_rejected_with_a_reason(data: bytes, message: str) -> None:
    for reader in (read_memory_file, read_block_file):
        [got] = reader(data, "bad.md")
        assert isinstance(got, Rejected)
        assert (got.reason, got.line) == ("malformed_frontmatter", 1)
        assert message in got.message


def test_non_utf8_markdown_is_rejected() -> None:
    [got] = read_block_file(b"- caf\xe9 au lait\n", "system/human.md")
    assert isinstance(got, Rejected) and got.reason == "not_utf8" and "byte 5" in got.message


def test_letta_blocks_split_into_bullets_and_paragraphs() -> None:
    data = (
        b"---\ndescription: x\n---\n# Title\nFirst paragraph\ncontinues here.\n\n"
        b"- bullet one\n  wrapped\n  - nested detail\n- bullet two\n\n"
        b"```\n- code, not a fact\n```\n<!-- a comment\nstill comment -->\nLast words.\n"
    )
    got = read_block_file(data, "system/human.md")
    assert [(f.line, f.text, f.kind) for f in got if isinstance(f, Fact)] == [
        (5, "First paragraph continues here.", "human"),
        (8, "bullet one wrapped nested detail", "human"),
        (11, "bullet two", "human"),
        (18, "Last words.", "human"),
    ]


def test_letta_generated_listing_is_not_memory() -> None:
    assert read_block_file(b"- system/human.md\n", "memory_filesystem.md") == []


def test_markdown_ordered_lists_are_facts() -> None:
    assert facts_in_markdown(["1. one", "2) two", "", "---", "text"], 0) == [
        (1, "one"),
        (2, "two"),
        (5, "text"),
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"text": "unterminated', "invalid_json"),
        (b'["a list"]', "not_an_object"),
        (b'{"title": "no text field"}', "no_text"),
        (b'{"text": "   "}', "no_text"),
        (b'{"text": "caf\xe9"}', "not_utf8"),
        (b"[" * 100_000, "invalid_json"),
    ],
)
def test_bad_jsonl_lines_name_their_line(line: bytes, reason: str) -> None:
    got = read_line(line, 17, "dump.jsonl")
    assert isinstance(got, Rejected)
    assert (got.reason, got.line, got.path) == (reason, 17, "dump.jsonl")
    assert "line 17" in got.message


@pytest.mark.parametrize(
    ("value", "day"),
    [
        ("2026-02-14T23:30:00-05:00", "2026-02-15"),
        ("2026-02-14", "2026-02-14"),
        ("2026-02-14 08:00", "2026-02-14"),
        (1771027200, "2026-02-14"),
        (1771027200123, "2026-02-14"),
        ("yesterday", None),
        (True, None),
    ],
)
def test_jsonl_created_times_become_utc_dates(value: object, day: str | None) -> None:
    got = read_line(json.dumps({"text": "a fact", "created_at": value}).encode(), 1, "f")
    assert isinstance(got, Fact) and got.created == day


def test_jsonl_blank_lines_are_ignored() -> None:
    assert read_line(b"  \n", 3, "f") is None


class CountingStream(io.RawIOBase):
    """An endless JSONL stream that counts how many bytes were pulled from it."""

    def __init__(self) -> None:
        self.pulled = 0
        self._lines = self._generate()
        self._pending = b""

    def _generate(self) -> Iterator[bytes]:
        n = 0
        while True:
            n += 1
            yield json.dumps({"text": f"fact number {n}"}).encode() + b"\n"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while len(self._pending) < len(buffer):
            self._pending += next(self._lines)
        size = len(buffer)
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        self.pulled += size
        return size


def test_jsonl_is_read_incrementally() -> None:
    raw = CountingStream()
    with io.BufferedReader(raw, buffer_size=8192) as stream:
        facts = read_jsonl_stream(stream, "endless.jsonl")
        first = [next(facts) for _ in range(10)]
        assert [f.text for f in first if isinstance(f, Fact)][-1] == "fact number 10"
        assert raw.pulled <= 16384  # an endless input, and only a buffer or two was read


def test_an_overlong_line_is_skipped_without_holding_it() -> None:
    data = b'{"text": "before"}\n' + b"x" * (3 * MAX_LINE_BYTES) + b'\n{"text": "after"}\n'
    lines = list(bounded_lines(io.BytesIO(data)))
    assert [(n, None if raw is None else len(raw)) for n, raw in lines] == [
        (1, 19),
        (2, None),
        (3, 18),
    ]
