"""Index files are read by piece with pread (`memrepo.index._storage`): what Whoosh reads
through them behaves like a file, opening an index reads little of its segment, and a
file changed in place under an open store is noticed (an error the store rebuilds on),
never read as a mix of two versions, never a crash."""

from __future__ import annotations

import io
import os
import pickle
import random
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo.index import IndexDoc, IndexRebuiltWarning, IndexStore, build_query
from memrepo.index._storage import (
    CHUNK_BITS,
    IndexFileChanged,
    IndexFiles,
    IndexFileStorage,
    SourceStructFile,
)

CHUNK = 1 << CHUNK_BITS
DATA = b"line one\nline two\n" + bytes(range(256)) * 1200 + b"\nend"  # spans 5 pieces


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "data.bin"
    path.write_bytes(DATA)
    return path


def test_a_source_file_reads_like_bytesio(data_file: Path) -> None:
    files = IndexFiles()
    source = files.source(str(data_file))
    ours, theirs = SourceStructFile(source, 0, source.size).file, io.BytesIO(DATA)
    steps = ["readline", "readline4", "read3", "readline", "readline", "read70000", "read"]
    for step in steps:
        if step.startswith("readline"):
            size = int(step[8:] or -1)
            assert ours.readline(size) == theirs.readline(size)
        else:
            size = int(step[4:] or -1)
            assert ours.read(size) == theirs.read(size)
        assert ours.tell() == theirs.tell()
    for offset, whence in ((-3, os.SEEK_END), (2, os.SEEK_SET), (CHUNK - 2, os.SEEK_CUR)):
        assert ours.seek(offset, whence) == theirs.seek(offset, whence)
        assert ours.read(7) == theirs.read(7)  # across a piece boundary on the last one
    target = bytearray(4)
    ours.seek(0)
    assert ours.readinto(target) == 4 and bytes(target) == b"line"
    files.close()


def test_struct_file_gets_arrays_parts_and_pickles(tmp_path: Path) -> None:
    blob = pickle.dumps({"terms": [1, 2, 3]}, protocol=0)
    path = tmp_path / "parts.bin"
    path.write_bytes(DATA + blob)
    files = IndexFiles()
    source = files.source(str(path))
    whole = SourceStructFile(source, 0, source.size)
    for position in (0, CHUNK - 3, 3 * CHUNK + 5):
        assert whole.get(position, 9) == DATA[position : position + 9]
    assert list(whole.get_array(CHUNK - 2, "H", 3)) == [
        int.from_bytes(DATA[CHUNK - 2 + 2 * n : CHUNK + 2 * n], "big") for n in range(3)
    ]
    part = whole.subset(len(DATA), len(blob), name="part")
    assert pickle.load(part.file) == {"terms": [1, 2, 3]}
    part.seek(len(blob) - 2)
    assert part.read(10) == blob[-2:] and part.tell() == len(blob) and part.read(1) == b""
    files.close()


def test_a_file_changed_in_place_is_noticed_and_never_mixed(data_file: Path) -> None:
    files = IndexFiles()
    source = files.source(str(data_file))
    view = SourceStructFile(source, 0, source.size)
    assert view.get(10, 4) == DATA[10:14]  # piece 0 is now kept
    with open(data_file, "r+b") as handle:  # same size, other bytes, same inode
        handle.seek(3 * CHUNK)
        handle.write(b"\xff" * 100)
    assert view.get(10, 4) == DATA[10:14]  # what was read stays the file as opened
    with pytest.raises(IndexFileChanged):
        view.get(3 * CHUNK, 4)  # never the new bytes beside the old ones
    files.close()


