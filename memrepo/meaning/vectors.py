"""The meaning lane's vector file: line vectors and entry recipes (issue #29, §6).

The stable face:

- `vectors_path(state_dir)`: `.git/memrepo/meaning/vectors.bin`, beside the index: local
  state, never tracked, synced or exported (docs/architecture.md §1).
- `VectorStore.load(path, model=, dim=)` (a missing file is an empty store) and
  `store.save(path)` (temp file, then an atomic rename: a reader sees the old file or the
  new one). A file that cannot be this model's vectors (truncated, another schema,
  another model, another width, damaged) raises `VectorsDamaged`, whose one line says to
  rebuild with `memrepo reindex`; it is never read as "nothing embedded".
- Lines: `text_key(text)` (a content hash), `missing_lines(keys)`, `add_lines(keys,
  vectors)`. Each distinct line is embedded once, whatever entries it takes part in, and
  a re-parse re-embeds only lines whose text changed.
- Entries: `set_entry(ref, parts)` with parts `(text key, weight)` (`embed.py` makes
  them: the entry's own line, its neighbours', its label), `drop_entries_except(refs)`,
  `refs_waiting()`. An entry's vector is the weighted sum of its parts, renormalised,
  composed in memory (`matrix.py`): not stored, so the file holds each line once.
- Search: `search(query, k, mask=None) -> [(ref, cosine)]`, brute force over the composed
  entries; `rows()` and `mask_for(refs)` let a caller say which entries the reader may
  see (the lane applies visibility through the mask).

Why int8 with a scale per row: the issue measured no loss against float32 (binary
vectors hurt), and 384 bytes a line keeps 100,000 entries near 45 MB on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memrepo.errors import VectorsDamaged
from memrepo.meaning.matrix import EntryMatrix

SCHEMA = 1
MAGIC = b"memrepo meaning vectors\n"
#: One entry's recipe: the text keys of its parts and their weights.
Parts = tuple[tuple[str, float], ...]


def vectors_path(state_dir: Path) -> Path:
    """Where a memory repo's vectors live, under its local state folder."""
    return state_dir / "meaning" / "vectors.bin"


