"""Entry vectors composed from line vectors, and the brute-force search over them
(issue #29, docs/architecture.md §6).

Each entry's vector is the weighted sum of its parts' line vectors (its own line, its
neighbours', its label: `embed.py`), renormalised. They are composed in memory from the
stored lines, in blocks, as float32: a matrix-vector product over float32 runs at memory
speed through BLAS, where numpy has no fast int8 product (11 to 13 ms CPU per 100,000 rows
of 384 here; `benchmarks/bench_meaning.py`). An entry whose recipe changed is composed again,
in its row; a forgotten one frees its row (rows are compacted once a quarter are free).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

#: Entries composed per block: bounds the float32 scratch to about 40 MB.
BLOCK = 4096
#: Rows per span a mask is looked at in: a span with no row it lets through is not
#: multiplied (a mask often hides whole runs, a workspace).
CHUNK = 1024


class LineSource(Protocol):
    """Where the line vectors come from (the `VectorStore`)."""

    def line_vectors(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]: ...


@dataclass(frozen=True, slots=True)
class Nearest:
    """One search's answer: the best rows with their cosine, best first (`top`), the
    masked cosine of every row (-inf: hidden) and which rows are among the nearest
    `depth` (`kept`)."""

    top: list[tuple[str, float]]
    scores: npt.NDArray[np.float32]
    kept: npt.NDArray[np.bool_]

    def cosine(self, row: int) -> float | None:
        """`row`'s cosine when it is among the nearest kept, else None."""
        if 0 <= row < len(self.kept) and self.kept[row]:
            return float(self.scores[row])
        return None


@dataclass(frozen=True, slots=True)
class MatrixView:
    """The composed rows at one version, read without the store's guard: the product
    needs no Python object, so it can run on another thread while recall's lexical
    search holds the GIL (issue #29, Budgets). Rows are only ever replaced by new
    arrays or rewritten in place by a compose, which bumps the version: a view of
    another version is thrown away, never read as current (`EntryMatrix.version`)."""

    vectors: npt.NDArray[np.float32]
    alive: npt.NDArray[np.bool_]
    version: tuple[object, int]

    def products(
        self, query: npt.NDArray[np.float32], allowed: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.float32]:
        """The cosine of `query` with every row (-inf where none is computed), skipping
        spans of `CHUNK` rows none of which is `allowed` (or alive).

        One `einsum` per run of spans, not a BLAS product per span: it runs on the
        calling thread at BLAS's single-thread speed (16 ms per 100,000 rows of 384
        here) and lets go of the GIL once. A product per 1,024 rows took the GIL back
        98 times, each a wait while Whoosh held it: beside a lexical search of 60 ms it
        was done after 66 ms, an einsum after 20 (`benchmarks/bench_meaning.py`). A
        row's cosine is the same whichever run it is in (einsum sums each row alone);
        OpenBLAS runs a product of more than about 2,000 rows on several threads,
        whose waking cost more than it saved on a busy machine."""
        rows = allowed if allowed is not None else self.alive
        count = len(rows)
        scores = np.full(count, -np.inf, np.float32)
        query = np.asarray(query, np.float32)
        for start, end in _spans(rows):
            scores[start:end] = np.einsum("ij,j->i", self.vectors[start:end], query)
        return scores


