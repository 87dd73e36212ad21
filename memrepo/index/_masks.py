"""Filter masks kept by segment, so a new commit pays only for its new segments.

A search's visibility filter is applied as a mask: the doc numbers that fail it (other
workspaces, private items, other tasks' items...). Walking those postings over the whole
index took 48 ms at 10,000 entries, and every commit paid it again, in the writer that
keeps the index current and in each reader that opens the new commit (issue #28: with
twenty clients writing, that was most of a write's CPU time). A Whoosh segment never
changes once written, and a commit mostly adds one small segment beside the big ones,
so each segment's mask is kept by its segment id and only new segments are walked.
Deletions change a segment's deleted set, not its postings; a deleted document in the
mask is harmless (a search never returns it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from memrepo.index.whoosh_door import FilterMatcher, SegmentReader, TermNotFound, W3LeafMatcher

#: Fields holding only "yes" or "no": their lexicon need not be read.
BOOLEAN_FIELDS = frozenset({"tainted", "uncommitted"})
#: A filter: each field with the values it allows.
FilterKey = frozenset[tuple[str, frozenset[str]]]


class SegmentMasks:
    """The denied doc numbers of each (segment, filter) seen, for one index."""

    def __init__(self) -> None:
        self._by_segment: dict[tuple[str, FilterKey], frozenset[int]] = {}

    def denied(self, searcher: Any, key: FilterKey) -> set[int]:
        """The doc numbers of `searcher` failing `key`, from the masks of its segments."""
        leaves: Sequence[tuple[Any, int]] = searcher.leafreaders or [(searcher.reader(), 0)]
        found: set[int] = set()
        live: set[str] = set()
        for reader, offset in leaves:
            segment = _segment_id(reader)
            local = self._by_segment.get((segment, key)) if segment else None
            if local is None:
                local = frozenset(_leaf_denied(reader, key))
                if segment:
                    self._by_segment[(segment, key)] = local
            if segment:
                live.add(segment)
            found.update(local if offset == 0 else (doc + offset for doc in local))
        for stale in [k for k in self._by_segment if k[0] not in live]:
            del self._by_segment[stale]  # merged away: a segment id never comes back
        return found

    def clear(self) -> None:
        self._by_segment.clear()


def _segment_id(reader: Any) -> str | None:
    segment = reader.segment() if isinstance(reader, SegmentReader) else None
    return None if segment is None else str(segment.segment_id())


def _leaf_denied(reader: Any, key: FilterKey) -> set[int]:
    found: set[int] = set()
    for fieldname, allowed in key:
        if fieldname in BOOLEAN_FIELDS:
            present = {"yes", "no"}
        else:
            present = {term.decode("utf-8") for term in reader.lexicon(fieldname)}
        for value in sorted(present - allowed):
            found.update(_leaf_docs(reader, fieldname, value))
    return found


def _leaf_docs(reader: Any, fieldname: str, value: str) -> Iterable[int]:
    """The doc numbers of one segment holding ``fieldname:value``, a posting block at a
    time (Whoosh's own walk yields them one by one through three generator layers; a
    filter's complement can be tens of thousands of documents)."""
    try:
        matcher = reader.postings(fieldname, value)
    except TermNotFound:
        return ()
    if isinstance(matcher, FilterMatcher):
        matcher = matcher.child
    if type(matcher) is not W3LeafMatcher:
        ids: Iterable[int] = matcher.all_ids()
        return ids
    block_ids: list[int] = []
    while matcher.is_active():
        if matcher._ids is None:
            matcher._read_ids()
        block_ids.extend(matcher._ids[matcher._i :])
        matcher._next_block()
    return block_ids
