"""A rebuild's Whoosh writer, without the costs that are Whoosh's and not indexing's.

A rebuild (``memrepo reindex``, a fresh clone's first recall) adds every document to one
new segment: Whoosh buffers each posting in a pool, spills sorted runs to disk, merges
them at commit and writes each posting with its document's field length. Profiled at
10,000 entries (issue #28, "Index build"), two costs there had nothing to do with the
index written:

- **a stat per posting**: reading a field length back, Whoosh asks the storage whether
  the field has a length column each time the answer is no (it caches only a yes), so
  every posting of the 17 untokenized fields stat-ed a file: 27 stats a document;
- **a pickle call per posting**: each spilled run is written and read one posting at a
  time.

`prepare_bulk` swaps the two parts of a freshly opened writer that do this, before its
first document: the posting pool (empty until then) for one that pickles runs in
batches, and the codec the writer asks only at commit for a length reader for one whose
reader reads each field's lengths once. The segment written is the same, byte for byte:
the same postings in the same order with the same lengths (tests/index/test_bulk.py).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, BinaryIO

from memrepo.index.analysis import _MemrepoTokenizer
from memrepo.index.whoosh_door import (
    BOOLEAN,
    ID,
    KEYWORD,
    LENGTHS_COLUMN,
    NUMERIC,
    Frequency,
    PostingPool,
    SegmentWriter,
    W3Codec,
    W3FieldWriter,
    W3PerDocReader,
    _lenfield,
    byte_to_length,
    pack_uint,
)

__all__ = ["add_documents", "prepare_bulk"]

_BATCH = 2048
"""Postings per pickle call in a spilled run: a merge holds one batch of each run in
memory (at 100,000 entries about 60 runs, 120,000 postings), and pays one call each."""
_LENGTH_OF = (None, *(byte_to_length(b) for b in range(1, 256)))
"""Whoosh's length of each stored length byte; a zero byte reads as None, as in Whoosh."""
_NO_COLUMN: tuple[None, ...] = ()


def prepare_bulk(writer: SegmentWriter) -> None:
    """Make a just-opened writer a rebuild's (see the module docstring): call it before
    the first `add_document`, since the pool it replaces must still be empty."""
    if writer.pool.current or writer.pool.runs:
        raise ValueError("prepare_bulk needs a writer that has not added a document")
    limit = writer.pool.limit  # the posting buffer it was opened with (``limitmb``)
    writer.pool = _BatchedPool(writer._tempstorage, writer.newsegment)
    writer.pool.limit = limit
    codec = writer.codec
    if type(codec) is W3Codec:  # another codec's readers are left as they are
        writer.codec = _FlushCodec(codec._blocklimit, codec._compression, codec._inlinelimit)
    if type(writer.fieldwriter) is W3FieldWriter:
        # Its files are open already; the subclass adds no state, only a faster loop.
        writer.fieldwriter.__class__ = _BulkFieldWriter


class _BatchedPool(PostingPool):  # type: ignore[misc]
    """Whoosh's posting pool, its spilled runs pickled `_BATCH` postings at a time."""

    def _write_run(self, f: BinaryIO, items: Iterable[Any]) -> None:
        it = iter(items)
        while batch := list(islice(it, _BATCH)):
            pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
        f.close()

    def _read_run(self, path: str) -> Iterator[Any]:
        f = self._open_run(path)
        try:
            while True:
                try:
                    batch = pickle.load(f)
                except EOFError:
                    return
                yield from batch
        finally:
            f.close()
            self._remove_run(path)