def _spans(rows: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The runs of `CHUNK`-row spans holding a True row, as (start, end) row ranges."""
    count = len(rows)
    if count == 0:
        return []
    padded = np.zeros(-(-count // CHUNK) * CHUNK, np.bool_)
    padded[:count] = rows
    busy = np.concatenate([[False], padded.reshape(-1, CHUNK).any(axis=1), [False]])
    edges = np.flatnonzero(busy[1:] != busy[:-1]).reshape(-1, 2) * CHUNK
    return [(int(start), min(count, int(end))) for start, end in edges]


class EntryMatrix:
    """Composed entry vectors, one row each, with which rows are in use."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.refs: list[str] = []
        self._row: dict[str, int] = {}
        self._vectors = np.zeros((0, dim), np.float32)
        self._alive = np.zeros(0, np.bool_)
        self._stale: set[str] = set()
        #: Counts every change to the rows: a `MatrixView` of another version is stale.
        self.version = 0

    def invalidate(self, ref: str) -> None:
        """`ref`'s recipe changed (or is new): compose it before the next search."""
        self._stale.add(ref)

    def remove(self, ref: str) -> None:
        """`ref` is forgotten: its row no longer answers."""
        self._stale.discard(ref)
        row = self._row.pop(ref, None)
        if row is not None:
            self.refs[row] = ""
            self._alive[row] = False
            self.version += 1

    def pending(self) -> list[str]:
        """Entries to compose (some may still wait for a line). Every search asks: an
        emptied set keeps the table of its largest size, and listing the empty set
        left by a first embed of 100,000 entries cost 0.5 ms, four times per recall."""
        return list(self._stale) if self._stale else []

    def compose(
        self,
        refs: Sequence[str],
        rows: npt.NDArray[np.intp],
        weights: npt.NDArray[np.float32],
        lines: LineSource,
    ) -> None:
        """Compose `refs` from their recipes: `rows[i]` are the line rows of `refs[i]`'s
        parts and `weights[i]` their weights, padded with weight 0 to one width."""
        self._make_rows(refs)
        self.version += 1
        for start in range(0, len(refs), BLOCK):
            block = refs[start : start + BLOCK]
            at = [self._row[ref] for ref in block]
            end = start + len(block)
            self._vectors[at] = _composed(rows[start:end], weights[start:end], lines)
            self._stale.difference_update(block)
        if not self._stale:
            self._stale = set()  # let go of the table (see `pending`)
        self.tidy()

    def tidy(self) -> None:
        """Compact the rows once a quarter of them are free (forgotten entries)."""
        if len(self.refs) > 1024 and 4 * self._alive.sum() < 3 * len(self.refs):
            self._compact()

    def _make_rows(self, refs: Sequence[str]) -> None:
        """Rows for the refs that have none, grown once (not block by block: copying a
        100,000-row matrix 25 times cost seconds)."""
        new = [ref for ref in refs if ref not in self._row]
        if not new:
            return
        grown = len(self.refs)
        end = grown + len(new)
        if end > len(self._vectors):  # room for more, so a remember does not copy it all
            spare = max(end, len(self._vectors) + len(self._vectors) // 4, 1024) - grown
            fresh = np.zeros((spare, self.dim), np.float32)
            self._vectors = np.concatenate([self._vectors[:grown], fresh])
            self._alive = np.concatenate([self._alive[:grown], np.zeros(spare, np.bool_)])
        self._alive[grown:end] = True
        self.refs.extend(new)
        self._row.update((ref, grown + i) for i, ref in enumerate(new))

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: len(self.refs)])
        self.refs = [self.refs[row] for row in keep]
        self._row = {ref: row for row, ref in enumerate(self.refs)}
        self._vectors = self._vectors[keep]
        self._alive = np.ones(len(keep), np.bool_)
        self.version += 1

    def mask_for(self, refs: Iterable[str]) -> npt.NDArray[np.bool_]:
        """One bool per row: True for the rows of `refs`."""
        mask = np.zeros(len(self.refs), np.bool_)
        rows = [row for row in (self._row.get(ref) for ref in refs) if row is not None]
        mask[rows] = True
        return mask

    def search(
        self, query: npt.NDArray[np.float32], k: int, mask: npt.NDArray[np.bool_] | None
    ) -> list[tuple[str, float]]:
        """The best `k` rows `mask` lets through, best first (rows past the end of a
        mask made before newer rows were added are left out)."""
        allowed = self.allowed(mask)
        scores = self.view().products(query, allowed)
        return self.nearest(scores, k, k, mask).top

    def allowed(self, mask: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
        """The rows in use that `mask` lets through (a shorter mask hides newer rows)."""
        count = len(self.refs)
        allowed = self._alive[:count]
        if mask is None:
            return allowed
        fitted = np.zeros(count, np.bool_)
        fitted[: min(count, len(mask))] = mask[:count]
        return allowed & fitted

    def view(self) -> MatrixView:
        """The rows as they are now, for a product on another thread (`MatrixView`)."""
        count = len(self.refs)
        return MatrixView(self._vectors[:count], self._alive[:count].copy(), (self, self.version))

    def nearest(
        self,
        scores: npt.NDArray[np.float32],
        k: int,
        depth: int,
        mask: npt.NDArray[np.bool_] | None,
    ) -> Nearest:
        """The best `k` of `scores` (`products` of this matrix now) that `mask` lets
        through, best first, and which rows are among the best `depth` (>= k).

        One partition at `depth` and a sort of those alone: the order is exactly what a
        full sort gives, and only the `k` answered become Python objects (turning the
        1,000 the lane keeps into tuples cost more than the partition)."""
        count = len(self.refs)
        kept = np.zeros(count, np.bool_)
        if count == 0 or k <= 0:
            return Nearest([], scores[:0], kept)
        masked = np.where(self.allowed(mask), scores[:count], np.float32(-np.inf))
        depth = min(max(k, depth), count)
        best = np.argpartition(masked, count - depth)[count - depth :]
        best = best[np.argsort(-masked[best], kind="stable")]
        best = best[masked[best] > -np.inf]
        kept[best] = True
        top = [(self.refs[row], float(masked[row])) for row in best[:k].tolist()]
        return Nearest(top, masked, kept)


def _composed(
    rows: npt.NDArray[np.intp], weights: npt.NDArray[np.float32], lines: LineSource
) -> npt.NDArray[np.float32]:
    """Weighted sums of line vectors, one per recipe, scaled to length 1: one gather
    and one batched product (numpy's add.reduceat over rows took seconds at 100,000)."""
    count, width = rows.shape
    parts = lines.line_vectors(rows.reshape(-1)).reshape(count, width, -1)
    summed: npt.NDArray[np.float32] = np.matmul(weights[:, None, :], parts)[:, 0, :]
    norms = np.linalg.norm(summed, axis=1)
    summed /= np.where(norms > 0, norms, 1.0)[:, None]
    return summed
