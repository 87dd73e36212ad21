"""A three-way merge of unit sequences (diff3), shared by the entry merge and the line merge.

A *unit* is one line of a file. Its ``key`` is what alignment compares: the line itself
for ordinary lines, the entry id for an entry, so an entry edited in place still lines up
with its base version and an edit is never mistaken for a removal plus an addition.

``regions`` walks the three sequences the way ``git merge-file`` does: runs where base,
ours and theirs agree (stable) alternate with runs where at least one side changed
(unstable). What to do with an unstable run is the caller's business.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from memrepo.folder.linediff import common_ends

__all__ = ["Region", "Unit", "regions", "same"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One line of one version of a file."""

    #: What alignment compares: ``("t", line bytes)``, or the identity of an entry/link.
    key: Hashable
    #: The line as in the file, with its ending (the last line may have none).
    content: bytes
    #: Whether the unit is an entry or index link, decided once per key for the file.
    keyed: bool = False


@dataclass(frozen=True, slots=True)
class Region:
    """Aligned slices of base, ours and theirs; in a stable region all keys are equal."""

    stable: bool
    base: Sequence[Unit]
    ours: Sequence[Unit]
    theirs: Sequence[Unit]
    #: 0-based line in base where the region starts (for messages).
    base_line: int


def same(a: Sequence[Unit], b: Sequence[Unit]) -> bool:
    """Whether two runs hold the same lines (keys and bytes)."""
    return len(a) == len(b) and all(
        x.key == y.key and x.content == y.content for x, y in zip(a, b, strict=True)
    )


def _matches(base: Sequence[Unit], other: Sequence[Unit]) -> list[tuple[int, int, int]]:
    """Matching blocks (base start, other start, length), with the common ends trimmed
    first (`linediff.common_ends`)."""
    keys_a = [u.key for u in base]
    keys_b = [u.key for u in other]
    start, end_a, end_b = common_ends(keys_a, keys_b)
    blocks: list[tuple[int, int, int]] = [(0, 0, start)] if start else []
    matcher = SequenceMatcher(None, keys_a[start:end_a], keys_b[start:end_b], autojunk=False)
    blocks.extend((a + start, b + start, n) for a, b, n in matcher.get_matching_blocks() if n)
    if end_a < len(keys_a):
        blocks.append((end_a, end_b, len(keys_a) - end_a))
    return blocks


def _sync_points(
    base: Sequence[Unit], ours: Sequence[Unit], theirs: Sequence[Unit]
) -> list[tuple[int, int, int, int]]:
    """Runs matched in both ours and theirs: (base start, ours start, theirs start, length),
    ending with an empty run at the three ends."""
    in_ours, in_theirs = _matches(base, ours), _matches(base, theirs)
    points: list[tuple[int, int, int, int]] = []
    i = j = 0
    while i < len(in_ours) and j < len(in_theirs):
        a_base, a_at, a_len = in_ours[i]
        b_base, b_at, b_len = in_theirs[j]
        start, end = max(a_base, b_base), min(a_base + a_len, b_base + b_len)
        if start < end:
            points.append((start, a_at + start - a_base, b_at + start - b_base, end - start))
        if a_base + a_len < b_base + b_len:
            i += 1
        else:
            j += 1
    points.append((len(base), len(ours), len(theirs), 0))
    return points


def regions(base: Sequence[Unit], ours: Sequence[Unit], theirs: Sequence[Unit]) -> Iterator[Region]:
    """Stable and unstable regions covering all three sequences, in file order."""
    at_base = at_ours = at_theirs = 0
    for z, a, b, n in _sync_points(base, ours, theirs):
        if z > at_base or a > at_ours or b > at_theirs:
            yield Region(False, base[at_base:z], ours[at_ours:a], theirs[at_theirs:b], at_base)
        if n:
            yield Region(True, base[z : z + n], ours[a : a + n], theirs[b : b + n], z)
        at_base, at_ours, at_theirs = z + n, a + n, b + n
