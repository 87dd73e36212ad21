"""Checks of the memory folder: MEMORY.md, format, links, L0 size, secrets, duplicates, edits.

The working tree is what people edit and what the next write commits, so the format and
link checks read it (through lint); secrets and duplicates are about what git already
holds, so they read HEAD.
"""

from __future__ import annotations

from memrepo.errors import FormatError, MemrepoError
from memrepo.folder.limits import MAX_FILE_BYTES
from memrepo.folder.repo import ENTRY_POINT, SWARM_PREFIX
from memrepo.folder.secret_scan import SecretAt, secret_values, secrets_in, secrets_in_files
from memrepo.formats import normalize_text, parse
from memrepo.health.grading import graded, places, plural
from memrepo.health.readings import HealthContext
from memrepo.models.folder import LintProblem
from memrepo.models.health import HealthCheck
from memrepo.recall.context_budget import estimate_tokens

_FORMAT_KINDS = ("format", "encoding", "binary", "too_large", "conflict")


def _where(problem: LintProblem) -> str:
    return f"{problem.path}:{problem.line}" if problem.line else problem.path


def memory_md(ctx: HealthContext) -> HealthCheck:
    """The entry point exists in the working tree and reads as the format."""
    limit = ctx.limits.memory_md
    data = ctx.folder.store.read_worktree(ENTRY_POINT)
    if data is None:
        in_head = ENTRY_POINT in ctx.head_files
        return HealthCheck(
            name="memory_md",
            status=limit.level,
            detail="MEMORY.md is missing" + (" from the working tree" if in_head else ""),
            fix="git checkout main -- MEMORY.md" if in_head else "memrepo init (creates it)",
        )
    if len(data) > MAX_FILE_BYTES:
        from memrepo.recall.oversized import TooLarge

        return HealthCheck(
            name="memory_md",
            status="WARN",
            detail=TooLarge(ENTRY_POINT, len(data)).notice(),
            fix="split MEMORY.md: move entries to topic files linked from its Index",
        )
    try:
        doc = parse(data, ENTRY_POINT)
    except FormatError as exc:
        return HealthCheck(
            name="memory_md",
            status=limit.level,
            detail=str(exc),
            fix="re-save MEMORY.md as UTF-8 text",
        )
    return HealthCheck(
        name="memory_md",
        status="PASS",
        figure=len(doc.entries),
        unit="entries",
        detail=f"{plural(len(doc.entries), 'entry', 'entries')}, "
        f"{plural(len(doc.index_links), 'index link')}",
    )


def format_problems(ctx: HealthContext) -> HealthCheck:
    """Files that do not read as the format (errors always fail) or read oddly."""
    found = [p for p in ctx.lint.problems if p.kind in _FORMAT_KINDS]
    errors = [p for p in found if p.severity == "error"]
    check = graded(
        "format",
        len(found),
        ctx.limits.format,
        unit="problems",
        detail=places([_where(p) for p in found]) if found else "every file reads",
        fix="memrepo lint shows each problem with its line",
    )
    if errors:
        detail = (
            f"{plural(len(errors), 'file')} cannot be read: {places([_where(p) for p in errors])}"
        )
        return check.model_copy(update={"status": "FAIL", "detail": detail})
    return check


def broken_links(ctx: HealthContext) -> HealthCheck:
    found = [p for p in ctx.lint.problems if p.kind == "broken_link"]
    return graded(
        "broken_links",
        len(found),
        ctx.limits.broken_links,
        unit="links",
        detail=places([_where(p) for p in found]) if found else "every [[link]] resolves",
        fix="memrepo lint lists them; fix the [[target]] or create the file",
    )


def unlisted(ctx: HealthContext) -> HealthCheck:
    found = [p for p in ctx.lint.problems if p.kind == "unlisted"]
    return graded(
        "unlisted",
        len(found),
        ctx.limits.unlisted,
        unit="files",
        detail=places([p.path for p in found]) if found else "every file is reachable",
        fix="add - [[path]] for each under ## Index in MEMORY.md",
    )


def memory_l0(ctx: HealthContext) -> HealthCheck:
    """MEMORY.md is in every prompt (L0), so its size counts against the L0 budget."""
    data = ctx.folder.store.read_worktree(ENTRY_POINT)
    text = data.decode("utf-8", "replace") if data is not None else ""
    tokens = estimate_tokens(text) if text else 0
    return graded(
        "memory_l0",
        tokens,
        ctx.limits.memory_l0,
        unit="tokens",
        detail=f"MEMORY.md is about {plural(tokens, 'token')} ({len(text)} characters)",
        fix="move detail into topic files linked from the Index (memrepo dream does this)",
    )


