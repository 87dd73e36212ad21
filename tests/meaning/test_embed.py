"""Entry vectors from line vectors (memrepo/meaning/embed.py, issue #29): each distinct
line is embedded once, a new entry embeds its one line, a long first embed shows progress
and resumes where it was stopped, an entry's neighbours lend it meaning, and secrets,
huge and unknown-script texts never reach the model as they are."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memrepo import progress
from memrepo.index import IndexDoc
from memrepo.meaning.embed import Mix, update_vectors
from memrepo.meaning.model import Embedder, Vectors
from memrepo.meaning.vectors import VectorStore
from memrepo.recall.documents import entry_docs

SPEAKERS = ("Kate", "Bo", "Ana")


class Counting:
    """The real model, counting (and keeping) the texts it is given."""

    def __init__(self, inner: Embedder, stop_after: int | None = None) -> None:
        self.inner = inner
        self.texts: list[str] = []
        self.calls = 0
        self.stop_after = stop_after

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self.stop_after is not None and self.calls >= self.stop_after:
            raise KeyboardInterrupt
        self.calls += 1
        self.texts.extend(texts)
        return self.inner.embed(texts)


def chat(turns: Sequence[str], path: str = "conversations/chat.md") -> list[IndexDoc]:
    lines = "".join(f"- {SPEAKERS[n % 3]}: {text}\n" for n, text in enumerate(turns))
    return entry_docs(path, f"# Chat\n\n{lines}".encode(), commit="", uncommitted=False)


TURNS = [f"turn {n} is about topic number {n} of the day" for n in range(40)]


@pytest.mark.slow
def test_each_line_is_embedded_once_and_a_new_entry_embeds_one_line(
    embedder: Embedder, tmp_path: Path
) -> None:
    counting = Counting(embedder)
    store = VectorStore(embedder.name, embedder.dim)
    path = tmp_path / "vectors.bin"
    report = update_vectors(
        store, chat(TURNS), counting, complete=True, checkpoint=lambda: store.save(path)
    )
    # Every turn once (neighbours reuse it), the heading once, each speaker's label once.
    assert len(counting.texts) == len(TURNS) + 1 + len(SPEAKERS)
    assert len(set(counting.texts)) == len(counting.texts)
    assert (report.entries, report.embedded, report.waiting) == (len(TURNS), len(counting.texts), 0)

    counting.texts.clear()
    saved = path.stat().st_mtime_ns
    again = update_vectors(
        store, chat(TURNS), counting, complete=True, checkpoint=lambda: store.save(path)
    )
    assert (counting.texts, again.embedded, again.changed) == ([], 0, 0)
    assert path.stat().st_mtime_ns == saved  # nothing changed, nothing rewritten

    update_vectors(store, chat([*TURNS, "we should go hiking in May"]), counting, complete=True)
    assert counting.texts == ["we should go hiking in May"]

    counting.texts.clear()
    edited = [*TURNS[:10], "turn 10 changed its mind entirely", *TURNS[11:]]
    update_vectors(store, chat(edited), counting, complete=True)
    assert counting.texts == ["turn 10 changed its mind entirely"]
    assert store.entry_count() == len(TURNS)


@pytest.mark.slow
def test_a_remember_embeds_its_one_line(embedder: Embedder) -> None:
    """A write passes the documents the index projects again: the new entry and the
    two before it, whose context now holds it. Only the new line reaches the model."""
    counting = Counting(embedder)
    store = VectorStore(embedder.name, embedder.dim)
    update_vectors(store, chat(TURNS), counting, complete=True)
    counting.texts.clear()
    changed = chat([*TURNS, "Kate booked the ski trip"])[-3:]
    report = update_vectors(store, changed, counting)
    assert counting.texts == ["Kate booked the ski trip"]  # said by Bo: the lead is not embedded
    assert (report.entries, report.dropped, report.waiting) == (len(TURNS) + 1, 0, 0)


class Sink:
    def __init__(self) -> None:
        self.totals: list[int | None] = []
        self.steps = 0

    def start(self, label: str, total: int | None) -> None:
        self.totals.append(total)

    def advance(self, n: int = 1) -> None:
        self.steps += n

    def done(self) -> None:
        pass


@pytest.mark.slow
def test_a_first_embed_shows_progress_and_resumes_after_an_interruption(
    embedder: Embedder, tmp_path: Path
) -> None:
    path = tmp_path / "vectors.bin"
    docs = chat(TURNS)
    stopping = Counting(embedder, stop_after=2)
    first = VectorStore(embedder.name, embedder.dim)
    with pytest.raises(KeyboardInterrupt):
        update_vectors(first, docs, stopping, complete=True,
                       checkpoint=lambda: first.save(path), step=8)  # fmt: skip
    kept = VectorStore.load(path, model=embedder.name, dim=embedder.dim)
    assert len(kept) == 16  # two steps of eight lines were embedded and saved
    assert kept.refs_waiting()

    sink, counting = Sink(), Counting(embedder)
    with progress.listening(sink):
        report = update_vectors(
            kept, docs, counting, complete=True, checkpoint=lambda: kept.save(path), step=8
        )
    total = len(TURNS) + 1 + len(SPEAKERS)
    assert len(counting.texts) == total - 16
    assert not set(counting.texts) & set(stopping.texts)
    assert sink.totals == [total - 16]
    assert sink.steps == total - 16
    assert report.waiting == 0
    loaded = VectorStore.load(path, model=embedder.name, dim=embedder.dim)
    assert (len(loaded), loaded.refs_waiting()) == (total, [])


def test_an_entry_borrows_meaning_from_the_turns_around_it(embedder: Embedder) -> None:
    turns = [
        "Have you been on a road trip lately?",
        "Yep, last month. Best week of my year.",
        "I fixed the leaking kitchen tap yesterday.",
        "My sister started a new job at the bank.",
        "The weather has been cold all week.",
        "I finished reading a novel about whales.",
        "We should plan something for next year.",
    ]
    query = embedder.embed(["Who went on a road trip?"])[0]
    answer = chat(turns)[1].ref

    def rank(mix: Mix) -> int:
        store = VectorStore(embedder.name, embedder.dim)
        update_vectors(store, chat(turns), embedder, complete=True, mix=mix)
        scored = [ref for ref, _s in store.search(query, 7) if ref != chat(turns)[0].ref]
        return scored.index(answer)

    assert rank(Mix(context=0.0, label=0.0)) > 0
    assert rank(Mix()) == 0


@pytest.mark.slow
def test_secrets_huge_and_unknown_script_texts_never_reach_the_model_as_they_are(
    embedder: Embedder,
) -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    huge = "remember this " * 7200
    docs = chat([f"the deploy key is {key}", huge, "𓀀𓀁𓀂 ꦲꦏ꧀ꦱꦫ 𐌰𐌱𐌲", "fine"])
    docs.append(IndexDoc(ref="memory:empty", lane="memory", text=" \u200b "))
    counting = Counting(embedder)
    store = VectorStore(embedder.name, embedder.dim)
    report = update_vectors(store, docs, counting, complete=True)
    assert not [text for text in counting.texts if key in text]
    assert [text for text in counting.texts if "[redacted" in text]
    assert max(len(text) for text in counting.texts) <= 600
    assert (report.entries, report.skipped) == (4, 1)
    hits = store.search(embedder.embed(["hieroglyphs"])[0], 10)
    assert len(hits) == 4
    assert all(np.isfinite(score) for _ref, score in hits)
