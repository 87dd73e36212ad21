"""The checks of one memory file's bytes, shared by `lint` and the pre-commit hook.

One rule for both, so what lint calls an error is what the hook refuses to commit:

* a NUL byte (error): git calls the file binary, so it has no diffs and no entry merge,
  and a sync can leave the other machine's entries off main;
* bytes that are not UTF-8 (error): the file cannot be read as memory at all;
* conflict markers (error): a conflict committed as git left it, both sides as entries;
* what reads, but probably not as meant (warnings: a bullet over several lines, ...).

Each problem names the file (its path) and the line, and for bad bytes the byte offset.
"""

from __future__ import annotations

from memrepo.errors import InvalidUtf8
from memrepo.formats import Document, parse
from memrepo.formats.conflicts import conflict_markers
from memrepo.models.folder import LintProblem, ProblemKind, Severity

__all__ = ["memory_file_problems", "problem"]


def problem(
    kind: ProblemKind, severity: Severity, path: str, line: int | None, message: str
) -> LintProblem:
    """A LintProblem (line 1-based, or None for the whole file)."""
    return LintProblem(kind=kind, severity=severity, path=path, line=line, message=message)


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line of a byte offset, counted as editors and git count lines."""
    return data.count(b"\n", 0, offset) + 1


def memory_file_problems(path: str, data: bytes) -> tuple[list[LintProblem], Document | None]:
    """The problems of one markdown memory file, and its document when it parsed.

    A file with a NUL byte or bad UTF-8 gets one error for the first such byte and no
    further reading: what it means as memory is unknown until it is fixed.
    """
    nul = data.find(b"\x00")
    if nul >= 0:
        line = _line_of(data, nul)
        message = (
            f"NUL byte at byte offset {nul} (line {line}): a memory file must be "
            "text (git treats a file with a NUL as binary: no diffs, no entry merge); remove it"
        )
        return [problem("binary", "error", path, line, message)], None
    try:
        doc = parse(data, path)
    except InvalidUtf8 as exc:
        line = _line_of(data, exc.offset)
        message = (
            f"not valid UTF-8 at byte offset {exc.offset} (line {line}); re-save the file "
            "as UTF-8 (memrepo never rewrites it for you)"
        )
        return [problem("encoding", "error", path, line, message)], None
    found = [
        problem(
            "conflict",
            "error",
            path,
            n + 1,
            f"git conflict marker {marker!r} committed as text; keep the lines you mean "
            "and delete the markers",
        )
        for n, marker in conflict_markers(doc.line_texts())
    ]
    for odd in doc.problems:
        where = odd.line_no + 1 if odd.line_no is not None else None
        found.append(problem("format", "warning", path, where, odd.message))
    found.sort(key=lambda p: p.line or 0)
    return found, doc
