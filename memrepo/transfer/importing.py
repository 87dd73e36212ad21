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
an item whose `import` source ref is already stored is not written again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from memrepo.errors import InvalidArgument
from memrepo.folder.bulk import write_entries
from memrepo.folder.messages import summarize
from memrepo.folder.paths import normalize_target, slugify
from memrepo.folder.repo import EntryWrite
from memrepo.formats.importers import Fact, Rejected
from memrepo.hygiene import find_secrets, redact_secrets, screen
from memrepo.items.writer import content_hash
from memrepo.models import WriteResult
from memrepo.models.items import ItemCandidate, Kind, SourceRef, candidate
from memrepo.models.transfer import ImportFormat, ImportProblem, ImportReport
from memrepo.routing import Route, choose_route
from memrepo.transfer.sources import read_source

if TYPE_CHECKING:
    from memrepo.engine import MemoryRepo

BY = "import"
ORIGIN = "import"
REF_STORE = "import"
MAX_PROBLEMS = 100
PROGRESS_EVERY = 1000
FORMATS: tuple[ImportFormat, ...] = get_args(ImportFormat)
_TITLES = {"claude-code": "Claude Code", "letta": "Letta", "jsonl": "JSONL"}
_ITEM_KINDS = frozenset(get_args(Kind))

Progress = Callable[[int], None]


@dataclass(slots=True)
class _Tally:
    """Counts as the import runs; becomes the ImportReport."""

    facts: int = 0
    written: int = 0
    reinforced: int = 0
    items_written: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    problems: list[ImportProblem] = field(default_factory=list)
    problem_count: int = 0

    def reject(self, rejected: Rejected) -> None:
        self.skipped[rejected.reason] += 1
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(
                ImportProblem(
                    path=rejected.path,
                    line=rejected.line,
                    reason=rejected.reason,
                    message=rejected.message,
                )
            )

    def count(self, result: WriteResult) -> None:
        if result.status == "skipped":
            self.skipped[result.reason or "skipped"] += 1
        elif result.action == "reinforced":
            self.reinforced += 1
        else:
            self.written += 1


@dataclass(frozen=True, slots=True)
class _ItemPlan:
    candidate: ItemCandidate
    ref_id: str


