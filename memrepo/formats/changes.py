"""Which entries a change to a file can have touched, read off the changed lines alone.

`why` walks every version of a file, and a version is read in a fraction of the time it
takes to parse. Most changes to a memory file add, remove or rewrite bullets at column 0
between other bullets, blank lines and headings; such a change cannot alter the block
structure of any other line, so the entries it touched are exactly the bullets on the
changed lines, and their ids can be computed from those lines alone.

`touched_ids` answers only when it is sure of that, and ``None`` otherwise, so the
caller parses both versions. Sure means, with the changed lines taken as the span
between the common first and last lines of the two versions:

* every changed line, on both sides, is a simple bullet (marker at column 0, one space,
  then a non-space; no thematic break; no line break but a final ``\\r``), so none of
  them opens, closes or continues another block. A bullet holding ``>`` could end an
  HTML block (every HTML end condition holds ``>``), so it is sure only in a file with
  no ``<`` at all;
* the first unchanged line after them cannot continue a bullet before them: it is the
  end, a simple bullet, an ATX heading, or blank lines followed by the end or a line
  that is not indented (a lazy or indented continuation would make the bullet before
  the change span several lines, or stop doing so).

A property test checks the answer against a full parse of both versions.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memrepo.formats.metadata import parse_metadata
from memrepo.formats.text import entry_id

__all__ = ["touched_ids"]

_CHUNK = 2048
_SIMPLE_BULLET = re.compile(rb"[-*+] [^ \t\r\n][^\r]*\r?")
_ATX_HEADING = re.compile(rb"#{1,6}(?:[ \t][^\r]*)?\r?")


def touched_ids(old: bytes, new: bytes) -> frozenset[str] | None:
    """The ids of the entries on the lines that differ between two versions of a file,
    or ``None`` when the change may have re-classified other lines (parse both then).

    An id in the answer may belong to a bullet that is not an entry (inside a fence, an
    Index link); an entry whose line did not change is never touched when this answers.
    Only the changed lines are split and decoded: the common head and tail are found by
    comparing bytes, so a version costs about what reading it does.
    """
    start, end_a, end_b = _changed_span(old, new)
    removed, added = _lines(old[start:end_a]), _lines(new[start:end_b])
    ids: set[str] = set()
    for line in (*removed, *added):
        found = _bullet_id(line)
        if found is None:
            return None
        ids.add(found)
    if not _closes_bullets(old, end_a):
        return None
    if _holds_gt(removed, added) and (b"<" in old or b"<" in new):
        return None
    return frozenset(ids)


def _changed_span(a: bytes, b: bytes) -> tuple[int, int, int]:
    """Whole lines where the versions differ: ``a[start:end_a]`` became ``b[start:end_b]``.

    ``start`` is the start of the first differing line; the tails ``a[end_a:]`` and
    ``b[end_b:]`` are equal and start a line (or are empty).
    """
    limit = min(len(a), len(b))
    same = _common_length(a, b, limit, from_end=False)
    start = a.rfind(b"\n", 0, same) + 1
    tail = _common_length(a, b, limit - start, from_end=True)
    end_a, end_b = len(a) - tail, len(b) - tail
    if _mid_line(a, start, end_a) or _mid_line(b, start, end_b):
        # The tails are equal, so the next line end is as far on both sides.
        newline = a.find(b"\n", end_a)
        shift = len(a) - end_a if newline < 0 else newline + 1 - end_a
        end_a, end_b = end_a + shift, end_b + shift
    return start, end_a, end_b


def _mid_line(data: bytes, start: int, end: int) -> bool:
    """Whether a span that starts a line ends inside one."""
    return end > start and data[end - 1 : end] != b"\n"


def _common_length(a: bytes, b: bytes, limit: int, *, from_end: bool) -> int:
    """The length of the longest common head (or tail) of `a` and `b`, at most `limit`.

    Slice comparisons are memcmp: whole chunks first, then a binary search inside the
    first chunk that differs, so a 20 KB version costs a few dozen short comparisons.
    """

    def same(length: int) -> bool:
        if from_end:
            return a[len(a) - length :] == b[len(b) - length :]
        return a[:length] == b[:length]

    low = 0
    while low + _CHUNK <= limit and same(low + _CHUNK):
        low += _CHUNK
    high = min(limit, low + _CHUNK)
    while low < high:
        mid = (low + high + 1) // 2
        if same(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _lines(span: bytes) -> list[bytes]:
    """The lines of a span of whole lines (its last line may lack an ending)."""
    if not span:
        return []
    lines = span.split(b"\n")
    if not lines[-1]:
        lines.pop()
    return lines


@lru_cache(maxsize=4096)
def _bullet_id(line: bytes) -> str | None:
    """The id of a simple bullet line, as `Entry.id` computes it; None for anything else.

    Cached (bounded): a walk newest first meets a line twice, where it was removed and,
    older, where it was added.
    """
    if _SIMPLE_BULLET.fullmatch(line) is None:
        return None
    marker = line[:1]
    if line[2:3] == marker and not line.replace(b" ", b"").replace(b"\t", b"").strip(marker):
        return None  # "- - -": a thematic break
    try:
        body = line[1:].decode("utf-8")
    except UnicodeDecodeError:
        return None
    text, metadata, _ = parse_metadata(body)
    return entry_id(text, metadata)


def _closes_bullets(data: bytes, at: int) -> bool:
    """Whether the line starting at ``data[at]`` (the first unchanged line after the
    change) ends any bullet before it, so no bullet's extent depends on the change."""
    line, at = _line_at(data, at)
    if line is None:
        return True
    if _is_blank(line):
        while line is not None and _is_blank(line):
            line, at = _line_at(data, at)
        return line is None or line[:1] not in (b" ", b"\t")
    return _SIMPLE_BULLET.fullmatch(line) is not None or _ATX_HEADING.fullmatch(line) is not None


def _line_at(data: bytes, at: int) -> tuple[bytes | None, int]:
    """The line starting at `at` (without its ``\\n``) and where the next one starts;
    None at the end of the data (a final empty line is no line)."""
    if at >= len(data):
        return None, at
    newline = data.find(b"\n", at)
    if newline < 0:
        return data[at:], len(data)
    return data[at:newline], newline + 1


def _is_blank(line: bytes) -> bool:
    return not line.strip(b" \t\r")


def _holds_gt(*spans: list[bytes]) -> bool:
    return any(b">" in line for span in spans for line in span)
