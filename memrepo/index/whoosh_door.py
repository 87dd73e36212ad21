"""The one door to Whoosh: every Whoosh name memrepo uses is imported here, and only here.

Whoosh-Reloaded is pinned to the releases this code is proven on (`pyproject.toml`: a
floor and a ceiling below the next minor release). Most of what the index needs is
Whoosh's documented API (fields, queries, scoring, the file storage, the analysis
protocol). The rest reaches into classes Whoosh never promised, each for a measured
reason; an upgrade that changes them must fail the suite, not a user, so
`tests/index/test_whoosh_door.py` checks on random corpora and queries, against the
Whoosh installed, that what stands on them gives Whoosh's own answers: `FastBM25F` the
scores of `BM25F` bit for bit, the block walk of `_masks` the documents of Whoosh's
own posting walk, and `AnyWord`'s union tree the hits and scores of Whoosh's `Or`.

Internals, and who stands on them:
- `W3LeafMatcher` (its `_ids`, `_i`, `_read_ids`, `_next_block`), `FilterMatcher.child`:
  `_masks` walks a filter's postings a block at a time (issue #28).
- `W3PerDocReader`, `LENGTHS_COLUMN`, `_lenfield`, `NumericColumn`, `BM25FScorer`:
  `scoring.FastBM25F` reads a segment's length bytes once (issue #16).
- `W3Codec`, `W3FieldWriter`, `PostingPool`, `SegmentWriter`, `Frequency`, `pack_uint`,
  `byte_to_length`: `_bulk` writes a whole segment without Whoosh's per-document path.
- `StructFile`, `IS_LITTLE`: `_storage` maps segment files read-only.
"""

from __future__ import annotations

from whoosh.analysis import Token, Tokenizer
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    W3Codec,
    W3FieldWriter,
    W3LeafMatcher,
    W3PerDocReader,
    _lenfield,
)
from whoosh.columns import NumericColumn
from whoosh.fields import BOOLEAN, ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage, RamStorage
from whoosh.filedb.structfile import StructFile
from whoosh.formats import Frequency
from whoosh.index import IndexError as WhooshIndexError
from whoosh.index import LockError
from whoosh.lang import stemmer_for_language
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query import And, NullQuery, Or, Prefix, Query, Term
from whoosh.reading import SegmentReader, TermNotFound
from whoosh.scoring import BM25F, BM25FScorer
from whoosh.system import IS_LITTLE, pack_uint
from whoosh.util.numeric import byte_to_length
from whoosh.writing import CLEAR, PostingPool, SegmentWriter

__all__ = [
    "BM25F",
    "BOOLEAN",
    "CLEAR",
    "ID",
    "IS_LITTLE",
    "KEYWORD",
    "LENGTHS_COLUMN",
    "NUMERIC",
    "STORED",
    "TEXT",
    "And",
    "BM25FScorer",
    "FileStorage",
    "FilterMatcher",
    "Frequency",
    "LockError",
    "NullQuery",
    "NumericColumn",
    "Or",
    "PostingPool",
    "Prefix",
    "Query",
    "RamStorage",
    "Schema",
    "SegmentReader",
    "SegmentWriter",
    "StructFile",
    "Term",
    "TermNotFound",
    "Token",
    "Tokenizer",
    "W3Codec",
    "W3FieldWriter",
    "W3LeafMatcher",
    "W3PerDocReader",
    "WhooshIndexError",
    "_lenfield",
    "byte_to_length",
    "pack_uint",
    "stemmer_for_language",
]