def secrets(ctx: HealthContext) -> HealthCheck:
    """Credentials at HEAD and in uncommitted edits, as `path:line (kind)`.

    An edit memrepo refuses to commit still reaches recall and L0 (redacted there), and
    stops every write until it is removed, so it is reported with what git holds. Lint
    already scanned the working tree: a flagged file without uncommitted edits is the
    same bytes at HEAD, so only flagged and edited files are read again.
    """
    dirty = set(ctx.pending.paths)
    flagged = {p.path for p in ctx.lint.problems if p.kind == "secret"}
    at_head = secrets_in_files(ctx.head_files, flagged | dirty)
    uncommitted: list[SecretAt] = []
    for path in sorted(dirty & flagged):
        data = ctx.folder.store.read_worktree(path)
        if data is not None:
            known = secret_values(ctx.head_files.get(path))
            uncommitted += secrets_in(path, data, known=known)
    parts = [f"at HEAD: {places([str(s) for s in at_head])}"] if at_head else []
    if uncommitted:
        parts.append(f"uncommitted: {places([str(s) for s in uncommitted])}")
    fixes = []
    if at_head:
        fixes.append(
            "remove the line and commit, rotate the credential; git history still holds it"
        )
    if uncommitted:
        fixes.append("remove it from the file (memrepo commits nothing while it is there)")
    return graded(
        "secrets",
        len(at_head) + len(uncommitted),
        ctx.limits.secrets,
        unit="secrets",
        detail="; ".join(parts) if parts else "none at HEAD or in uncommitted edits",
        fix="; ".join(fixes),
    )


def folder_duplicates(ctx: HealthContext) -> HealthCheck:
    """Entries at HEAD whose normalized text another entry already has (swarms aside).

    Copies a person kept by rejecting a dream's merge of exactly them are theirs to keep:
    they are named, not counted, and `memrepo dream` is not suggested for them (it would
    not propose that merge again)."""
    places_of: dict[str, list[tuple[str, int]]] = {}
    total = 0
    for path, doc in sorted(ctx.head_docs.items()):
        if path.startswith(SWARM_PREFIX):
            continue
        for entry in doc.entries:
            if not entry.text:
                continue
            total += 1
            key = normalize_text(entry.text)
            places_of.setdefault(key, []).append((path, entry.line_no + 1))
    declined = _declined_duplicates(ctx)
    repeated: list[tuple[str, int]] = []
    kept: list[tuple[str, int]] = []
    for key, where in places_of.items():
        if len(where) > 1:
            lines = tuple(sorted(f"{path}\x00{key}" for path, _line in where))
            (kept if lines in declined else repeated).extend(where[1:])
    repeats = [f"{path}:{line}" for path, line in sorted(repeated)]
    rate = 100 * len(repeats) / total if total else 0.0
    detail = f"{len(repeats)} of {plural(total, 'entry', 'entries')} repeat another" + (
        f" ({places(repeats)})" if repeats else ""
    )
    if kept:
        shown = [f"{path}:{line}" for path, line in sorted(kept)]
        detail += f"; kept on purpose (a dream merge you rejected): {places(shown)}"
    return graded(
        "folder_duplicates",
        rate,
        ctx.limits.folder_duplicates,
        unit="%",
        detail=detail,
        fix="memrepo dream merges exact duplicates (or forget the extra copies)",
    )


def _declined_duplicates(ctx: HealthContext) -> frozenset[tuple[str, ...]]:
    """The duplicate groups whose merge a person rejected (none when dreaming does not
    report, or its state cannot be read: the dreaming check says why)."""
    try:
        status = ctx.last_dream()
    except MemrepoError:
        return frozenset()
    return frozenset(status.declined_duplicates) if status is not None else frozenset()


def uncommitted_edits(ctx: HealthContext) -> HealthCheck:
    """Edits the next write commits, and the ones it leaves uncommitted (held back: a NUL
    byte, bad UTF-8, a symlink, a bad file name, a secret), each named with what to do.
    A held-back edit is a WARN: it waits for the person, whatever the threshold."""
    paths = list(ctx.pending.committable)
    held = ctx.pending.held
    check = graded(
        "uncommitted_edits",
        len(paths) + len(held),
        ctx.limits.uncommitted_edits,
        unit="files",
        detail=places(paths) if paths else "the working tree matches HEAD",
        fix="the next memrepo write commits them as your edit (or git commit them)",
    )
    if not held:
        return check
    shown = places([f"{edit.where} ({edit.label})" for edit in held])
    detail = f"held back, not committed: {shown}" + (
        f"; to commit: {check.detail}" if paths else ""
    )
    return check.model_copy(
        update={"status": "WARN", "detail": detail, "fix": "; ".join(e.fix for e in held[:3])}
    )
