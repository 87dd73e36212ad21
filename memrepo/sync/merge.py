"""The entry-aware three-way merge of one file: bytes in, bytes out, never conflict markers.

Sync, the git merge driver and tree merges all call :func:`merge_file`, so a plain
``git pull`` in a terminal merges memory the way ``memrepo sync`` does.

* Markdown files are merged entry by entry (:mod:`merge_entries`): both sides' new
  entries kept, removals honoured, a ``subject`` changed on both sides resolved by trust,
  then date. Other lines (titles, prose, frontmatter) get git's line merge. A NUL byte
  makes git call a file binary, but a memory file is merged as text all the same: the
  other side's entries must never fall off main because of one stray byte.
* Markdown that is not valid UTF-8 is merged entry by entry too, its odd bytes carried
  through unchanged (:mod:`merge_bytes`), and reported as an ``encoding`` conflict: main
  gets the merge, the loser is theirs as it came (or the merge's own losers), and the
  detail says to re-save the file as UTF-8.
* Other text files get git's line merge (diff3, in process: pygit2 offers libgit2's merge
  only against a repository's index, and the driver and sync need the same answer for
  bytes alone).
* Other binary files changed on both sides, and line runs changed differently on both
  sides, keep ours; theirs goes to the loser.
* A file deleted on one side and changed on the other is kept as changed: nothing a
  person wrote is dropped silently, and deleting it again is one command.

Every conflict is reported; the loser is the merged file with each conflicted part in its
losing version, so ``git diff main <conflict branch>`` shows exactly what lost.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from memrepo.errors import FormatError, InvalidUtf8
from memrepo.formats import parse
from memrepo.sync.merge_bytes import from_utf8, to_utf8
from memrepo.sync.merge_diff3 import Unit
from memrepo.sync.merge_entries import Keyed, decide_all, document_units
from memrepo.sync.merge_model import ConflictKind, FileMerge, MergeConflict
from memrepo.sync.merge_weave import Decision, Woven, weave

__all__ = ["ConflictKind", "FileMerge", "MergeConflict", "merge_file"]

_BOM = b"\xef\xbb\xbf"
#: git calls a file binary when a NUL byte appears in its first 8000 bytes.
_BINARY_PROBE = 8000


def merge_file(
    path: str, base: bytes | None, ours: bytes | None, theirs: bytes | None
) -> FileMerge:
    """Merge one file's three versions (``None``: the file does not exist on that side)."""
    if ours == theirs or theirs == base:
        return FileMerge(path, ours, (), None)
    if ours == base:
        return FileMerge(path, theirs, (), None)
    if ours is None or theirs is None:
        deleter, changer = ("ours", "theirs") if ours is None else ("theirs", "ours")
        detail = (
            f"deleted by {deleter}, changed by {changer}; kept the changed file "
            "(delete it again if it should go)"
        )
        kept = theirs if ours is None else ours
        return FileMerge(path, kept, (MergeConflict(path, "delete_modify", detail),), None)
    if path.endswith(".md"):
        merged = _merge_markdown(path, base, ours, theirs)
        if merged is not None:
            return merged
    if any(_is_binary(data) for data in (base, ours, theirs)):
        detail = "binary file changed on both sides; kept ours, theirs is in the loser"
        return FileMerge(path, ours, (MergeConflict(path, "binary", detail),), theirs)
    return _merge_lines(path, base or b"", ours, theirs)


def _is_binary(data: bytes | None) -> bool:
    return data is not None and b"\x00" in data[:_BINARY_PROBE]


def _merge_markdown(path: str, base: bytes | None, ours: bytes, theirs: bytes) -> FileMerge | None:
    """Entry-aware merge; None when a version cannot be read as markdown even through
    the lossless view of :mod:`merge_bytes` (the caller merges lines)."""
    versions = (base or b"", ours, theirs)
    try:
        return _merge_documents(path, *versions)
    except InvalidUtf8:
        pass
    views = [to_utf8(data) for data in versions]
    if any(view is None for view in views):
        return None
    try:
        merged = _merge_documents(path, *(view or b"" for view in views))
    except FormatError:
        return None
    kept = "theirs as it came" if merged.loser is None else "the losers below"
    loser = theirs if merged.loser is None else from_utf8(merged.loser)
    detail = (
        "not valid UTF-8 (saved by another tool?): the entries of both sides were merged "
        f"with its odd bytes kept as they are, and {kept} went to the conflict branch. "
        "Re-save the file as UTF-8"
    )
    conflicts = (MergeConflict(path, "encoding", detail), *merged.conflicts)
    return FileMerge(path, from_utf8(merged.merged or b""), conflicts, loser)


def _merge_documents(path: str, base: bytes, ours: bytes, theirs: bytes) -> FileMerge:
    """The entry-aware merge of three versions that parse (FormatError otherwise)."""
    docs = [parse(data, path) for data in (base, ours, theirs)]
    (base_units, base_keyed), (ours_units, ours_keyed), (theirs_units, theirs_keyed) = (
        document_units(doc) for doc in docs
    )
    decisions: dict[Hashable, Decision] = decide_all(path, base_keyed, ours_keyed, theirs_keyed)
    woven = weave(path, base_units, ours_units, theirs_units, decisions)
    base_bom, ours_bom, theirs_bom = (doc.bom for doc in docs)
    bom = ours_bom if theirs_bom == base_bom else theirs_bom
    return _result(path, woven, _BOM if bom else b"")


def _merge_lines(path: str, base: bytes, ours: bytes, theirs: bytes) -> FileMerge:
    """git's line merge: diff3 on lines split at ``\\n`` as git splits them."""
    no_keys: Mapping[Hashable, Keyed] = {}
    woven = weave(
        path,
        _line_units(base),
        _line_units(ours),
        _line_units(theirs),
        decide_all(path, no_keys, no_keys, no_keys),
    )
    return _result(path, woven, b"")


def _line_units(data: bytes) -> list[Unit]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return [Unit(("line", line), line) for line in lines]


def _result(path: str, woven: Woven, prefix: bytes) -> FileMerge:
    merged = prefix + _join(woven.main)
    if not woven.conflicts:
        return FileMerge(path, merged, (), None)
    return FileMerge(path, merged, tuple(woven.conflicts), prefix + _join(woven.loser))


def _join(lines: Sequence[bytes]) -> bytes:
    """Join lines; one that lost its place at the end of a file gets the file's ending."""
    ending = _dominant_ending(lines)
    fixed = [
        line if line.endswith((b"\n", b"\r")) or i == len(lines) - 1 else line + ending
        for i, line in enumerate(lines)
    ]
    return b"".join(fixed)


def _dominant_ending(lines: Sequence[bytes]) -> bytes:
    crlf = sum(1 for line in lines if line.endswith(b"\r\n"))
    lf = sum(1 for line in lines if line.endswith(b"\n")) - crlf
    return b"\r\n" if crlf > lf else b"\n"
