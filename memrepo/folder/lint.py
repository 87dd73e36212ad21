"""lint: what a person should fix in the folder, each problem with its path and line.

It reads the working tree (what people see in their editor), so problems show up before
they are committed. It never changes anything.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from memrepo.folder.limits import describe_size
from memrepo.folder.lint_checks import memory_file_problems, problem
from memrepo.folder.paths import resolve_link
from memrepo.folder.repo import ENTRY_POINT, SWARM_PREFIX, MemoryFolder
from memrepo.folder.secret_scan import MAX_FILE_BYTES, find_in_text
from memrepo.formats import Document
from memrepo.models import LintProblem, LintReport

__all__ = ["BINARY_PROBE", "MAX_FILE_BYTES", "lint_folder"]
#: Where git looks for a NUL to call a file binary (its buffer_is_binary probe).
BINARY_PROBE = 8000


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
        problems.append(problem("missing", "error", ENTRY_POINT, None, "MEMORY.md is missing"))
    _lint_links(paths, docs, problems)
    return LintReport(problems=tuple(problems))


def _candidate_paths(folder: MemoryFolder) -> set[str]:
    paths = {path for path, _ in folder.store.iter_files()}
    pending = folder.store.pending_edits()
    paths.update(pending.added)
    # A held-back new file (a NUL byte, bad UTF-8) is what a person must fix: linted too.
    paths.update(h.path for h in pending.held if h.kind in ("nul", "utf8", "secret"))
    paths.difference_update(pending.deleted)
    return paths


def _lint_file(path: str, data: bytes, problems: list[LintProblem]) -> Document | None:
    """Secrets in any text file; the shared memory-file checks (`lint_checks`) in markdown."""
    is_md = path.endswith(".md")
    if len(data) > MAX_FILE_BYTES:
        size, limit = describe_size(len(data)), describe_size(MAX_FILE_BYTES)
        message = f"{size}: over the {limit} memrepo reads; split it into smaller files"
        problems.append(problem("too_large", "warning", path, None, message))
        return None
    if not is_md and b"\x00" in data[:BINARY_PROBE]:
        problems.append(problem("binary", "warning", path, None, "binary file: not memory"))
        return None
    # Read past bad bytes: a secret in a file that is not UTF-8 is still a secret. The
    # same scan as a hand edit gets (`secret_scan`): raw, and cleaned like agent input.
    text = data.decode("utf-8", "replace")
    for where, _value in find_in_text(path, text):
        problems.append(
            problem("secret", "error", path, where.line, f"looks like a secret ({where.kind})")
        )
    if not is_md:
        return None
    found, doc = memory_file_problems(path, data)
    problems.extend(found)
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
                    problem(
                        "broken_link",
                        "warning",
                        path,
                        line_no + 1,
                        f"[[{target}]] points to {resolved}, which does not exist",
                    )
                )
        links[path] = targets
    seen = reachable(links)
    for path in sorted(docs):
        if path not in seen and not path.startswith(SWARM_PREFIX):
            problems.append(
                problem(
                    "unlisted",
                    "warning",
                    path,
                    None,
                    "not reachable from MEMORY.md's Index; add - [[link]] there",
                )
            )


def reachable(links: Mapping[str, Sequence[str]]) -> set[str]:
    """The files MEMORY.md reaches through `links` (file -> the files it links to)."""
    seen = {ENTRY_POINT}
    queue = deque([ENTRY_POINT])
    while queue:
        for target in links.get(queue.popleft(), ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen
