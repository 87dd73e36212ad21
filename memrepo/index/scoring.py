"""BM25F as Whoosh computes it, with each document's field length read from memory.

Whoosh's BM25F scorer asks, for every posting it scores, the reader for the document's
field length: about ten Python calls deep (reader, per-document reader, cached column
reader, a slice of the segment, a struct unpack, the length table), then the BM25
formula two calls further. Scoring is most of a search (issue #16, "Speed": 75% of a
recall's CPU is Whoosh), and that lookup was a fifth of it.

`FastBM25F` gives the same scores, bit for bit: the same formula in the same order of
operations, over the same one-byte lengths Whoosh stores, but the bytes of a segment's
length column are read once per reader and the length part of the denominator is
precomputed for each of the 256 byte values. Anything it does not recognise (another
codec, a multi-segment reader, an unscorable field) gets Whoosh's own scorer.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

from memrepo.index.whoosh_door import (
    BM25F,
    LENGTHS_COLUMN,
    BM25FScorer,
    NumericColumn,
    SegmentReader,
    W3PerDocReader,
    _lenfield,
    byte_to_length,
)

__all__ = ["SCORING", "WEIGHTING", "FastBM25F"]

# A segment reader's length bytes per field, kept as long as the reader lives (a
# searcher reads them once, however many terms and queries it scores).
_LENGTHS: weakref.WeakKeyDictionary[Any, dict[str, bytes | None]] = weakref.WeakKeyDictionary()


class FastBM25F(BM25F):  # type: ignore[misc]
    """Whoosh's `BM25F` (same parameters, same scores) with a cheaper per-posting score."""

    def scorer(self, searcher: Any, fieldname: str, text: bytes, qf: float = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if type(scorer) is not BM25FScorer:
            return scorer  # an unscorable field: Whoosh's weight-only scorer
        lengths = _length_bytes(searcher.reader(), fieldname)
        if lengths is None:
            return scorer
        return _LengthTableScorer(scorer, lengths)


#: BM25F with little length normalisation: an entry is one line, and its context makes
#: every document about as long as its neighbours' (B 0.3 measured best, recall.md).
#: This is the ranking model as Whoosh defines it (what a raw Whoosh query is measured
#: with); searches run it through `FastBM25F`, which gives the same scores bit for bit.
WEIGHTING = BM25F(B=0.3, K1=1.2)
#: What every searcher of `IndexStore` scores with.
SCORING = FastBM25F(B=WEIGHTING.B, K1=WEIGHTING.K1)


class _LengthTableScorer(BM25FScorer):  # type: ignore[misc]
    """A `BM25FScorer` whose `score` reads the length byte in place.

    ``bm25(idf, tf, fl, avgfl, B, K1)`` is ``idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 -
    B) + B * fl / avgfl)))``; the last term depends on the document only through its
    length byte, so it is computed for each byte here, in the same order of operations.
    """

    def __init__(self, base: BM25FScorer, lengths: bytes) -> None:
        # Not BM25FScorer.__init__: `base` already read idf and the average length.
        self.idf, self.avgfl, self.qf = base.idf, base.avgfl, base.qf
        self.B, self.K1 = base.B, base.K1
        self.dfl = base.dfl
        self._maxquality = base._maxquality
        self._lengths = lengths
        idf: float = base.idf
        K1: float = base.K1
        self._idf = idf
        self._k1p1 = K1 + 1
        self._norm = _norms(K1, base.B, base.avgfl)

    def score(self, matcher: Any) -> float:
        tf: float = matcher.weight()
        docnum: int = matcher.id()
        lengths = self._lengths
        if docnum >= len(lengths):  # past the column: Whoosh's own lookup decides
            fallback: float = self._score(tf, self.dfl(docnum))
            return fallback
        return self._idf * ((tf * self._k1p1) / (tf + self._norm[lengths[docnum]]))


@functools.lru_cache(maxsize=64)
def _norms(K1: float, B: float, avgfl: float) -> tuple[float, ...]:
    """The length part of BM25's denominator for each length byte: one table per field
    and index size, shared by every term scored (a query builds a scorer per term)."""
    return tuple(K1 * ((1 - B) + B * byte_to_length(b) / avgfl) for b in range(256))


def _length_bytes(reader: Any, fieldname: str) -> bytes | None:
    """The length byte of every document of this segment in ``fieldname``, or None when
    the reader is not a plain Whoosh 3 segment reader (then Whoosh's lookup is used)."""
    if type(reader) is not SegmentReader:
        return None
    perdoc = reader._perdoc
    if type(perdoc) is not W3PerDocReader:
        return None
    cached = _LENGTHS.setdefault(perdoc, {})
    if fieldname not in cached:
        column = perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if type(column) is not NumericColumn.Reader or column._fixedlen != 1:
            cached[fieldname] = None
        else:
            cached[fieldname] = bytes(column._dbfile.get(column._basepos, column._count))
    return cached[fieldname]
