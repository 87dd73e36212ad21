"""One imported fact becomes a folder write, a memory item, or a reason to skip it.

The same rules as `remember`: secrets in names skip the fact, routing decides folder or
memory_items (contact, task, private and strict-workspace facts never reach git), the
hygiene screen cleans or refuses the text, and a workspace with memory off gets nothing.
What the source said about a fact lands as entry metadata: `source` is where it was
read (`<file>#L<line>`, or `<file>#<id>` for a memory of a JSON document; prefixed with
the project, `acme-api/CLAUDE.md#L3`, when the source belongs to one), then `added`,
`subject`, `kind`, `author`, `user`, what the reader kept (`description`, `categories`,
`section`, `limit`, ...) and `expires`; every value is screened for secrets. A fact whose
own expiry has passed (mem0 hides those too) is skipped as `expired`.

A fact with an identity upstream (a mem0 or OpenMemory id, a Claude Code memory file)
and no subject of its own gets `<stem>:<id>` as its subject, so importing its changed
text again supersedes the old line in the folder, or the old item in memory_items,
instead of keeping both. Facts without a workspace of their own go to the import's
`workspace` when one is named (`memrepo import --workspace NAME`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, get_args

from memrepo.config import WorkspaceSettings
from memrepo.errors import InvalidArgument
from memrepo.folder.paths import normalize_target
from memrepo.folder.repo import EntryWrite
from memrepo.formats.importers import Fact
from memrepo.hygiene import find_secrets, redact_secrets, screen
from memrepo.layout import slugify, workspace_file, workspace_title
from memrepo.models.items import ItemCandidate, Kind, SourceRef, candidate
from memrepo.routing import Route, choose_route

if TYPE_CHECKING:
    from memrepo.stores import MemoryStores

BY = "import"
ORIGIN = "import"
REF_STORE = "import"
_ITEM_KINDS = frozenset(get_args(Kind))


@dataclass(frozen=True, slots=True)
class ItemPlan:
    """A memory item to write, and the source ref that tells whether it is already in."""

    candidate: ItemCandidate
    ref_id: str


@lru_cache(maxsize=4096)
def clean(value: str) -> str:
    """A metadata value: secrets redacted, one line (ids repeat: each is screened once)."""
    return " ".join(redact_secrets(value)[0].split())


class Planner:
    """Turns one fact into a folder write, an item candidate, or a skip reason."""

    def __init__(
        self,
        repo: MemoryStores,
        title: str,
        stem: str,
        *,
        label: str | None = None,
        workspace: str | None = None,
    ) -> None:
        self.repo = repo
        self.stem = stem
        self.title = f"{title} ({label})" if label else title
        self.label = label
        self.workspace = workspace
        self.today = repo.folder.clock.now().date().isoformat()
        file = f"imports/{stem}/{label}.md" if label else f"imports/{stem}.md"
        self.imports_file = normalize_target(repo.root, file)
        self._names: dict[str, str] = {}

    def plan(self, fact: Fact) -> EntryWrite | ItemPlan | str:
        named = fact.workspace or self.workspace
        if any(find_secrets(name) for name in (named, fact.contact, fact.task_id) if name):
            # A name is how later reads find the fact again (see engine/writes.py): a row
            # named with a secret is skipped, never stored under a redacted name.
            return "secret_in_name"
        if fact.expires is not None and fact.expires < self.today:
            return "expired"
        workspace = slugify(named) if named else None
        settings = self.repo.config.workspace(workspace)
        route = self._route(fact, workspace, settings)
        if route is None:
            return "invalid_scope"
        screened = screen(fact.text)
        if screened.text is None:
            return screened.skip_reason or "empty"
        if not settings.memory_on:
            return "memory_disabled"  # an import is never an explicit act of the user
        origin = self.origin(fact)
        subject = self.subject(fact)
        if route.store == "items":
            return self._item(fact, route, workspace, origin, subject)
        path = self.imports_file
        title = f"Imported from {self.title}"
        if workspace is not None:
            path = normalize_target(self.repo.root, workspace_file(workspace))
            title = workspace_title(named or workspace)
        return EntryWrite(
            path=path,
            text=screened.text,
            metadata=self._metadata(fact, origin, subject),
            by=BY,
            origin=ORIGIN,
            title=title,
            redacted=screened.redacted,
            truncated=screened.truncated,
        )

    def origin(self, fact: Fact) -> str:
        """Where the fact was read, as its `source`: never a path of this machine."""
        where = f"{self._name(fact.path)}#{clean(fact.anchor) if fact.anchor else f'L{fact.line}'}"
        return f"{self.label}/{where}" if self.label else where

    def subject(self, fact: Fact) -> str | None:
        """The fact's own subject, else `<stem>:<its id upstream>` (see the module)."""
        if fact.subject or not fact.key:
            return fact.subject
        return clean(f"{self.stem}:{fact.key.split(':', 1)[-1]}")

    def _route(
        self, fact: Fact, workspace: str | None, settings: WorkspaceSettings
    ) -> Route | None:
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
            return None
        if route.store == "folder" and fact.task_id:
            return Route("items", route.scope, None, "a fact from one task", route.private)
        return route

    def _name(self, path: str) -> str:
        """The source file as the import names it (relative to the imported folder, or
        the dump's file name: never where it sits on this machine), redacted like any
        metadata value (once per file)."""
        name = self._names.get(path)
        if name is None:
            name = self._names[path] = clean(path)
        return name

    def _metadata(self, fact: Fact, origin: str, subject: str | None) -> dict[str, str]:
        meta = {"source": origin, "added": fact.created or self.today, "by": BY}
        meta["origin"] = ORIGIN
        for key, value in (
            ("subject", subject),
            ("kind", fact.kind),
            ("author", fact.agent_id),
            ("user", fact.user_id),
            *fact.meta,
            ("expires", fact.expires),
        ):
            if value and key not in meta:
                meta[key] = clean(value)
        return meta

    def _item(
        self, fact: Fact, route: Route, workspace: str | None, origin: str, subject: str | None
    ) -> ItemPlan | str:
        try:
            made = candidate(
                content=fact.text,
                kind=fact.kind if fact.kind in _ITEM_KINDS else "fact",
                scope=route.scope,
                workspace_id=workspace,
                scope_ref=route.scope_ref,
                subject_key=subject,
                source="import",
                source_ref=SourceRef(store=REF_STORE, id=origin),
                privacy="private" if route.private else None,
                task_id=fact.task_id,
                mode="migration",
                created_at=_moment(fact.created),
                expires_at=_moment(fact.expires, next_day=True),
            )
        except InvalidArgument:
            return "invalid_item"  # e.g. a subject in memrepo's reserved `hash:` namespace
        return ItemPlan(made, origin)


def _moment(day: str | None, *, next_day: bool = False) -> datetime | None:
    """A source's date as an aware time: noon of it, or the start of the next day for
    an expiry (the folder's `expires: D` keeps a fact through day D)."""
    if day is None:
        return None
    parsed = datetime.fromisoformat(day).date()
    if next_day:
        return datetime.combine(parsed + timedelta(days=1), time(), tzinfo=UTC)
    return datetime.combine(parsed, time(12), tzinfo=UTC)
