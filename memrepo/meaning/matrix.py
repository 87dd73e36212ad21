"""Entry vectors composed from line vectors, and the brute-force search over them
(issue #29, docs/architecture.md §6).

Each entry's vector is the weighted sum of its parts' line vectors (its own line, its
neighbours', its label: `embed.py`), renormalised. They are composed in memory from the
stored lines, in blocks, as float32: a matrix-vector product over float32 runs at memory
speed through BLAS, where numpy has no fast int8 product (about 9 ms per 100,000 rows of
384; `benchmarks/bench_meaning.py`). An entry whose recipe changed is composed again,
in its row; a forgotten one frees its row (rows are compacted once a quarter are free).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

#: Entries composed per block: bounds the float32 scratch to about 40 MB.
BLOCK = 4096


class LineSource(Protocol):
    """Where the line vectors come from (the `VectorStore`)."""

    def line_vectors(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]: ...


class EntryMatrix:
    """Composed entry vectors, one row each, with which rows are in use."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.refs: list[str] = []
        self._row: dict[str, int] = {}
        self._vectors = np.zeros((0, dim), np.float32)
        self._alive = np.zeros(0, np.bool_)
        self._stale: set[str] = set()

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

    def pending(self) -> list[str]:
        """Entries to compose (some may still wait for a line)."""
        return list(self._stale)

    def compose(
        self,
        refs: Sequence[str],
        recipes: Sequence[tuple[list[int], list[float]]],
        lines: LineSource,
    ) -> None:
        """Compose `refs` from their recipes (line rows and weights)."""
        for start in range(0, len(refs), BLOCK):
            block = refs[start : start + BLOCK]
            self._place(block, _composed(recipes[start : start + BLOCK], lines, self.dim))
            self._stale.difference_update(block)
        if len(self.refs) > 1024 and 4 * self._alive.sum() < 3 * len(self.refs):
            self._compact()

    def _place(self, refs: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        new = [ref for ref in refs if ref not in self._row]
        if new:
            grown = len(self.refs)
            self.refs.extend(new)
            self._row.update((ref, grown + i) for i, ref in enumerate(new))
            fresh = np.zeros((len(new), self.dim), np.float32)
            self._vectors = np.concatenate([self._vectors, fresh])
            self._alive = np.concatenate([self._alive, np.ones(len(new), np.bool_)])
        rows = [self._row[ref] for ref in refs]
        self._vectors[rows] = vectors

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive)
        self.refs = [self.refs[row] for row in keep]
        self._row = {ref: row for row, ref in enumerate(self.refs)}
        self._vectors = self._vectors[keep]
        self._alive = np.ones(len(keep), np.bool_)

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
        count = len(self.refs)
        if count == 0 or k <= 0:
            return []
        allowed = self._alive
        if mask is not None:
            fitted = np.zeros(count, np.bool_)
            fitted[: min(count, len(mask))] = mask[:count]
            allowed = allowed & fitted
        scores = self._vectors @ np.asarray(query, np.float32)
        scores[~allowed] = -np.inf
        k = min(k, count)
        top = np.argpartition(scores, count - k)[count - k :]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.refs[row], float(scores[row])) for row in top if scores[row] > -np.inf]


def _composed(
    recipes: Sequence[tuple[list[int], list[float]]], lines: LineSource, dim: int
) -> npt.NDArray[np.float32]:
    """Weighted sums of line vectors, one per recipe, scaled to length 1."""
    if not recipes:
        return np.zeros((0, dim), np.float32)
    rows = np.fromiter((row for part_rows, _w in recipes for row in part_rows), np.intp)
    weights = np.fromiter((w for _r, ws in recipes for w in ws), np.float32)
    starts = np.cumsum([0] + [len(part_rows) for part_rows, _w in recipes[:-1]])
    summed = np.add.reduceat(lines.line_vectors(rows) * weights[:, None], starts, axis=0)
    norms = np.linalg.norm(summed, axis=1)
    summed /= np.where(norms > 0, norms, 1.0)[:, None]
    return summed.astype(np.float32, copy=False)
