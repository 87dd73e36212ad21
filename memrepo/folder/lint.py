"""lint: what a person should fix in the folder, each problem with its path and line.

It reads the working tree (what people see in their editor), so problems show up before
they are committed. It never changes anything.
"""

from __future__ import annotations

from collections import deque

from memrepo.errors import FormatError, InvalidUtf8
from memrepo.folder.paths import resolve_link
from memrepo.folder.repo import ENTRY_POINT, SWARM_PREFIX, MemoryFolder
from memrepo.formats import Document, parse
from memrepo.hygiene import find_secrets
from memrepo.models import LintProblem, LintReport

MAX_FILE_BYTES = 5 * 1024 * 1024


def lint_folder(folder: MemoryFolder) -> LintReport:
    """Every problem in tracked files and new markdown files of the working tree."""
    problems: list[LintProblem] = []
    paths = _candidate_paths(folder)
    docs: dict[str, Document] = {}
    for path in sorted(paths):
        data = folder.store.read_worktree(path)
        if data is None:
            continue
        doc = _lint_file(path, data, problems)
        if doc is not None:
            docs[path] = doc
    if ENTRY_POINT not in paths:
        problems.append(_problem("missing", "error", ENTRY_POINT, None, "MEMORY.md is missing"))
    _lint_links(paths, docs, problems)
    return LintReport(problems=tuple(problems))


def _candidate_paths(folder: MemoryFolder) -> set[str]:
    paths = {path for path, _ in folder.store.iter_files()}
    pending = folder.store.pending_edits()
    paths.update(pending.added)
    paths.difference_update(pending.deleted)
    return paths


def _problem(kind: str, severity: str, path: str, line: int | None, message: str) -> LintProblem:
    return LintProblem(kind=kind, severity=severity, path=path, line=line, message=message)  # type: ignore[arg-type]


def _lint_file(path: str, data: bytes, problems: list[LintProblem]) -> Document | None:
    is_md = path.endswith(".md")
    if len(data) > MAX_FILE_BYTES:
        size = len(data) / 1024 / 1024
        problems.append(
            _problem("too_large", "warning", path, None, f"{size:.1f} MiB: too large to read")
        )
        return None
    if b"\x00" in data[:8192]:
        severity = "error" if is_md else "warning"
        problems.append(_problem("binary", severity, path, None, "binary file: not memory"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(
            _problem("encoding", "error", path, None, str(InvalidUtf8(path, exc.start)))
        )
        return None
    for match in find_secrets(text):
        number = text.count("\n", 0, match.start) + 1
        problems.append(
            _problem("secret", "error", path, number, f"looks like a secret ({match.kind})")
        )
    if not is_md:
        return None
    try:
        doc = parse(data, path)
    except FormatError as exc:
        problems.append(_problem("format", "error", path, None, str(exc)))
        return None
    for found in doc.problems:
        where = found.line_no + 1 if found.line_no is not None else None
        problems.append(_problem("format", "warning", path, where, found.message))
    return doc


def _lint_links(paths: set[str], docs: dict[str, Document], problems: list[LintProblem]) -> None:
    links: dict[str, list[str]] = {}
    for path, doc in docs.items():
        targets: list[str] = []
        located = [(e.line_no, t) for e in doc.entries for t in e.links]
        located += [(link.line_no, link.target) for link in doc.index_links]
        for line_no, target in located:
            resolved = resolve_link(target)
            targets.append(resolved)
            if resolved not in paths:
                problems.append(
                    _problem(
                        "broken_link",
                        "warning",
                        path,
                        line_no + 1,
                        f"[[{target}]] points to {resolved}, which does not exist",
                    )
                )
        links[path] = targets
    seen = _reachable(links)
    for path in sorted(docs):
        if path not in seen and not path.startswith(SWARM_PREFIX):
            problems.append(
                _problem(
                    "unlisted",
                    "warning",
                    path,
                    None,
                    "not reachable from MEMORY.md's Index; add - [[link]] there",
                )
            )


def _reachable(links: dict[str, list[str]]) -> set[str]:
    seen = {ENTRY_POINT}
    queue = deque([ENTRY_POINT])
    while queue:
        for target in links.get(queue.popleft(), ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen
