"""Fixtures for the index tests: a real Whoosh index under tmp_path."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from memrepo.index import IndexDoc, IndexStore


def doc(ref: str, text: str, **fields: object) -> IndexDoc:
    """A folder-lane document of MEMORY.md in repo "main" unless fields say otherwise."""
    values: dict[str, object] = {"lane": "folder", "repo": "main", "path": "MEMORY.md"}
    values.update(fields)
    return IndexDoc(ref=ref, text=text, **values)  # type: ignore[arg-type]


CORPUS: Sequence[IndexDoc] = (
    doc("folder:MEMORY.md#ship", "We ship the postgres-16 migration in May", line=3),
    doc("folder:MEMORY.md#cafe", "Lunch at café Müller in İstanbul", line=4),
    doc("folder:MEMORY.md#tokyo", "Visit 東京都庁 on Friday", line=5),
    doc("folder:MEMORY.md#shoes", "Bought running shoes; release v1.2.3", line=6),
    doc("folder:notes.md#aks", "AKS-42 tracks the cluster upgrade", path="notes.md", line=1),
    doc(
        "memory:7",
        "Alice prefers tea",
        lane="memory",
        repo="",
        path="",
        workspace="ws1",
        privacy="private",
        tainted=True,
    ),
    doc("team:core:MEMORY.md#ru", "Москва office opens yet again", lane="team", repo="team:core"),
)


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "index"


@pytest.fixture
def store(index_path: Path) -> Iterator[IndexStore]:
    """A store holding CORPUS, reflecting commit "c1" of main (built by the rebuild path)."""

    def fill(new: IndexStore) -> None:
        new.bulk_load(CORPUS)
        new.set_reflected("main", "c1")

    opened = IndexStore.open(index_path, rebuild=fill)  # a first build warns of nothing
    try:
        yield opened
    finally:
        opened.close()
