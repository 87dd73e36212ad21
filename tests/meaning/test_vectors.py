"""The vector file (memrepo/meaning/vectors.py, issue #29): a round trip keeps what was
embedded, int8 ranks as float32 does, a mask hides what the reader may not see, the
file stays local and small, and every kind of damage is one `VectorsDamaged` line that
says to rebuild."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from memrepo import MemoryRepo
from memrepo.errors import VectorsDamaged
from memrepo.meaning.model import Embedder
from memrepo.meaning.vectors import MAGIC, VectorStore, text_key, vectors_path

DIM = 384
SENTENCES = [
    "Kate went skiing in the Alps last winter.",
    "Kate bakes sourdough bread every Sunday.",
    "The quarterly tax report is due on Monday.",
    "Bo adopted a grey cat called Pixel.",
    "The team moved the standup to 9:30.",
    "Ana is learning to play the cello.",
    "The car needs new tyres before the trip.",
    "Lee's favourite food is ramen.",
]


def unit(rng: np.random.Generator, n: int, dim: int = DIM) -> npt.NDArray[np.float32]:
    rows = rng.normal(size=(n, dim)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1)[:, None]
    return rows


def one_line_store(embedder: Embedder) -> VectorStore:
    """Each sentence an entry of its own (`entry:<n>`)."""
    store = VectorStore(embedder.name, embedder.dim)
    keys = [text_key(text) for text in SENTENCES]
    store.add_lines(keys, embedder.embed(SENTENCES))
    for n, key in enumerate(keys):
        store.set_entry(f"entry:{n}", ((key, 1.0),))
    return store


@pytest.mark.slow
def test_a_saved_store_answers_as_before(embedder: Embedder, tmp_path: Path) -> None:
    store = one_line_store(embedder)
    store.set_entry("entry:mixed", ((text_key(SENTENCES[0]), 1.0), (text_key(SENTENCES[1]), 0.5)))
    store.set_entry("entry:waiting", ((text_key("not embedded yet"), 1.0),))
    query = embedder.embed(["What does Kate do for fun?"])[0]
    before = store.search(query, 4)
    path = vectors_path(tmp_path / "state")
    store.save(path)

    loaded = VectorStore.load(path, model=embedder.name, dim=embedder.dim)
    assert [ref for ref, _score in loaded.search(query, 4)] == [ref for ref, _s in before]
    assert np.allclose([s for _r, s in loaded.search(query, 4)], [s for _r, s in before])
    assert before[0][0] in {"entry:0", "entry:1", "entry:mixed"}
    assert loaded.refs_waiting() == ["entry:waiting"]
    assert loaded.entry_parts("entry:mixed") == store.entry_parts("entry:mixed")


def test_a_loaded_store_that_answered_takes_new_lines_and_entries(
    embedder: Embedder, tmp_path: Path
) -> None:
    """A reader composes a loaded file straight from its arrays; a writer on the same
    store then adds lines and entries, and the waiting entry answers once its line is in."""
    store = one_line_store(embedder)
    late = "Kate also climbs on the indoor wall on Fridays."
    store.set_entry("entry:late", ((text_key(late), 1.0),))
    store.save(tmp_path / "v.bin")
    loaded = VectorStore.load(tmp_path / "v.bin", model=embedder.name, dim=embedder.dim)
    query = embedder.embed(["climbing wall"])[0]
    assert "entry:late" not in [ref for ref, _s in loaded.search(query, 20)]

    loaded.add_lines([text_key(late)], embedder.embed([late]))
    assert loaded.search(query, 1)[0][0] == "entry:late"
    news = "Bo climbs too."
    loaded.add_lines([text_key(news)], embedder.embed([news]))
    loaded.set_entry("entry:new", ((text_key(news), 1.0), (text_key(late), 0.5)))
    found = [ref for ref, _s in loaded.search(query, 20)]
    assert found[:2] in (["entry:late", "entry:new"], ["entry:new", "entry:late"])
    assert len(found) == len(SENTENCES) + 2
    assert loaded.refs_waiting() == []


def test_a_missing_file_is_an_empty_store(tmp_path: Path) -> None:
    store = VectorStore.load(tmp_path / "none.bin", model="m", dim=DIM)
    assert (len(store), store.entry_count(), store.search(np.ones(DIM, np.float32), 5)) == (
        0, 0, [],
    )  # fmt: skip


@pytest.mark.slow
def test_int8_ranks_as_float32_does(embedder: Embedder) -> None:
    texts = [f"{a} {b}" for a in SENTENCES for b in SENTENCES]
    vectors = embedder.embed(texts)
    store = VectorStore(embedder.name, embedder.dim)
    store.add_lines([text_key(t) for t in texts], vectors)
    for n, text in enumerate(texts):
        store.set_entry(f"e{n}", ((text_key(text), 1.0),))
    for query in embedder.embed(["who likes food?", "winter sports", "a pet", "taxes"]):
        truth = vectors @ query
        tenth = np.sort(truth)[-10]
        found = store.search(query, 10)
        assert len(found) == 10
        # Each found entry is among float32's best ten, but for ties closer than int8 sees.
        assert all(truth[int(ref[1:])] >= tenth - 0.005 for ref, _s in found)
        assert np.allclose(
            [s for _r, s in found], [truth[int(r[1:])] for r, _s in found], atol=0.005
        )


def test_the_mask_hides_what_the_reader_may_not_see(embedder: Embedder) -> None:
    store = one_line_store(embedder)
    query = embedder.embed(["Kate skiing holiday"])[0]
    assert store.search(query, 1)[0][0] == "entry:0"
    visible = [ref for ref in store.rows() if ref != "entry:0"]
    hits = store.search(query, 8, store.mask_for(visible))
    assert "entry:0" not in [ref for ref, _s in hits]
    assert len(hits) == len(SENTENCES) - 1
    assert store.search(query, 8, store.mask_for([])) == []


def test_forgotten_entries_leave_the_search_and_the_file(
    embedder: Embedder, tmp_path: Path
) -> None:
    store = one_line_store(embedder)
    assert store.forget(["entry:0", "entry:nowhere"]) == 1
    assert "entry:0" not in [ref for ref, _s in store.search(embedder.embed(["ski"])[0], 8)]
    assert store.drop_entries_except(["entry:2", "entry:3"]) == len(SENTENCES) - 3
    query = embedder.embed(["Kate skiing"])[0]
    assert {ref for ref, _s in store.search(query, 8)} == {"entry:2", "entry:3"}
    store.save(tmp_path / "v.bin")
    loaded = VectorStore.load(tmp_path / "v.bin", model=embedder.name, dim=embedder.dim)
    assert len(loaded) == 2  # the lines no entry uses are not kept


def test_the_file_lives_in_local_state_that_git_never_tracks(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    store = VectorStore("m", 4)
    store.add_lines([text_key("a")], np.array([[1, 0, 0, 0]], np.float32))
    store.set_entry("folder:MEMORY.md#a", ((text_key("a"), 1.0),))
    path = vectors_path(root / ".git" / "memrepo")
    store.save(path)
    assert path.is_file()
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored"], cwd=root, capture_output=True, text=True
    )
    assert status.stdout == ""


@pytest.mark.slow
def test_100000_entries_fit_in_50_mb(tmp_path: Path) -> None:
    """Issue #29's budget, from 10,000 dialogue-like entries: each its own line, four
    neighbours, a heading and a label, refs as long as real ones."""
    rng = np.random.default_rng(7)
    n = 10_000
    keys = [f"{i:016x}" for i in range(n)]
    store = VectorStore("m", DIM)
    store.add_lines(keys, unit(rng, n))
    for i in range(n):
        parts = [(keys[i], 1.0)] + [(keys[(i + d) % n], 0.3) for d in (-2, -1, 1, 2, 50, 51)]
        store.set_entry(f"folder:conversations/session-{i // 40:04d}.md#{i:010x}", tuple(parts))
    store.save(tmp_path / "v.bin")
    assert (tmp_path / "v.bin").stat().st_size * (100_000 / n) <= 50_000_000


def damaged_file(tmp_path: Path, change: Callable[[bytes], bytes]) -> Path:
    store = VectorStore("m", 4)
    store.add_lines([text_key("a"), text_key("b")], np.eye(4, dtype=np.float32)[:2])
    store.set_entry("e", ((text_key("a"), 1.0), (text_key("b"), 0.5)))
    path = tmp_path / "v.bin"
    store.save(path)
    path.write_bytes(change(path.read_bytes()))
    return path


def with_header(data: bytes, **changes: object) -> bytes:
    end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC) : end])
    header.update(changes)
    return MAGIC + json.dumps(header).encode() + data[end:]


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[:-3],
    "cut in the header": lambda data: data[: len(MAGIC) + 10],
    "longer": lambda data: data + b"\0",
    "empty": lambda data: b"",
    "not ours": lambda data: b"PK\x03\x04" + data,
    "another schema": lambda data: with_header(data, schema=2, layout="new"),
    "header not json": lambda data: MAGIC + b"{schema: 1\n" + data,
    "header lies about sizes": lambda data: with_header(data, lines=3),
    "a flipped byte": lambda data: _flip_in_keys(data),
}


def _flip_in_keys(data: bytes) -> bytes:
    start = data.index(b"\n", len(MAGIC)) + 1
    return data[:start] + bytes([data[start] ^ 0xFF]) + data[start + 1 :]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_file_is_one_line_that_says_to_rebuild(tmp_path: Path, damage: str) -> None:
    path = damaged_file(tmp_path, DAMAGE[damage])
    with pytest.raises(VectorsDamaged) as caught:
        VectorStore.load(path, model="m", dim=4)
    message = str(caught.value)
    assert "memrepo reindex" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("model", "dim", "said"),
    [("another-model#123", 4, "another-model#123"), ("m", 768, "768")],
)
def test_vectors_of_another_model_or_width_are_not_compared(
    tmp_path: Path, model: str, dim: int, said: str
) -> None:
    path = damaged_file(tmp_path, lambda data: data)
    with pytest.raises(VectorsDamaged, match="memrepo reindex") as caught:
        VectorStore.load(path, model=model, dim=dim)
    assert said in str(caught.value)


def test_rows_grow_and_compact_without_mixing_up_entries() -> None:
    """Thousands of entries added one by one, most forgotten: every search still names
    the entry whose vector it scored (rows grow with spare room and are compacted)."""
    rng = np.random.default_rng(3)
    n = 3000
    vectors = unit(rng, n, 16)
    keys = [f"{i:016x}" for i in range(n)]
    store = VectorStore("m", 16)
    for i in range(n):
        store.add_lines([keys[i]], vectors[i : i + 1])
        store.set_entry(f"e{i}", ((keys[i], 1.0),))
        if i % 500 == 0:
            assert store.search(vectors[i], 1)[0][0] == f"e{i}"
    kept = [f"e{i}" for i in range(0, n, 7)]
    store.drop_entries_except(kept)
    assert sorted(ref for ref in store.rows() if ref) == sorted(kept)
    assert len(store.rows()) < n  # compacted
    for i in range(0, n, 7 * 40):
        ref, score = store.search(vectors[i], 1)[0]
        assert (ref, round(score, 2)) == (f"e{i}", 1.0)
    assert store.search(vectors[1], 1)[0][0] != "e1"


def test_a_vector_file_that_cannot_be_read_is_one_line_that_says_to_rebuild(
    tmp_path: Path,
) -> None:
    (tmp_path / "v.bin").mkdir()  # a folder where the file belongs
    with pytest.raises(VectorsDamaged, match="memrepo reindex") as caught:
        VectorStore.load(tmp_path / "v.bin", model="m", dim=4)
    assert "unreadable" in str(caught.value)