class _BulkFieldWriter(W3FieldWriter):  # type: ignore[misc]
    """Whoosh's field writer, its commit-time loop over the sorted postings without the
    checks and three calls Whoosh's pays per posting (a rebuild writes ~80 postings an
    entry): the pool yields them in order, and each goes straight to the open block."""

    def add_postings(self, schema: Any, lengths: Any, items: Iterable[Any]) -> None:
        dfl = lengths.doc_field_length if lengths else (lambda _docnum, _fieldname: 0)
        lastfn: str | None = None
        lasttext: bytes | None = None
        post: Any = None
        for fieldname, btext, docnum, weight, value in items:
            if fieldname != lastfn:
                if lasttext is not None:
                    self.finish_term()
                if lastfn is not None:
                    self.finish_field()
                self.start_field(fieldname, schema[fieldname])
                lastfn, lasttext = fieldname, None
            if docnum == -1:  # a spelling word (Whoosh's convention); memrepo has none
                continue
            if btext != lasttext:
                if lasttext is not None:
                    self.finish_term()
                self.start_term(btext)
                lasttext, post = btext, self._postwriter
            _add_posting(post, docnum, weight, value or b"", dfl(docnum, fieldname))
        if lasttext is not None:
            self.finish_term()


def _add_posting(post: Any, docnum: int, weight: float, value: bytes, length: Any) -> None:
    """`W3PostingsWriter.add_posting` without its type asserts (the pool's postings are
    built by Whoosh's own field types)."""
    if len(post._ids) >= post._blocklimit:
        post._write_block()
    post._ids.append(docnum)
    post._weights.append(weight)
    if weight > post._maxweight:
        post._maxweight = weight
    if value:
        post._values.append(value)
    if length:
        if post._minlength is None or length < post._minlength:
            post._minlength = length
        if length > post._maxlength:
            post._maxlength = length


class _FlushCodec(W3Codec):  # type: ignore[misc]
    """Whoosh's default codec, whose per-document reader (asked once, at commit, for the
    new segment's field lengths) reads each field's length column once."""

    def per_document_reader(self, storage: Any, segment: Any) -> W3PerDocReader:
        return _SegmentLengths(storage, segment)


