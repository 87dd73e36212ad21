"""The meaning lane's vector file, byte for byte (issue #29, docs/architecture.md §6).

Layout: `MAGIC`, a JSON header line (schema, model, dim, counts, the size of each of six
blobs and their CRC-32), the blobs, then the int8 rows:

1. the key table: 8 bytes per key (a line's content hash), embedded lines first;
2. one float32 scale per embedded line;
3. the entries' refs, newline-joined, zlib-compressed (they repeat their paths);
4. int32 offsets, one more than there are entries, into the parts;
5. each part's key number (int32) and 6. its weight (float16);
then one int8 row of `dim` bytes per embedded line.

`read` checks every size and cross-reference before numpy sees a byte, so damage is one
`VectorsDamaged` line that says to rebuild, never a numpy error; `write` replaces the file
atomically. `memrepo.meaning.vectors.VectorStore` is the only user.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memrepo.diskio import write_atomic
from memrepo.errors import VectorsDamaged

SCHEMA = 1
MAGIC = b"memrepo meaning vectors\n"


def write(path: Path, model: str, dim: int, contents: Contents) -> None:
    """Write `contents` to `path`: a temp file beside it, then an atomic rename."""
    blobs = [
        b"".join(bytes.fromhex(key) for key in contents.keys),
        contents.scales.astype("<f4").tobytes(),
        zlib.compress("\n".join(contents.refs).encode("utf-8", "surrogatepass"), 1),
        contents.offsets.astype("<i4").tobytes(),
        contents.numbers.astype("<i4").tobytes(),
        contents.weights.astype("<f2").tobytes(),
    ]
    header = {
        "schema": SCHEMA, "model": model, "dim": dim, "lines": contents.lines,
        "keys": len(contents.keys), "entries": len(contents.refs),
        "parts": len(contents.numbers), "sizes": [len(blob) for blob in blobs],
        "crc": _crc(blobs), "generation": contents.generation,
    }  # fmt: skip
    head = MAGIC + json.dumps(header).encode("utf-8") + b"\n"
    rows = np.ascontiguousarray(contents.rows, np.int8).tobytes()
    write_atomic(path, [head, *blobs, rows])


def read(path: Path, model: str, dim: int) -> Contents | None:
    """The file at `path` for this model and width; None when there is none yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VectorsDamaged(str(path), f"unreadable: {exc.strerror or exc}") from exc
    head, blobs, rows = _decode(data, str(path), model, dim)
    refs = blobs[2].decode("utf-8", "surrogatepass").split("\n") if blobs[2] else []
    return Contents(
        keys=[blobs[0][i : i + 8].hex() for i in range(0, len(blobs[0]), 8)],
        lines=head.lines,
        scales=np.frombuffer(blobs[1], "<f4").astype(np.float32),
        rows=rows,
        refs=refs,
        offsets=np.frombuffer(blobs[3], "<i4").astype(np.intp),
        numbers=np.frombuffer(blobs[4], "<i4").astype(np.intp),
        weights=np.frombuffer(blobs[5], "<f2").astype(np.float32),
        generation=head.generation,
    )


def _crc(blobs: Sequence[bytes]) -> int:
    crc = 0
    for blob in blobs:
        crc = zlib.crc32(blob, crc)
    return crc


_BLOBS = 6


@dataclass(frozen=True, slots=True)
class Contents:
    """What a vector file holds. `keys` lists the embedded lines first (`lines` of
    them, one int8 row and scale each), then the keys entries still wait for; entry `i`
    of `refs` is made of parts `offsets[i]` to `offsets[i + 1]`, each a key number and a
    weight."""

    keys: list[str]
    lines: int
    scales: npt.NDArray[np.float32]
    rows: npt.NDArray[np.int8]
    refs: list[str]
    offsets: npt.NDArray[np.intp]
    numbers: npt.NDArray[np.intp]
    weights: npt.NDArray[np.float32]
    generation: str = ""
    """A random id per write: the journal of changes since names it (`journal.py`)."""