def import_memory(
    repo: MemoryRepo,
    fmt: ImportFormat,
    path: str | Path,
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import every fact at `path`; see `MemoryRepo.import_memory` for the contract."""
    if fmt not in FORMATS:
        raise InvalidArgument(f"format={fmt!r}: use {', '.join(FORMATS)}")
    source = Path(path).expanduser().absolute()
    planner = _Planner(repo, fmt, source)
    tally = _Tally()
    writes: list[EntryWrite] = []
    items: list[_ItemPlan] = []
    for got in read_source(fmt, source):
        if isinstance(got, Rejected):
            tally.reject(got)
            continue
        tally.facts += 1
        planned = planner.plan(got)
        if isinstance(planned, str):
            tally.skipped[planned] += 1
        elif isinstance(planned, EntryWrite):
            writes.append(planned)
        else:
            items.append(planned)
        if progress is not None and tally.facts % PROGRESS_EVERY == 0:
            progress(tally.facts)
    results, commit = write_entries(
        repo.folder,
        writes,
        lambda n: summarize(f"Import from {_TITLES[fmt]}", f"{n} facts"),
        by=BY,
        origin=ORIGIN,
        body=f"Source: {_clean(source.name)}",
        dry_run=dry_run,
    )
    for result in results:
        tally.count(result)
    for plan in items:
        _write_item(repo, plan, tally, dry_run)
    if progress is not None:
        progress(tally.facts)
    return ImportReport(
        format=fmt,
        source=str(source),
        dry_run=dry_run,
        facts=tally.facts,
        written=tally.written,
        reinforced=tally.reinforced,
        items_written=tally.items_written,
        skipped=dict(sorted(tally.skipped.items())),
        problems=tuple(tally.problems),
        problem_count=tally.problem_count,
        commit=commit,
    )


def _write_item(repo: MemoryRepo, plan: _ItemPlan, tally: _Tally, dry_run: bool) -> None:
    """One item through the writer, unless this very source line is already stored."""
    known = repo.items.store.find_by_source_ref(REF_STORE, plan.ref_id)
    digest = content_hash(screen(plan.candidate.content).text or "")
    if any(row.status == "active" and row.content_hash == digest for row in known):
        tally.reinforced += 1
        return
    if dry_run:
        tally.written += 1
        return
    result = repo.items.ingest(plan.candidate)
    if result.status == "skipped":
        tally.skipped[result.reason or "skipped"] += 1
    elif result.action == "reinforced":
        tally.reinforced += 1
    else:
        tally.written += 1
        tally.items_written += 1


@lru_cache(maxsize=4096)
def _clean(value: str) -> str:
    """A metadata value: secrets redacted, one line (ids repeat: each is screened once)."""
    return " ".join(redact_secrets(value)[0].split())


class _Planner:
    """Turns one fact into a folder write, an item candidate, or a skip reason."""

    def __init__(self, repo: MemoryRepo, fmt: ImportFormat, source: Path) -> None:
        self.repo = repo
        self.fmt = fmt
        self.today = repo.folder.clock.now().date().isoformat()
        self.imports_file = normalize_target(repo.root, f"imports/{fmt}.md")
        self._names: dict[str, str] = {}

    def plan(self, fact: Fact) -> EntryWrite | _ItemPlan | str:
        if any(find_secrets(name) for name in (fact.workspace, fact.contact, fact.task_id) if name):
            # A name is how later reads find the fact again (see engine/writes.py): a row
            # named with a secret is skipped, never stored under a redacted name.
            return "secret_in_name"
        workspace = slugify(fact.workspace) if fact.workspace else None
        settings = self.repo.config.workspace(workspace)
        try:
            route = choose_route(
                workspace=workspace,
                contact_ref=fact.contact,
                scope=fact.scope,
                task_id=fact.task_id,
                private=fact.private,
                source="import",
                settings=settings,
            )
        except InvalidArgument:
            return "invalid_scope"
        if route.store == "folder" and fact.task_id:
            route = Route("items", route.scope, None, "a fact from one task", route.private)
        screened = screen(fact.text)
        if screened.text is None:
            return screened.skip_reason or "empty"
        if not settings.memory_on:
            return "memory_disabled"  # an import is never an explicit act of the user
        origin = f"{self._name(fact.path)}#L{fact.line}"
        if route.store == "items":
            return self._item(fact, route.scope, route.scope_ref, route.private, workspace, origin)
        path = self.imports_file
        title = f"Imported from {_TITLES[self.fmt]}"
        if workspace is not None:
            path = normalize_target(self.repo.root, f"workspaces/{workspace}.md")
            title = f"Workspace: {' '.join((fact.workspace or workspace).split())}"
        return EntryWrite(
            path=path,
            text=screened.text,
            metadata=self._metadata(fact, origin),
            by=BY,
            origin=ORIGIN,
            title=title,
            redacted=screened.redacted,
            truncated=screened.truncated,
        )

    def _name(self, path: str) -> str:
        """The source file as the import names it (relative to the imported folder, or
        the dump's file name: never where it sits on this machine), redacted like any
        metadata value (once per file)."""
        name = self._names.get(path)
        if name is None:
            name = self._names[path] = _clean(path)
        return name

    def _metadata(self, fact: Fact, origin: str) -> dict[str, str]:
        meta = {"source": origin, "added": fact.created or self.today, "by": BY}
        meta["origin"] = ORIGIN
        for key, value in (
            ("subject", fact.subject),
            ("kind", fact.kind),
            ("author", fact.agent_id),
            ("user", fact.user_id),
        ):
            if value:
                meta[key] = _clean(value)
        return meta

    def _item(
        self,
        fact: Fact,
        scope: str,
        scope_ref: str | None,
        private: bool,
        workspace: str | None,
        origin: str,
    ) -> _ItemPlan | str:
        created = None
        if fact.created:
            day = datetime.fromisoformat(fact.created).date()
            created = datetime.combine(day, time(12), tzinfo=UTC)
        try:
            made = candidate(
                content=fact.text,
                kind=fact.kind if fact.kind in _ITEM_KINDS else "fact",
                scope=scope,
                workspace_id=workspace,
                scope_ref=scope_ref,
                subject_key=fact.subject,
                source="import",
                source_ref=SourceRef(store=REF_STORE, id=origin),
                privacy="private" if private else None,
                task_id=fact.task_id,
                mode="migration",
                created_at=created,
            )
        except InvalidArgument:
            return "invalid_item"  # e.g. a subject in memrepo's reserved `hash:` namespace
        return _ItemPlan(made, origin)
