"""Two processes' views of one root's vectors (issue #29; docs/architecture.md §6): a
change one makes is appended to the journal and read by the other, the file is rewritten
once the journal grows, and a write that would wait for another process's long embed
leaves its change for later. Two `VectorFile`s on one state folder stand for two
processes (each process holds one, `vector_file`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memrepo.folder.lock import WriteLock
from memrepo.index import IndexDoc
from memrepo.meaning import vectorfile_sync
from memrepo.meaning.embed import Recipes
from memrepo.meaning.model import Embedder
from memrepo.meaning.vectorfile_sync import LOCK_NAME, VectorFile


def recipes(*texts: str) -> Recipes:
    noted = Recipes()
    for text in texts:
        noted.note(
            IndexDoc(ref=f"folder:notes.md#{abs(hash(text)) % 10**8}", lane="folder", text=text)
        )
    return noted


def nearest(file: VectorFile, embedder: Embedder, question: str) -> list[str]:
    file.refresh()
    query = embedder.embed([question])[0]
    return [ref for ref, _cosine in file.store.search(np.asarray(query), 3)]


def test_what_one_process_embeds_the_other_finds(tmp_path: Path, embedder: Embedder) -> None:
    writer = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    reader = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    writer.apply(recipes("Kate goes skiing in the Alps", "The invoice is due Friday"), embedder)
    violin = recipes("Ana plays the violin in an orchestra")
    writer.apply(violin, embedder)  # appended: the file itself stays as it was
    assert (tmp_path / "meaning" / "vectors.log").stat().st_size > 100
    (ref,) = violin.parts
    assert nearest(reader, embedder, "who performs classical music?")[0] == ref
    forgotten = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    reader.apply(Recipes(), embedder, gone=(ref,))
    assert ref not in nearest(forgotten, embedder, "who performs classical music?")


def test_a_grown_journal_is_folded_into_the_file(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectorfile_sync, "JOURNAL_FLOOR", 0)
    monkeypatch.setattr(vectorfile_sync, "JOURNAL_SHARE", 0.0)  # fold at every write
    writer = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    reader = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    writer.apply(recipes("Kate goes skiing in the Alps"), embedder)
    reader.refresh()
    log = tmp_path / "meaning" / "vectors.log"
    for text in ("The invoice is due Friday", "Ana plays the violin", "Ben fixes motorbikes"):
        writer.apply(recipes(text), embedder)
    assert log.read_bytes().count(b"\n") == 2  # folded in: the journal's header alone
    assert len(nearest(reader, embedder, "who fixes vehicles?")) == 3
    assert reader.store.entry_count() == 4


def test_a_write_never_waits_for_another_process_holding_the_vectors(
    tmp_path: Path, embedder: Embedder
) -> None:
    file = VectorFile(tmp_path, embedder.name, embedder.dim, 5.0)
    with WriteLock(tmp_path / "meaning", 5.0, name=LOCK_NAME):  # a first embed elsewhere
        assert file.apply(recipes("Kate goes skiing"), embedder, wait=False) is None
    assert file.apply(recipes("Kate goes skiing"), embedder, wait=False) is not None