@dataclass(frozen=True, slots=True)
class _Header:
    schema: int
    model: str
    dim: int
    lines: int
    keys: int
    entries: int
    parts: int
    sizes: tuple[int, ...]
    crc: int
    generation: str = ""


def _decode(
    data: bytes, where: str, model: str, dim: int
) -> tuple[_Header, list[bytes], npt.NDArray[np.int8]]:
    """The header, the six blobs and the int8 rows of a vector file, every size and
    cross-reference checked first: damage is one `VectorsDamaged`, never a numpy error."""
    if not data.startswith(MAGIC):
        raise VectorsDamaged(where, "not a meaning vector file")
    end = data.find(b"\n", len(MAGIC))
    head = _header(data[len(MAGIC) : end] if end > 0 else b"", where)
    if head.schema != SCHEMA:
        raise VectorsDamaged(where, f"schema {head.schema}; this memrepo reads {SCHEMA}")
    if head.model != model:
        raise VectorsDamaged(where, f"made by model {head.model!r}, the lane uses {model!r}")
    if head.dim != dim:
        raise VectorsDamaged(where, f"{head.dim}-wide vectors; the model gives {dim}")
    sizes = head.sizes
    expected = (head.keys * 8, head.lines * 4, sizes[2], (head.entries + 1) * 4,
                head.parts * 4, head.parts * 2)  # fmt: skip
    if sizes != expected or head.lines > head.keys:
        raise VectorsDamaged(where, "its header does not add up")
    body = memoryview(data)[end + 1 :]
    need = sum(sizes) + head.lines * dim
    if len(body) != need:
        raise VectorsDamaged(where, f"truncated: {len(body)} bytes where {need} belong")
    cuts = np.cumsum([0, *sizes]).tolist()
    blobs = [bytes(body[cuts[i] : cuts[i + 1]]) for i in range(_BLOBS)]
    if _crc(blobs) != head.crc:
        raise VectorsDamaged(where, "its checksum does not match")
    try:
        blobs[2] = zlib.decompress(blobs[2])
    except zlib.error as exc:
        raise VectorsDamaged(where, "its entries are unreadable") from exc
    _check_recipes(blobs, where, head)
    rows = np.frombuffer(body[cuts[-1] :], np.int8).reshape(head.lines, dim)
    return head, blobs, rows


def _header(raw: bytes, where: str) -> _Header:
    try:
        found = json.loads(raw)
        if isinstance(found, dict) and found.get("schema") != SCHEMA:
            schema = found.get("schema")
            raise VectorsDamaged(where, f"schema {schema}; this memrepo reads {SCHEMA}")
        sizes = tuple(found.pop("sizes"))
        head = _Header(**found, sizes=sizes)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise VectorsDamaged(where, "its header is unreadable") from exc
    numbers = (head.schema, head.dim, head.lines, head.keys, head.entries, head.parts,
               head.crc, *head.sizes)  # fmt: skip
    if not (
        all(type(n) is int and n >= 0 for n in numbers)
        and isinstance(head.model, str)
        and isinstance(head.generation, str)
        and all(char in "0123456789abcdef" for char in head.generation)
        and len(head.sizes) == _BLOBS
    ):
        raise VectorsDamaged(where, "its header is unreadable")
    return head


def _check_recipes(blobs: list[bytes], where: str, head: _Header) -> None:
    offsets = np.frombuffer(blobs[3], "<i4")
    numbers = np.frombuffer(blobs[4], "<i4")
    refs = blobs[2].split(b"\n") if blobs[2] else []
    sound = (
        len(refs) == head.entries
        and offsets[0] == 0
        and offsets[-1] == head.parts
        and bool(np.all(np.diff(offsets) > 0))
        and (head.parts == 0 or (int(numbers.min()) >= 0 and int(numbers.max()) < head.keys))
    )
    if not sound:
        raise VectorsDamaged(where, "its entries do not match its lines")
