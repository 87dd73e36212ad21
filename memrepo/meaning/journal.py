"""What changed in the vectors since the vector file was last written (issue #29, §6).

Rewriting the whole vector file after each `remember` cost 0.37 CPU-s at 100,000 entries
(`benchmarks/bench_meaning.py`), more than the write itself. So a write appends its
change here instead (`vectors.log` beside `vectors.bin`): the lines it embedded, the
recipes it set and the entries it forgot, one record each. Every process with the lane
on reads the records it has not seen (a server sees the CLI's `remember` and the other
way round), and the file is rewritten whole only when the journal has grown large or a
complete pass ran; the journal then starts again, empty.

Layout: `MAGIC`, the generation of the vector file it extends (a random id in that
file's header) and a newline; then records, each a little-endian length and CRC-32 of
its payload, then the payload: a JSON line (`keys`, `recipes`, `forget`) and the new
lines' float32 scales and int8 rows. A journal of another generation belongs to a file
since replaced: whoever reads it reloads the file instead. A record cut short by a crash
or failing its checksum ends the journal there (`read_from` stops before it), and the
next append writes over it.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memrepo.diskio import write_atomic

MAGIC = b"memrepo meaning journal\n"
_FRAME = struct.Struct("<II")
#: One entry's recipe: the text keys of its parts and their weights.
Parts = tuple[tuple[str, float], ...]


@dataclass(slots=True)
class Delta:
    """One write's change to the vectors."""

    keys: list[str] = field(default_factory=list)
    scales: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, np.float32))
    rows: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros((0, 0), np.int8))
    recipes: dict[str, Parts] = field(default_factory=dict)
    forget: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.keys or self.recipes or self.forget)


def journal_path(vectors: Path) -> Path:
    return vectors.with_suffix(".log")


def start(path: Path, generation: str) -> None:
    """An empty journal for the vector file of `generation` (atomic replace)."""
    write_atomic(path, MAGIC + generation.encode("ascii") + b"\n")


def append(path: Path, at: int, delta: Delta) -> int:
    """Write `delta` at offset `at` (the end of the last good record, so a torn record
    left by a crash is written over) and return the new end. The caller holds the
    vectors' lock and has read the journal up to `at`."""
    recipes = [[ref, [list(part) for part in parts]] for ref, parts in delta.recipes.items()]
    head = {"keys": delta.keys, "recipes": recipes, "forget": delta.forget}
    payload = b"".join((
        json.dumps(head, ensure_ascii=False).encode("utf-8", "surrogatepass"),
        b"\n",
        delta.scales.astype("<f4").tobytes(),
        np.ascontiguousarray(delta.rows, np.int8).tobytes(),
    ))  # fmt: skip
    record = _FRAME.pack(len(payload), zlib.crc32(payload)) + payload
    with path.open("r+b") as out:
        out.seek(at)
        out.write(record)
        out.truncate()
    return at + len(record)


def read_from(path: Path, generation: str, at: int, dim: int) -> tuple[list[Delta], int] | None:
    """The records after offset `at` (0: from the start) and the offset after the last
    good one; None when there is no journal of this generation (reload the file)."""
    header = MAGIC + generation.encode("ascii") + b"\n"
    try:
        with path.open("rb") as journal:
            if journal.read(len(header)) != header:
                return None
            at = max(at, len(header))
            journal.seek(at)
            data = journal.read()  # only what this reader has not seen
    except FileNotFoundError:
        return None
    deltas: list[Delta] = []
    done = 0
    while done + _FRAME.size <= len(data):
        size, crc = _FRAME.unpack_from(data, done)
        payload = data[done + _FRAME.size : done + _FRAME.size + size]
        if len(payload) != size or zlib.crc32(payload) != crc:
            break  # torn by a crash: the journal ends before it
        delta = _decoded(payload, dim)
        if delta is None:
            break
        deltas.append(delta)
        done += _FRAME.size + size
    return deltas, at + done


def _decoded(payload: bytes, dim: int) -> Delta | None:
    """A record's change, or None when it does not hold together (then it, and what
    follows, is not read: the next complete pass rewrites the vectors)."""
    end = payload.find(b"\n")
    try:
        head = json.loads(payload[:end])
        keys = [str(key) for key in head["keys"]]
        recipes = {
            str(ref): tuple((str(key), float(weight)) for key, weight in parts)
            for ref, parts in head["recipes"]
        }
        forget = [str(ref) for ref in head["forget"]]
    except (ValueError, TypeError, KeyError) as exc:
        del exc
        return None
    body = payload[end + 1 :]
    if end < 0 or len(body) != len(keys) * (4 + dim):
        return None
    scales = np.frombuffer(body[: 4 * len(keys)], "<f4").astype(np.float32)
    rows = np.frombuffer(body[4 * len(keys) :], np.int8).reshape(len(keys), dim)
    return Delta(keys, scales, rows, recipes, forget)
