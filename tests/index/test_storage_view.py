"""Opening an index copies nothing but its files: a compound segment's parts are read in
place (`ViewBufferFile`), with the file semantics Whoosh relies on."""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path

from whoosh.filedb.compound import CompoundStorage
from whoosh.filedb.structfile import StructFile

from memrepo import MemoryRepo
from memrepo.index._storage import ViewBufferFile, ViewFile

DATA = b"line one\nline two\n" + b"x" * 10_000 + b"\nend"


def test_view_file_reads_like_bytesio() -> None:
    ours, theirs = ViewFile(memoryview(DATA)), io.BytesIO(DATA)
    for step in ("readline", "readline4", "read3", "readline", "readline", "readline", "read"):
        if step.startswith("readline"):
            size = int(step[8:] or -1)
            assert ours.readline(size) == theirs.readline(size)
        else:
            size = int(step[4:] or -1)
            assert ours.read(size) == theirs.read(size)
        assert ours.tell() == theirs.tell()
    for offset, whence in ((-3, os.SEEK_END), (2, os.SEEK_SET), (5, os.SEEK_CUR)):
        assert ours.seek(offset, whence) == theirs.seek(offset, whence)
        assert ours.read(7) == theirs.read(7)
    target = bytearray(4)
    ours.seek(0)
    assert ours.readinto(target) == 4 and bytes(target) == b"line"
    blob = pickle.dumps({"terms": [1, 2, 3]}, protocol=0)
    assert pickle.load(ViewFile(memoryview(blob))) == {"terms": [1, 2, 3]}


def test_buffer_file_reads_past_the_end_like_a_file() -> None:
    part = ViewBufferFile(memoryview(DATA), name="part")
    part.seek(len(DATA) - 2)
    assert part.read(10) == b"nd" and part.tell() == len(DATA) and part.read(1) == b""
    assert part.get(0, 4) == b"line"


def test_an_opened_index_reads_its_segment_in_place(tmp_path: Path) -> None:
    with MemoryRepo.init(tmp_path / "mem") as repo:
        for n in range(30):
            repo.remember(f"Fact number {n} about the deploy pipeline", file="facts.md")
        assert repo.recall("deploy pipeline").hits
        (segment,) = (repo.folder.state_dir / "index").glob("*.seg")
        with open(segment, "rb") as handle:
            compound = CompoundStorage(StructFile(handle))  # as Whoosh opens a segment
            parts = [compound.open_file(name) for name in compound.list()]
            assert parts and all(isinstance(part, ViewBufferFile) for part in parts)
            assert not any(isinstance(part.file, io.BytesIO) for part in parts)
            compound.close()
    with MemoryRepo.open(tmp_path / "mem") as repo:  # and a fresh open searches as before
        assert (
            repo.recall("fact number 7").hits[0].text == "Fact number 7 about the deploy pipeline"
        )
