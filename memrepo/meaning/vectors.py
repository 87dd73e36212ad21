"""The meaning lane's vector file: line vectors and entry recipes (issue #29, §6).

The stable face:

- `vectors_path(state_dir)`: `.git/memrepo/meaning/vectors.bin`, beside the index: local
  state, never tracked, synced or exported (docs/architecture.md §1).
- `VectorStore.load(path, model=, dim=)` (a missing file is an empty store) and
  `store.save(path)` (temp file, then an atomic rename: a reader sees the old file or the
  new one; the layout is `vectorfile.py`'s). A file that cannot be this model's vectors
  (truncated, another schema, another model, another width, damaged) raises
  `VectorsDamaged`, whose one line says to rebuild with `memrepo reindex`; it is never
  read as "nothing embedded".
- Lines: `text_key(text)` (a content hash), `missing_lines(keys)`, `add_lines(keys,
  vectors)`. Each distinct line is embedded once, whatever entries it takes part in, and
  a re-parse re-embeds only lines whose text changed.
- Entries: `set_entry(ref, parts)` with parts `(text key, weight)` (`embed.py` makes
  them: the entry's own line, its neighbours', its label), `forget(refs)`,
  `drop_entries_except(refs)`, `refs_waiting()`. An entry's vector is the weighted sum
  of its parts, renormalised, composed in memory (`matrix.py`): not stored, so the file
  holds each line once.
- Search: `search(query, k, mask=None) -> [(ref, cosine)]`, brute force over the composed
  entries; `rows()` and `mask_for(refs)` let a caller say which entries the reader may
  see (the lane applies visibility through the mask).

Why int8 with a scale per row: the issue measured no loss against float32 (binary
vectors hurt), and 384 bytes a line keeps 100,000 entries near 45 MB on disk.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memrepo.meaning.journal import Delta, Parts
from memrepo.meaning.matrix import EntryMatrix, MatrixView, Nearest
from memrepo.meaning.vectorfile import MAGIC, SCHEMA, Contents, read, write

__all__ = ["MAGIC", "SCHEMA", "Parts", "VectorStore", "quantised", "text_key", "vectors_path"]


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
        # Row buffers grow by doubling (a first embed adds lines 256 at a time); the
        # first len(self._keys) rows are in use.
        self._rows = np.zeros((0, dim), np.int8)
        self._scales = np.zeros(0, np.float32)
        self._waiting: set[str] = set()
        self._recipes: dict[str, Parts] = {}
        self._loaded: Contents | None = None
        self._matrix = EntryMatrix(dim)
        #: The generation of the file this store was loaded from or last saved as.
        self.generation = ""

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
        end = start + len(fresh)
        if end > len(self._rows):
            spare = max(end, 2 * len(self._rows), 1024) - start
            self._rows = np.concatenate([self._rows[:start], np.zeros((spare, self.dim), np.int8)])
            self._scales = np.concatenate([self._scales[:start], np.zeros(spare, np.float32)])
        self._rows[start:end] = rows
        self._scales[start:end] = scales
        for offset, i in enumerate(fresh):
            self._row_of[keys[i]] = start + offset
            self._keys.append(keys[i])
        self._waiting = {ref for ref in self._waiting if not self._ready(self._entries[ref])}

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
        if self._ready(parts):
            self._waiting.discard(ref)
        else:
            self._waiting.add(ref)
        return True

    def drop_entries_except(self, refs: Iterable[str]) -> int:
        """Forget the entries not in `refs` (deleted or moved away); how many went."""
        keep = set(refs)
        gone = [ref for ref in self._entries if ref not in keep]
        for ref in gone:
            del self._entries[ref]
            self._matrix.remove(ref)
            self._waiting.discard(ref)
        return len(gone)

    def forget(self, refs: Iterable[str]) -> int:
        """Forget these entries (a forget, an edit that removed them); how many went."""
        gone = [ref for ref in refs if ref in self._entries]
        for ref in gone:
            del self._entries[ref]
            self._matrix.remove(ref)
            self._waiting.discard(ref)
        return len(gone)

    def entry_parts(self, ref: str) -> Parts | None:
        """The recipe recorded for `ref`, if any."""
        return self._entries.get(ref)

    def refs_waiting(self) -> list[str]:
        """Entries some of whose lines have no vector yet (an interrupted first embed)."""
        self._materialise()
        return sorted(self._waiting)

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

    def view(self) -> MatrixView:
        """The composed entries now, whose `products` with a question may run on another
        thread, without this store's guard (the lane does during the lexical search)."""
        self._compose()
        return self._matrix.view()

    def nearest(
        self,
        query: npt.NDArray[np.float32],
        k: int,
        depth: int,
        mask: npt.NDArray[np.bool_] | None = None,
        products: tuple[MatrixView, npt.NDArray[np.float32]] | None = None,
    ) -> Nearest:
        """`search`, keeping which rows are among the nearest `depth` and their cosine
        (`Nearest.cosine`, by row of `rows()`). `products` are a view's products with
        `query`, computed earlier: used when the rows have not changed since."""
        self._compose()
        matrix = self._matrix
        if products is not None and products[0].version == (matrix, matrix.version):
            scores = products[1]
        else:
            scores = matrix.view().products(query, matrix.allowed(mask))
        return matrix.nearest(scores, k, depth, mask)

    def _compose(self) -> None:
        self._matrix.tidy()
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

    def _compose_loaded(self, loaded: Contents) -> None:
        """A fresh load composed straight from the file's arrays, without a Python
        object per part: what a reader pays once, at 100,000 entries too."""
        counts = np.diff(loaded.offsets)
        if not len(counts):
            return
        starts = loaded.offsets[:-1]
        ready = np.maximum.reduceat(loaded.numbers, starts) < loaded.lines
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
                if max(numbers[j] for j in span) >= loaded.lines:
                    self._waiting.add(ref)

    # -- changes, for the journal ------------------------------------------------------

    def delta_since(self, lines: int, refs: Iterable[str], forgotten: Iterable[str]) -> Delta:
        """The change since this store held `lines` lines: the lines added since, the
        current recipes of `refs` and the entries `forgotten` (`journal.Delta`)."""
        end = len(self._keys)
        recipes = {ref: parts for ref in refs if (parts := self._entries.get(ref)) is not None}
        return Delta(
            keys=self._keys[lines:end],
            scales=self._scales[lines:end].copy(),
            rows=self._rows[lines:end].copy(),
            recipes=recipes,
            forget=[ref for ref in forgotten if ref not in self._entries],
        )

    def apply(self, delta: Delta) -> None:
        """Take in another process's change (read from the journal)."""
        if delta.keys:
            vectors = delta.rows.astype(np.float32) * delta.scales[:, None]
            self.add_lines(delta.keys, vectors)
        for ref, parts in delta.recipes.items():
            self.set_entry(ref, parts)
        self.forget(delta.forget)

    # -- the file ----------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the store, keeping only lines some entry uses; atomic replace. An
        entry still waiting for a line's vector keeps its recipe (`vectorfile`). The
        file gets a new generation, so a journal of the old one is never read onto it."""
        self.generation = secrets.token_hex(8)
        self._prune()
        refs = list(self._entries)
        keys = self._keys + self.missing_lines(
            key for parts in self._entries.values() for key, _w in parts
        )
        number = {key: i for i, key in enumerate(keys)}
        parts = [part for ref in refs for part in self._entries[ref]]
        offsets = np.zeros(len(refs) + 1, np.intp)
        offsets[1:] = np.cumsum([len(self._entries[ref]) for ref in refs])
        contents = Contents(
            keys=keys,
            lines=len(self._keys),
            scales=self._scales[: len(self._keys)],
            rows=self._rows[: len(self._keys)],
            refs=refs,
            offsets=offsets,
            numbers=np.asarray([number[key] for key, _w in parts], np.intp),
            weights=np.asarray([weight for _k, weight in parts], np.float32),
            generation=self.generation,
        )
        write(path, self.model, self.dim, contents)

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
        store = cls(model, dim)
        contents = read(path, model, dim)
        if contents is None:
            return store
        store._keys = contents.keys[: contents.lines]
        store._row_of = {key: row for row, key in enumerate(store._keys)}
        store._rows = contents.rows
        store._scales = contents.scales
        store._loaded = contents
        store.generation = contents.generation
        return store
