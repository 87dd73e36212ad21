"""The import pipeline: other agents' memory through memrepo's own write rules.

Every fact is screened by `hygiene` (the same rules and secret detector as `remember`),
routed by `memrepo.routing` (contact, task, private and strict-workspace facts go to
memory_items, never into git; so does any row that names a task, whatever its scope:
a task id says the fact came from one task's work, which the folder must not carry), and
written with `by: import`, `origin: import` and a `source` naming the original file and
line. Folder facts land as ONE commit through the folder's batch writer; item facts go
through the item writer's pipeline afterwards.

The folder syncs to the user's remote, so no absolute local path goes into it: `source`
is the file's path inside the imported folder (or the dump's file name) and its line,
and the commit body names the imported file or folder by its name only.

Idempotent: a folder fact already in its file is reinforced (no new line, no commit), and
an item whose `import` source ref is already stored is not written again; a fact whose
text changed upstream supersedes its old version (see `import_planner`). A fact the
source held at its last import and holds no more is reported (`deleted_upstream`), never
deleted here: see `import_ledger`. What is read where is `import_sources`' business.

Every row read is counted once, as written, already known (reinforced) or skipped with
a reason, so `rows == written + reinforced + skipped` in the report; a dry run plans
the same writes (the folder's batch planner, and for items the same screen and the same
duplicate checks) so its counts are the real run's. A fact cut to the entry length is
imported and reported (`truncated`), never cut silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from memrepo import progress as reporting
from memrepo.errors import InvalidArgument
from memrepo.folder.bulk import write_entries
from memrepo.folder.messages import summarize
from memrepo.folder.repo import EntryWrite
from memrepo.formats.importers import Fact, Rejected
from memrepo.formats.importers.memory_body import MAX_ENTRY_CHARS
from memrepo.hygiene import screen
from memrepo.items.writer import MAX_CHARS as ITEM_MAX_CHARS
from memrepo.items.writer import content_hash
from memrepo.models import WriteResult
from memrepo.models.items import ITEM_REF_PREFIX
from memrepo.models.transfer import ImportFormat, ImportProblem, ImportReport
from memrepo.transfer.import_ledger import Gone, KnownFact, Ledger, fact_key
from memrepo.transfer.import_planner import BY, ORIGIN, REF_STORE, ItemPlan, Planner, clean
from memrepo.transfer.import_sources import Source, open_source

if TYPE_CHECKING:
    from memrepo.stores import MemoryStores

MAX_PROBLEMS = 100
PROGRESS_EVERY = 1000
FORMATS: tuple[ImportFormat, ...] = get_args(ImportFormat)
GONE = "deleted_upstream"

Progress = Callable[[int], None]


@dataclass(slots=True)
class _Tally:
    """Counts as the import runs; becomes the ImportReport."""

    rows: int = 0
    facts: int = 0
    written: int = 0
    reinforced: int = 0
    items_written: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    problems: list[ImportProblem] = field(default_factory=list)
    problem_count: int = 0

    def reject(self, rejected: Rejected) -> None:
        self.skipped[rejected.reason] += 1
        if not rejected.quiet:
            self.problem(rejected.path, rejected.line, rejected.reason, rejected.message)

    def gone(self, gone: Gone) -> None:
        self.problem(gone.path, gone.line, GONE, gone.message)

    def problem(self, path: str, line: int | None, reason: str, message: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(
                ImportProblem(path=path, line=line, reason=reason, message=message)
            )

    def count(self, result: WriteResult) -> None:
        if result.status == "skipped":
            self.skipped[result.reason or "skipped"] += 1
        elif result.action == "reinforced":
            self.reinforced += 1
        else:
            self.written += 1


@dataclass(slots=True)
class _Seen:
    """What this read found: every fact's key, the files that could not be read, and
    the ledger entries of the facts memrepo now holds (filled in as writes land)."""

    present: set[str] = field(default_factory=set)
    unreadable: set[str] = field(default_factory=set)
    kept: dict[str, KnownFact] = field(default_factory=dict)


def import_memory(
    repo: MemoryStores,
    fmt: ImportFormat,
    path: str | Path,
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    workspace: str | None = None,
) -> ImportReport:
    """Import every fact at `path`; see `MemoryRepo.import_memory` for the contract."""
    if fmt not in FORMATS:
        raise InvalidArgument(f"format={fmt!r}: use {', '.join(FORMATS)}")
    if workspace is not None and not workspace.strip():
        raise InvalidArgument("workspace: give a name, or leave it out")
    location = Path(path).expanduser().absolute()
    source = open_source(fmt, location, home=Path.home())
    planner = Planner(repo, source.title, source.stem, label=source.label, workspace=workspace)
    tally, seen = _Tally(), _Seen()
    with reporting.task(f"importing from {source.title}"):
        writes, items = _plan_all(planner, source, tally, seen, progress)
        commit = _write_facts(repo, planner, writes, tally, seen, location, dry_run)
        with reporting.task("writing memory items", len(items)) as bar:
            planned: set[tuple[str, str]] = set()
            for key, fact, plan in items:
                ref = _write_item(repo, plan, tally, dry_run, planned)
                if ref is not None:
                    seen.kept[key] = (fact.path, plan.ref_id, ref)
                bar.advance()
        _report_gone(repo, f"{source.stem}:{location}", seen, tally, dry_run)
    if progress is not None:
        progress(tally.rows)
    return ImportReport(
        format=fmt,
        source=str(location),
        dry_run=dry_run,
        workspace=workspace,
        rows=tally.rows,
        facts=tally.facts,
        written=tally.written,
        reinforced=tally.reinforced,
        items_written=tally.items_written,
        skipped=dict(sorted(tally.skipped.items())),
        problems=tuple(tally.problems),
        problem_count=tally.problem_count,
        commit=commit,
    )


def _write_facts(
    repo: MemoryStores,
    planner: Planner,
    writes: list[tuple[str, Fact, EntryWrite]],
    tally: _Tally,
    seen: _Seen,
    location: Path,
    dry_run: bool,
) -> str | None:
    """The folder's facts, in one commit (None: nothing changed, or a dry run), each
    counted and, when written, kept as what this source now holds."""
    with reporting.task(f"writing {len(writes):,} facts to the folder"):
        results, commit = write_entries(
            repo.folder,
            [write for _, _, write in writes],
            lambda n: summarize(f"Import from {planner.title}", f"{n} facts"),
            by=BY,
            origin=ORIGIN,
            body=f"Source: {clean(location.name)}",
            dry_run=dry_run,
        )
    for (key, fact, write), result in zip(writes, results, strict=True):
        tally.count(result)
        if result.status == "written" and result.ref:
            seen.kept[key] = (fact.path, write.metadata["source"], result.ref)
        if result.status == "written" and write.truncated:
            _report_cut(tally, fact, write.metadata["source"])
    return commit


def nothing_imported(report: ImportReport) -> str | None:
    """Why a run imported nothing at all, or None when memrepo holds at least one of its
    rows now (written by it, or already known from an earlier import): every row was
    bad or skipped, or the source held no memories."""
    if report.imported:
        return None
    rows = report.rows
    if not rows:
        return "it holds no memories"
    reasons = ", ".join(f"{reason} {n}" for reason, n in report.skipped.items())
    counted = "its one row" if rows == 1 else f"none of its {rows} rows"
    verb = "could not be imported" if rows == 1 else "could be imported"
    return f"{counted} {verb} ({reasons}); each bad row is named in the report"


def _plan_all(
    planner: Planner, source: Source, tally: _Tally, seen: _Seen, progress: Progress | None
) -> tuple[list[tuple[str, Fact, EntryWrite]], list[tuple[str, Fact, ItemPlan]]]:
    """Read every fact of the source and plan it: (key, fact, write) for the folder and
    (key, fact, plan) for memory_items; problems and skips go to the tally."""
    writes: list[tuple[str, Fact, EntryWrite]] = []
    items: list[tuple[str, Fact, ItemPlan]] = []
    with reporting.task("reading facts") as bar:
        for got in source.items:
            bar.advance()
            tally.rows += 1
            if progress is not None and tally.rows % PROGRESS_EVERY == 0:
                progress(tally.rows)
            if isinstance(got, Rejected):
                tally.reject(got)
                if got.line is None or got.reason == "malformed_frontmatter":
                    seen.unreadable.add(got.path)  # the whole file: its facts are not gone
                continue
            tally.facts += 1
            key = fact_key(got)
            seen.present.add(key)
            planned = planner.plan(got)
            if isinstance(planned, str):
                tally.skipped[planned] += 1
            elif isinstance(planned, EntryWrite):
                writes.append((key, got, planned))
            else:
                items.append((key, got, planned))
    return writes, items


def _report_cut(tally: _Tally, fact: Fact, origin: str) -> None:
    tally.problem(
        fact.path,
        fact.line,
        "truncated",
        f"{origin}: longer than an entry holds ({MAX_ENTRY_CHARS:,} characters); imported "
        "cut at a word boundary (the source keeps the whole text)",
    )


def _report_gone(repo: MemoryStores, key: str, seen: _Seen, tally: _Tally, dry_run: bool) -> None:
    """Report what the source held last time and holds no more; remember what it holds."""
    ledger = Ledger(repo.folder.state_dir)
    gone = ledger.gone(key, seen.present, seen.unreadable)
    for fact in gone:
        tally.gone(fact)
    if not dry_run:
        today = repo.folder.clock.now().date().isoformat()
        ledger.record(key, today, seen.kept, {fact.key for fact in gone})


def _write_item(
    repo: MemoryStores,
    plan: ItemPlan,
    tally: _Tally,
    dry_run: bool,
    planned: set[tuple[str, str]],
) -> str | None:
    """One item through the writer, unless this very source line is already stored; the
    item's ref when memrepo holds it (None when skipped or only planned).

    A dry run screens the item as the writer would and counts a second item of the same
    text in the same scope as already known, as the writer's dedupe does."""
    screened = screen(plan.candidate.content, max_chars=ITEM_MAX_CHARS)
    known = repo.items.store.find_by_source_ref(REF_STORE, plan.ref_id)
    digest = content_hash(screened.text or "")
    held = [row for row in known if row.status == "active" and row.content_hash == digest]
    if held:
        tally.reinforced += 1
        return f"{ITEM_REF_PREFIX}{held[0].id}"
    if dry_run:
        scope = repr((plan.candidate.workspace_id, plan.candidate.scope, plan.candidate.scope_ref))
        if screened.text is None:
            tally.skipped[screened.skip_reason or "skipped"] += 1
        elif (scope, digest) in planned:
            tally.reinforced += 1
        else:
            planned.add((scope, digest))
            tally.written += 1
            tally.items_written += 1
        return None
    result = repo.items.ingest(plan.candidate)
    if result.status == "skipped":
        tally.skipped[result.reason or "skipped"] += 1
        return None
    if result.action == "reinforced":
        tally.reinforced += 1
    else:
        tally.written += 1
        tally.items_written += 1
    return f"{ITEM_REF_PREFIX}{result.item.id}" if result.item is not None else None
