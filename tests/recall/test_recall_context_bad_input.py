"""Bad input against context recall: huge entries and files, hostile queries and dates,
an index of the old schema. No crash, bounded work, never "nothing remembered"."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.formats import parse
from memrepo.index import SCHEMA_VERSION, IndexRebuiltWarning, build_query
from memrepo.index.dates import MAX_QUERY_DATES
from memrepo.index.query import MAX_TERMS
from memrepo.recall.entry_context import CONTEXT_CHARS, entry_contexts

from .files import commit_file

Git = Callable[..., str]


@pytest.mark.slow
def test_a_huge_entry_lends_its_neighbours_only_a_bounded_context(
    memory_repo: MemoryRepo, git: Git
) -> None:
    huge = "zebra " * 20_000  # 120,000 characters on one line
    commit_file(
        memory_repo, git, "notes/big.md", f"# Big\n\n- Ana: before\n- Bo: {huge}\n- Ana: after\n"
    )
    doc = parse((Path(memory_repo.root) / "notes/big.md").read_bytes(), "notes/big.md")
    segments = [s for c in entry_contexts(doc).values() for s in c.segments]
    assert all(len(text) <= CONTEXT_CHARS for text, _weight in segments)
    found = [hit.text for hit in memory_repo.recall("zebra").hits]
    assert len(found) == 1 and found[0].startswith("Bo: zebra")


@pytest.mark.slow
def test_a_file_of_many_lines_is_indexed_with_context(memory_repo: MemoryRepo, git: Git) -> None:
    lines = [f"- Ana: line {n} about topic{n}" for n in range(5_000)]
    lines[2_500] = "- Ana: we took the ferry to the island"
    lines[2_501] = "- Bo: yes"
    commit_file(memory_repo, git, "chats/long.md", "# Long\n\n" + "\n".join(lines) + "\n")
    found = [hit.text for hit in memory_repo.recall("ferry island").hits]
    assert found[0] == "Ana: we took the ferry to the island"
    assert "Bo: yes" in found  # found through the line before it
    assert [h.text for h in memory_repo.recall("topic4999").hits] == [
        "Ana: line 4999 about topic4999"
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "query",
    [
        "Dec " * 5_000,
        "29 Dec 2023 " * 1_000,
        "yesterday last month two weeks ago last Friday " * 300,
        "May 9999 0 Feb 30 2023-02-30 99999999 last 1000000 days ago",
        "\x00 last \ud800 month \x1b[31m",
        "январь 2023 12月 2023年 ٢٠٢٣",
    ],
    ids=["months", "dates", "relative", "impossible", "control", "scripts"],
)
def test_hostile_date_queries_are_bounded(memory_repo: MemoryRepo, query: str) -> None:
    memory_repo.remember("We met on the 29th [added: 2023-12-29]")
    built = build_query(query)
    assert len(built.dates) <= MAX_QUERY_DATES and len(built.terms) <= MAX_TERMS
    memory_repo.recall(query)  # no crash, whatever it finds


@pytest.mark.slow
@pytest.mark.parametrize(
    "added", ["9999-12-31", "0001-01-01", "2023-02-30", "yesterday", "2023-13", "x" * 500, ""]
)
def test_forged_added_dates_index_and_search(memory_repo: MemoryRepo, git: Git, added: str) -> None:
    commit_file(
        memory_repo, git, "notes/d.md", f"# D\n\n- Saw the comet yesterday [added: {added}]\n"
    )
    assert [h.text for h in memory_repo.recall("comet").hits] == ["Saw the comet yesterday"]
    memory_repo.recall("what happened on 31 Dec 9999 or last month")


@pytest.mark.slow
def test_an_index_of_the_old_schema_is_rebuilt_on_open(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(
        memory_repo,
        git,
        "chats/a.md",
        "# A\n\n- Ana: road trip to the coast\n- Bo: yep, fun\n- Ana: indeed\n",
    )
    assert memory_repo.recall("road trip coast").hits
    root = memory_repo.root
    memory_repo.close()
    meta_path = Path(root) / ".git" / "memrepo" / "index.json"
    meta = json.loads(meta_path.read_text())
    meta["schema_version"] = SCHEMA_VERSION - 1
    meta_path.write_text(json.dumps(meta))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with MemoryRepo.open(root) as reopened:
            found = [hit.text for hit in reopened.recall("road trip coast").hits]
    assert any(issubclass(w.category, IndexRebuiltWarning) for w in caught)
    assert found[:2] == ["Ana: road trip to the coast", "Bo: yep, fun"]
    assert json.loads(meta_path.read_text())["schema_version"] == SCHEMA_VERSION
