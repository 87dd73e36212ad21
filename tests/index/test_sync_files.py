"""IndexStore.sync_files: a file update rewrites only the documents that changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from whoosh.query import Every, Query

from memrepo import MemoryRepo
from memrepo.index import IndexDoc, IndexStore

from .conftest import doc

pytestmark = pytest.mark.slow

Git = Callable[..., str]


def file_docs(texts: list[str], path: str = "notes.md") -> list[IndexDoc]:
    return [
        doc(f"folder:{path}#{n}", text, path=path, line=n + 3, context=((f"near {n}", 0.25),))
        for n, text in enumerate(texts)
    ]


def test_only_new_changed_and_gone_documents_are_written(store: IndexStore) -> None:
    texts = [f"fact number {n}" for n in range(20)]
    assert store.sync_files("main", {"notes.md": file_docs(texts)}) == 20
    assert store.sync_files("main", {"notes.md": file_docs(texts)}) == 0  # nothing changed
    texts[7] = "fact number seven, reworded"
    assert store.sync_files("main", {"notes.md": file_docs(texts)}) == 1
    assert store.sync_files("main", {"notes.md": file_docs(texts[:-1])}) == 0  # one deleted
    refs = {hit.ref for hit in store.search(_all(), limit=100)}
    assert "folder:notes.md#19" not in refs and len(refs & _refs(19)) == 19
    assert store.sync_files("main", {"notes.md": []}) == 0  # the file is gone
    assert not {hit.ref for hit in store.search(_all(), limit=100)} & _refs(20)


def _all() -> Query:
    return Every()


def _refs(count: int) -> set[str]:
    return {f"folder:notes.md#{n}" for n in range(count)}


def test_an_edit_rewrites_the_entry_and_its_neighbours_only(
    memory_repo: MemoryRepo, git: Git
) -> None:
    lines = [f"- {'Ana' if n % 2 else 'Bo'}: turn {n} about topic{n}" for n in range(40)]
    path = Path(memory_repo.root) / "chats" / "a.md"
    path.parent.mkdir()
    path.write_text("# Chat\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    git(memory_repo.root, "add", "-A")
    git(memory_repo.root, "commit", "-q", "-m", "chat")
    first = {h.text: h.provenance.commit for h in memory_repo.recall("turn", limit=40).hits}
    lines[20] = "- Bo: turn 20 about the ferry"
    path.write_text("# Chat\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    git(memory_repo.root, "commit", "-q", "-am", "reword 20")
    head = git(memory_repo.root, "rev-parse", "HEAD").strip()
    after = {h.text: h.provenance.commit for h in memory_repo.recall("turn", limit=40).hits}
    rewritten = {text for text, commit in after.items() if commit == head}
    # The reworded turn and the four whose context holds it; the rest keep the commit
    # they were indexed from (which holds them just the same).
    assert rewritten == {
        "Bo: turn 20 about the ferry",
        *(f"{'Ana' if n % 2 else 'Bo'}: turn {n} about topic{n}" for n in (18, 19, 21, 22)),
    }
    assert all(after[text] == first[text] for text in after if text not in rewritten)
    assert memory_repo.recall("ferry").hits[0].text == "Bo: turn 20 about the ferry"