def test_a_file_truncated_or_replaced_under_an_open_view(data_file: Path) -> None:
    files = IndexFiles()
    source = files.source(str(data_file))
    view = SourceStructFile(source, 0, source.size)
    replacement = data_file.with_name("new.bin")
    replacement.write_bytes(b"other" * CHUNK)
    os.replace(replacement, data_file)  # a new file under the name: the old one is read
    assert view.get(4 * CHUNK, 6) == DATA[4 * CHUNK : 4 * CHUNK + 6]
    fresh = files.source(str(data_file))
    assert SourceStructFile(fresh, 0, fresh.size).get(0, 5) == b"other"
    with open(data_file, "r+b") as handle:
        handle.truncate(10)
    with pytest.raises((IndexFileChanged, EOFError)):
        SourceStructFile(fresh, 0, fresh.size).get(2 * CHUNK, 5)  # a piece not read yet
    files.close()


def _words(rng: random.Random, count: int) -> str:
    return " ".join(f"w{rng.randrange(5000)}" for _ in range(count))


def _docs(count: int) -> list[IndexDoc]:
    """Short texts (cheap to analyse) with a large stored-only field each, so the segment
    is many pieces long, as a real one at 100,000 entries is (92 MB)."""
    rng = random.Random(7)
    return [
        IndexDoc(ref=f"folder:f.md#{n}", lane="folder", repo="main", path="f.md", line=n,
                 text=f"entry{n} " + _words(rng, 12), source=rng.randbytes(8192).hex())
        for n in range(count)
    ]  # fmt: skip


def _loader(docs: list[IndexDoc]) -> Callable[[IndexStore], None]:
    def fill(store: IndexStore) -> None:
        store.bulk_load(docs)

    return fill


def _read_bytes() -> int:
    """Bytes this process has read through read/pread so far (Linux)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux /proc/self/io")
@pytest.mark.slow
def test_opening_an_index_reads_little_of_its_segment(tmp_path: Path) -> None:
    path = tmp_path / "index"
    docs = _docs(500)
    IndexStore.open(path, rebuild=_loader(docs)).close()
    (segment,) = path.glob("*.seg")
    size = segment.stat().st_size
    assert size > 64 * CHUNK
    before = _read_bytes()
    with IndexStore.open(path, rebuild=_loader(docs)) as store:
        opened = _read_bytes() - before
        (hit,) = store.search(build_query("entry321").words, limit=1)
        searched = _read_bytes() - before
    assert hit.ref == "folder:f.md#321"
    assert opened < size // 4, (opened, size)  # the old storage copied the whole segment
    assert searched < size // 2, (searched, size)


@pytest.mark.slow
def test_a_segment_overwritten_under_an_open_store_is_rebuilt_never_mixed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "index"
    docs = _docs(200)

    with IndexStore.open(path, rebuild=_loader(docs)) as store:
        assert store.search(build_query("entry5").words, limit=1)[0].ref == "folder:f.md#5"
        (segment,) = path.glob("*.seg")
        size = segment.stat().st_size
        with open(segment, "r+b") as handle:  # in place: same inode, same size
            handle.write(bytes(size))
        with warnings.catch_warnings(record=True) as heard:
            warnings.simplefilter("always")
            for n in (5, 67, 133, 199):  # spread over the segment: unread pieces too
                (hit,) = store.search(build_query(f"entry{n}").words, limit=1)
                assert hit.ref == f"folder:f.md#{n}"
        assert all(issubclass(w.category, (IndexRebuiltWarning, ResourceWarning)) for w in heard)
        assert any(issubclass(w.category, IndexRebuiltWarning) for w in heard)


@pytest.mark.slow
def test_a_whoosh_storage_over_index_files_lists_and_opens(tmp_path: Path) -> None:
    path = tmp_path / "index"
    with IndexStore.open(path, rebuild=_loader(_docs(5))) as store:
        assert store.doc_count() == 5
    files = IndexFiles()
    storage = IndexFileStorage(str(path), files)
    assert storage.index_exists() and not storage.supports_mmap
    ix = storage.open_index()
    with ix.searcher() as searcher:
        assert searcher.doc_count() == 5
    ix.close()
    files.close()