def text_key(text: str) -> str:
    """The content hash a line's vector is kept under (16 hex digits: 64 bits, so two
    of a million lines collide about once in 10^7 repos)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def quantised(
    vectors: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """Rows as int8 and the scale that gives them back (row = int8 x scale)."""
    peak = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, np.float32)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    rows = np.rint(vectors / scales[:, None]).clip(-127, 127).astype(np.int8)
    return rows, scales


class VectorStore:
    """The lines embedded so far and the entries built from them, for one model. Like
    the other handles of a memory root, one thread at a time: a search may compose."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self._keys: list[str] = []
        self._row_of: dict[str, int] = {}
        self._rows = np.zeros((0, dim), np.int8)
        self._scales = np.zeros(0, np.float32)
        self._recipes: dict[str, Parts] = {}
        self._loaded: _Loaded | None = None
        self._matrix = EntryMatrix(dim)

    def __len__(self) -> int:
        """How many lines are embedded."""
        return len(self._keys)

    # -- lines -------------------------------------------------------------------------

    def missing_lines(self, keys: Iterable[str]) -> list[str]:
        """The keys among `keys` with no vector yet, each once, in first-seen order."""
        return list(dict.fromkeys(key for key in keys if key not in self._row_of))

    def add_lines(self, keys: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        """Keep the vectors of new lines (unit rows, as `Embedder.embed` gives them)."""
        if vectors.shape != (len(keys), self.dim):
            raise ValueError(f"{len(keys)} keys but vectors of shape {vectors.shape}")
        fresh = [i for i, key in enumerate(keys) if key not in self._row_of]
        if not fresh:
            return
        self._materialise()  # a loaded file's waiting entries must hear of new lines
        rows, scales = quantised(vectors[fresh])
        start = len(self._keys)
        for offset, i in enumerate(fresh):
            self._row_of[keys[i]] = start + offset
            self._keys.append(keys[i])
        self._rows = np.concatenate([self._rows, rows])
        self._scales = np.concatenate([self._scales, scales])

    def line_vectors(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        """Lines by row number, back as float32 (int8 x scale)."""
        return self._rows[rows].astype(np.float32) * self._scales[rows, None]

    # -- entries -----------------------------------------------------------------------

    def set_entry(self, ref: str, parts: Parts) -> bool:
        """Record what `ref`'s vector is made of; True when that changed. Weights are
        kept at the precision the file stores (float16), so a reloaded recipe is equal."""
        if "\n" in ref or not ref or not parts:
            raise ValueError("an entry needs a ref without a newline and at least one part")
        parts = tuple((key, float(np.float16(weight))) for key, weight in parts)
        if self._entries.get(ref) == parts:
            return False
        self._entries[ref] = parts
        self._matrix.invalidate(ref)
        return True

    def drop_entries_except(self, refs: Iterable[str]) -> int:
        """Forget the entries not in `refs` (deleted or moved away); how many went."""
        keep = set(refs)
        gone = [ref for ref in self._entries if ref not in keep]
        for ref in gone:
            del self._entries[ref]
            self._matrix.remove(ref)
        return len(gone)

    def entry_parts(self, ref: str) -> Parts | None:
        """The recipe recorded for `ref`, if any."""
        return self._entries.get(ref)

    def refs_waiting(self) -> list[str]:
        """Entries some of whose lines have no vector yet (an interrupted first embed)."""
        return [ref for ref, parts in self._entries.items() if not self._ready(parts)]

    def entry_count(self) -> int:
        """How many entries have a recipe (ready or waiting)."""
        return len(self._entries)

    def _ready(self, parts: Parts) -> bool:
        return all(key in self._row_of for key, _weight in parts)

    # -- search ------------------------------------------------------------------------

    def rows(self) -> list[str]:
        """The ref of each row of the composed matrix ("" for a free row): the order a
        `search` mask follows. Rows only grow at the end; a forgotten entry's row is
        blanked and never answers again; a compaction (once a quarter of the rows are
        free) returns a new list. So a caller may key a row map by the list's identity
        and length."""
        self._compose()
        return self._matrix.refs

    def mask_for(self, refs: Iterable[str]) -> npt.NDArray[np.bool_]:
        """A search mask that lets through `refs` only."""
        self._compose()
        return self._matrix.mask_for(refs)

    def search(
        self, query: npt.NDArray[np.float32], k: int, mask: npt.NDArray[np.bool_] | None = None
    ) -> list[tuple[str, float]]:
        """The `k` entries nearest `query` (a unit vector), best first, with their
        cosine; with `mask` (one bool per row of `rows()`), only rows it lets through."""
        self._compose()
        return self._matrix.search(query, k, mask)

    def _compose(self) -> None:
        if self._loaded is not None and not self._matrix.refs:
            self._compose_loaded(self._loaded)
            return
        pending = self._matrix.pending()
        if not pending:
            return
        entries = self._entries
        ready = [ref for ref in pending if ref in entries and self._ready(entries[ref])]
        if not ready:
            return
        width = max(len(entries[ref]) for ref in ready)
        rows = np.zeros((len(ready), width), np.intp)
        weights = np.zeros((len(ready), width), np.float32)
        for i, ref in enumerate(ready):
            for j, (key, weight) in enumerate(entries[ref]):
                rows[i, j] = self._row_of[key]
                weights[i, j] = weight
        self._matrix.compose(ready, rows, weights, self)

    def _compose_loaded(self, loaded: _Loaded) -> None:
        """A fresh load composed straight from the file's arrays, without a Python
        object per part: what a reader pays once, at 100,000 entries too."""
        counts = np.diff(loaded.offsets)
        if not len(counts):
            return
        starts = loaded.offsets[:-1]
        ready = np.maximum.reduceat(loaded.numbers, starts) < len(self._keys)
        entry_of = np.repeat(np.arange(len(counts)), counts)
        position = np.arange(len(loaded.numbers)) - np.repeat(starts, counts)
        rows = np.zeros((len(counts), int(counts.max())), np.intp)
        weights = np.zeros(rows.shape, np.float32)
        rows[entry_of, position] = loaded.numbers
        weights[entry_of, position] = loaded.weights
        chosen = np.flatnonzero(ready)
        refs = [loaded.refs[i] for i in chosen.tolist()]
        self._matrix.compose(refs, rows[chosen], weights[chosen], self)

    @property
    def _entries(self) -> dict[str, Parts]:
        """Every recipe by ref. A loaded file's are made into objects on first need
        (a writer's), not on load: a reader only searches."""
        self._materialise()
        return self._recipes

    def _materialise(self) -> None:
        loaded = self._loaded
        if loaded is not None:
            self._loaded = None
            composed = set(self._matrix.refs)
            numbers = loaded.numbers.tolist()
            weights = loaded.weights.astype(np.float64).tolist()
            offsets = loaded.offsets.tolist()
            for i, ref in enumerate(loaded.refs):
                span = range(offsets[i], offsets[i + 1])
                self._recipes[ref] = tuple((loaded.keys[numbers[j]], weights[j]) for j in span)
                if ref not in composed:
                    self._matrix.invalidate(ref)

    # -- the file ----------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the store, keeping only lines some entry uses; atomic replace. An
        entry still waiting for a line's vector keeps its recipe: the key table lists
        the embedded lines first (one int8 row each), then the keys still waiting."""
        self._prune()
        refs = list(self._entries)
        keys = self._keys + self.missing_lines(
            key for parts in self._entries.values() for key, _w in parts
        )
        number = {key: i for i, key in enumerate(keys)}
        offsets = np.zeros(len(refs) + 1, np.int64)
        parts = [part for ref in refs for part in self._entries[ref]]
        offsets[1:] = np.cumsum([len(self._entries[ref]) for ref in refs])
        blobs = [
            b"".join(bytes.fromhex(key) for key in keys),
            self._scales.astype("<f4").tobytes(),
            # Refs repeat their paths: compressed, 100,000 of them take ~1 MB, not ~4.
            zlib.compress("\n".join(refs).encode("utf-8", "surrogatepass"), 1),
            offsets.astype("<i4").tobytes(),
            np.asarray([number[key] for key, _w in parts], "<i4").tobytes(),
            np.asarray([weight for _k, weight in parts], "<f2").tobytes(),
        ]
        header = {
            "schema": SCHEMA, "model": self.model, "dim": self.dim, "lines": len(self._keys),
            "keys": len(keys), "entries": len(refs), "parts": len(parts),
            "sizes": [len(blob) for blob in blobs], "crc": _crc(blobs),
        }  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
        with tmp.open("wb") as out:
            out.write(MAGIC + json.dumps(header).encode("utf-8") + b"\n")
            for blob in blobs:
                out.write(blob)
            out.write(self._rows.tobytes())
        os.replace(tmp, path)

    def _prune(self) -> None:
        """Drop lines no entry uses any more (edited or forgotten text)."""
        used = {key for parts in self._entries.values() for key, _w in parts}
        keep = [row for row, key in enumerate(self._keys) if key in used]
        if len(keep) == len(self._keys):
            return
        self._keys = [self._keys[row] for row in keep]
        self._row_of = {key: row for row, key in enumerate(self._keys)}
        self._rows = self._rows[keep]
        self._scales = self._scales[keep]
        self._matrix = EntryMatrix(self.dim)
        for ref in self._entries:
            self._matrix.invalidate(ref)

    @classmethod
    def load(cls, path: Path, *, model: str, dim: int) -> VectorStore:
        """The store at `path` for this model; empty when there is no file yet."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls(model, dim)
        except OSError as exc:
            raise VectorsDamaged(str(path), f"unreadable: {exc.strerror or exc}") from exc
        header, blobs, rows = _decode(data, str(path), model, dim)
        store = cls(model, dim)
        lines = header.lines
        keys = [blobs[0][i : i + 8].hex() for i in range(0, len(blobs[0]), 8)]
        store._keys = keys[:lines]
        store._row_of = {key: row for row, key in enumerate(store._keys)}
        store._rows = rows
        store._scales = np.frombuffer(blobs[1], "<f4").astype(np.float32)
        refs = blobs[2].decode("utf-8", "surrogatepass").split("\n") if blobs[2] else []
        store._loaded = _Loaded(
            refs=refs,
            keys=keys,
            offsets=np.frombuffer(blobs[3], "<i4").astype(np.intp),
            numbers=np.frombuffer(blobs[4], "<i4").astype(np.intp),
            weights=np.frombuffer(blobs[5], "<f2").astype(np.float32),
        )
        return store


def _crc(blobs: Sequence[bytes]) -> int:
    crc = 0
    for blob in blobs:
        crc = zlib.crc32(blob, crc)
    return crc


_BLOBS = 6


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A file's recipes as its arrays: refs, the key table, part spans, key numbers
    and weights."""

    refs: list[str]
    keys: list[str]
    offsets: npt.NDArray[np.intp]
    numbers: npt.NDArray[np.intp]
    weights: npt.NDArray[np.float32]


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