class _SegmentLengths(W3PerDocReader):  # type: ignore[misc]
    """Field lengths of a segment just written, each field's column read whole, once:
    a field without one (every untokenized field) is looked up once, not per posting."""

    def __init__(self, storage: Any, segment: Any) -> None:
        super().__init__(storage, segment)
        self._by_field: dict[str, tuple[int | None, ...]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int | None:
        lengths = self._by_field.get(fieldname)
        if lengths is None:
            lengths = self._by_field[fieldname] = self._read(fieldname)
        if lengths is _NO_COLUMN:
            return default
        return lengths[docnum]

    def _read(self, fieldname: str) -> tuple[int | None, ...]:
        reader = self._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if reader is None:
            return _NO_COLUMN
        return tuple(_LENGTH_OF[b] for b in reader.load())


class _Field:
    """What adding a value of one field needs, looked up once per rebuild."""

    __slots__ = ("column", "counted", "field", "indexed", "kept", "name", "scorable", "stored")

    def __init__(self, name: str, field: Any) -> None:
        self.name = name
        self.field = field
        self.indexed = bool(field.indexed)
        self.scorable = bool(field.scorable)
        self.stored = bool(field.stored)
        self.column = field.column_type
        # An untokenized value (a path, a lane, a date, a line number) indexes as the
        # same postings in every document that holds it: keep them. A text field's value
        # may carry weighted segments a str key would not tell apart (`FieldText`), so it
        # is never kept.
        self.kept: dict[object, tuple[tuple[bytes, int, float, bytes], ...]] | None = (
            {} if isinstance(field, (ID, KEYWORD, BOOLEAN, NUMERIC)) else None
        )
        # memrepo's own text fields: their terms are counted here, without a token object
        # per term (what Whoosh's Frequency format would count, in the same order).
        self.counted = isinstance(getattr(field, "analyzer", None), _MemrepoTokenizer) and (
            type(field.format) is Frequency
        )

    def postings(self, value: Any) -> Iterable[tuple[bytes, int, float, bytes]]:
        if self.counted and isinstance(value, str):
            return _counted(self.field, value)
        kept = self.kept
        if kept is None or not isinstance(value, (str, int)):  # a bool is an int
            return self.field.index(value)  # type: ignore[no-any-return]
        found = kept.get(value)
        if found is None:
            if len(kept) >= _KEPT_VALUES:
                kept.clear()
            found = kept[value] = tuple(self.field.index(value))
        return found


def _counted(field: Any, value: str) -> list[tuple[bytes, int, float, bytes]]:
    """`Frequency.word_values` over memrepo's tokenizer, as `FieldType.index` encodes it:
    each term once, with its count and the sum of its weights (added in token order, so
    the float sums are Whoosh's to the bit)."""
    freqs: dict[str, int] = {}
    weights: dict[str, float] = {}
    for term, weight in field.analyzer.weighted(value):
        freqs[term] = freqs.get(term, 0) + 1
        weights[term] = weights.get(term, 0.0) + weight
    boost = field.format.field_boost
    return [
        (term.encode("utf-8"), freq, weights[term] * boost, pack_uint(freq))
        for term, freq in freqs.items()
    ]


_KEPT_VALUES = 8192
"""Distinct values kept per field; a field of unique values (ref) starts over when full."""


def add_documents(writer: SegmentWriter, documents: Iterable[dict[str, Any]], sink: Any) -> int:
    """Add each field mapping of ``documents`` to a writer `prepare_bulk` has not touched
    yet, as `SegmentWriter.add_document` would (same postings, lengths, stored values and
    columns), advancing ``sink`` once a document; return how many were added.

    Whoosh's own method pays, for every posting, a call with two asserts and a size sum,
    and analyzes a path or a date again in every document that holds it: here the
    postings of a document go to the pool at once and untokenized values are analyzed
    once. Boosts (``_boost`` keys), vectors and spelling fields, which memrepo's schema
    does not use, are left to Whoosh's method."""
    prepare_bulk(writer)
    plan = {name: _Field(name, field) for name, field in writer.schema.items()}
    plain = not any(f.field.vector or f.field.separate_spelling() for f in plan.values())
    count = 0
    for values in documents:
        if plain and not any(name.startswith("_") for name in values):
            _add(writer, plan, values)
        else:
            writer.add_document(**values)
        count += 1
        sink.advance()
    return count


def _add(writer: SegmentWriter, plan: dict[str, _Field], values: dict[str, Any]) -> None:
    writer._check_state()
    docnum, pool, perdoc = writer.docnum, writer.pool, writer.perdocwriter
    names = sorted(values)
    if not plan.keys() >= values.keys():
        writer._check_fields(writer.schema, names)  # an unknown field raises, as in Whoosh
    postings: list[tuple[str, bytes, int, float, bytes | None]] = []
    size = 0  # PostingPool.add's estimate of their memory
    perdoc.start_doc(docnum)
    try:
        for name in names:
            value = values[name]
            if value is None:
                continue
            spec = plan[name]
            length = 0
            if spec.indexed:
                for tbytes, freq, weight, vbytes in spec.postings(value):
                    if spec.scorable:
                        length += freq
                    postings.append((name, tbytes, docnum, weight * 1.0, vbytes))
                    size += 150 + len(name) + 2 * len(tbytes) + len(vbytes or b"")
                pool.fieldnames.add(name)
            perdoc.add_field(name, spec.field, value if spec.stored else None, length)
            if spec.column:
                perdoc.add_column_value(name, spec.column, spec.field.to_column_value(value))
    except Exception:
        perdoc.cancel_doc()
        raise
    perdoc.finish_doc()
    _pool_extend(pool, postings, size)
    writer._added = True
    writer.docnum += 1


def _pool_extend(pool: PostingPool, postings: list[tuple[Any, ...]], size: int) -> None:
    """`PostingPool.add` for a document's postings at once: a sorted run is spilled
    once the estimated ``size`` of what the pool holds passes ``limitmb``."""
    if pool.currentsize + size > pool.limit:
        pool.save()
    pool.current.extend(postings)
    pool.currentsize += size
