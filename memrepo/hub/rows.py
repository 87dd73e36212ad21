"""What a list row shows of a folder entry or a memory item, and the list's filters.

Presentation only: a row is what `MemoryRepo.entries()` and `list_items()` returned, put
in the words of the page (who wrote it, where it lives, when, its tags). Which memories
exist, and which a reader may see, is the repo's answer; the filters only narrow what is
on the screen.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from memrepo.hub.forms import BadForm, Form
from memrepo.layout import workspace_of
from memrepo.models import EntryView, MemoryItem
from memrepo.models.items import PERSON_SOURCES
from memrepo.models.recall import due_label
from memrepo.models.usage import MemoryUse

PAGE_SIZE = 200
SHORT = 10
SCOPES = ("global", "workspace", "contact", "task")
#: Who wrote a folder line (its `by`) and how trusted an item is (its source).
FOLDER_TRUST = ("by:user", "by:agent", "by:dream", "by:import")
ITEM_TRUST = (
    "user_stated",
    "user_confirmed",
    "curated",
    "import",
    "system",
    "inferred",
    "third_party",
)
MAX_FILTER_CHARS = 300
#: `Row.standing` of a line every prompt carries, whatever the workspace.
EVERY_PROMPT = "every prompt"
#: The source alias store a memory item keeps its due day in (`items.curation.DUE_STORE`).
ITEM_DUE_STORE = "due"


@dataclass(slots=True)
class Row:
    """One memory as the list shows it: what the filters look at, set when the row is
    made; what only a shown row needs (tags, where, when), worked out when asked for.
    A list of 10,000 rows shows 200 of them (not frozen: a frozen dataclass costs
    three times as much to make, and the list makes one per memory on every request)."""

    ref: str
    text: str
    store: Literal["folder", "items"]
    trust: str
    path: str | None
    line: int | None
    workspace: str | None
    scope: str
    kind: str
    pinned: bool
    #: Contact-scope or third-party: "from other people", listed apart (reference §5a).
    others: bool
    source: EntryView | MemoryItem
    #: Where the line stands in the prompt context without any query (L0): "" when it
    #: does not, else `EVERY_PROMPT` or the workspace whose prompts carry it.
    standing: str = ""
    #: Who last put it in a prompt or quoted it, and when (`MemoryRepo.last_uses`).
    used: MemoryUse | None = None

    @property
    def label(self) -> str:
        return f"memory:{self.source.id[:SHORT]}" if self.store == "items" else self.ref

    @property
    def where(self) -> str:
        found = self.source
        if isinstance(found, EntryView):
            return f"{found.path}:{found.line}"
        where = found.scope + (f":{found.scope_ref}" if found.scope_ref else "")
        return where + (f" (workspace {found.workspace_id})" if found.workspace_id else "")

    @property
    def when(self) -> str:
        found = self.source
        if isinstance(found, EntryView):
            return found.metadata.get("added", "")
        return found.created_at.strftime("%Y-%m-%d")

    @property
    def tags(self) -> tuple[str, ...]:
        found = self.source
        if isinstance(found, EntryView):
            return _entry_tags(found, self.trust)
        return _item_tags(found)


def confirmable(source: EntryView | MemoryItem) -> bool:
    """Whether Confirm would change anything: the line is not yet the person's own clean
    word. The same answer `MemoryRepo.confirm` gives (a folder line without `by` is a
    person's; an item stated or confirmed by the user and not tainted is theirs), asked
    before the button is drawn so a person is not offered to vouch for their own words."""
    if isinstance(source, EntryView):
        meta = source.metadata
        by = meta.get("by", "user").strip().casefold() or "user"
        return by != "user" or "tainted" in meta
    return source.source not in PERSON_SOURCES or source.tainted


def due_of(source: EntryView | MemoryItem) -> str | None:
    """A commitment's due day (YYYY-MM-DD) as the memory records it: a folder line's
    `due` metadata, a memory item's `due` source alias; None when it has none."""
    if isinstance(source, EntryView):
        return source.metadata.get("due") or None
    aliases = source.source_ref.aliases if source.source_ref is not None else ()
    return next((alias.id for alias in aliases if alias.store == ITEM_DUE_STORE), None)


def entry_row(entry: EntryView) -> Row:
    meta = entry.metadata
    by = meta.get("by", "user").strip().casefold() or "user"  # a line without `by` is a person's
    workspace = _workspace_of(entry.path)
    return Row(
        entry.ref, entry.text, "folder", f"by:{by}", entry.path, entry.line, workspace,
        "workspace" if workspace else "global", meta.get("kind", ""), False, False, entry,
    )  # fmt: skip


def item_row(item: MemoryItem) -> Row:
    others = item.scope == "contact" or item.source == "third_party"
    return Row(
        item.ref, item.content, "items", item.source, None, None, item.workspace_id,
        item.scope, item.kind, item.pinned, others, item,
    )  # fmt: skip


def _entry_tags(entry: EntryView, trust: str) -> tuple[str, ...]:
    meta = entry.metadata
    tags = []
    if trust == "by:agent":
        tags.append("inferred")
    if meta.get("tainted", "").strip().casefold() == "yes":
        tags.append("tainted")
    if entry.uncommitted:
        tags.append("uncommitted")
    if "expires" in meta:
        tags.append(f"expires {meta['expires']}")
    if meta.get("due"):
        tags.append(f"due {due_label(meta['due'])}")
    return tuple(tags)


def _item_tags(item: MemoryItem) -> tuple[str, ...]:
    named = (
        (item.source == "inferred", "inferred"),
        (item.source == "import", "imported"),
        (item.tainted, "tainted"),
        (item.privacy == "private", "private"),
        (item.pinned, "pinned"),
    )
    due = due_of(item)
    return tuple(tag for on, tag in named if on) + ((f"due {due_label(due)}",) if due else ())


@functools.lru_cache(maxsize=4096)
def _workspace_of(path: str) -> str | None:
    return workspace_of(path) or None


@dataclass(frozen=True, slots=True)
class Filters:
    """What the person narrowed the list to (every field optional)."""

    q: str | None = None
    file: str | None = None
    workspace: str | None = None
    scope: str | None = None
    kind: str | None = None
    trust: str | None = None
    pinned: bool = False
    #: Only the lines that stand in the prompt context without a query (L0).
    standing: bool = False
    page: int = 1
    #: What recall found for `q`, by ref, with its relevance: such rows match even when
    #: they do not hold `q`'s words as typed, and come first, best first.
    found: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def parse(cls, query: Form) -> Filters:
        """From the address; BadForm for a value no list could have."""
        texts = {name: query.get(name) for name in ("q", "file", "workspace", "kind")}
        for name, value in texts.items():
            if value is not None and len(value) > MAX_FILTER_CHARS:
                raise BadForm(f"{name} is too long (at most {MAX_FILTER_CHARS} characters)")
        return cls(
            q=texts["q"],
            file=texts["file"],
            workspace=texts["workspace"],
            kind=texts["kind"],
            scope=query.choice("scope", SCOPES),
            trust=query.choice("trust", (*FOLDER_TRUST, *ITEM_TRUST)),
            pinned=query.flag("pinned"),
            standing=query.flag("l0"),
            page=query.number("page", 1),
        )

    def keeps(self, row: Row) -> bool:
        if self.file is not None and row.path != self.file:
            return False
        if self.workspace is not None and row.workspace != self.workspace:
            return False
        if self.scope is not None and row.scope != self.scope:
            return False
        if self.kind is not None and row.kind != self.kind:
            return False
        if self.trust is not None and row.trust != self.trust:
            return False
        if self.pinned and not row.pinned:
            return False
        if self.standing and not row.standing:
            return False
        return self.q is None or row.ref in self.found or self.q.casefold() in row.text.casefold()

    def params(self, **changes: object) -> dict[str, object]:
        """The filters as query parameters (for paging links), with `changes` applied."""
        out: dict[str, object] = {
            "q": self.q, "file": self.file, "workspace": self.workspace, "scope": self.scope,
            "kind": self.kind, "trust": self.trust, "pinned": "1" if self.pinned else None,
            "l0": "1" if self.standing else None,
            "page": self.page if self.page > 1 else None,
        }  # fmt: skip
        out.update(changes)
        return out

    @property
    def active(self) -> bool:
        return any(v is not None for k, v in self.params().items() if k != "page")


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of the list, the "from other people" section, and the filter choices."""

    rows: Sequence[Row]
    others: Sequence[Row]
    total: int
    total_others: int
    page: int
    pages: int
    files: Sequence[str]
    workspaces: Sequence[str]
    kinds: Sequence[str]
    trusts: Sequence[str]


def listing(all_rows: Iterable[Row], filters: Filters) -> Listing:
    """Filter, split off what other people said, and cut the page asked for."""
    rows = list(all_rows)
    own: list[Row] = []
    others: list[Row] = []
    for row in rows:
        if filters.keeps(row):
            (others if row.others else own).append(row)
    if filters.found:  # recall's order first; rows only the words as typed found after
        own.sort(key=lambda row: -filters.found.get(row.ref, -1.0))
    pages = max(1, -(-len(own) // PAGE_SIZE))
    if filters.page > pages:
        raise BadForm(f"page {filters.page} does not exist (the list has {pages})")
    start = (filters.page - 1) * PAGE_SIZE
    trusts = {row.trust for row in rows}
    return Listing(
        rows=own[start : start + PAGE_SIZE],
        others=others[:PAGE_SIZE],
        total=len(own),
        total_others=len(others),
        page=filters.page,
        pages=pages,
        files=sorted({row.path for row in rows if row.path}),
        workspaces=sorted({row.workspace for row in rows if row.workspace}),
        kinds=sorted({row.kind for row in rows if row.kind}),
        trusts=[t for t in (*FOLDER_TRUST, *ITEM_TRUST) if t in trusts],
    )


def last_use(
    ref: str, source: EntryView | MemoryItem | None, uses: Mapping[str, MemoryUse]
) -> MemoryUse | None:
    """The newest use of a memory: the usage log's, else an item's own `last_used_at`
    (recorded before the log named agents)."""
    found = uses.get(ref)
    if found is None and isinstance(source, MemoryItem) and source.last_used_at is not None:
        return MemoryUse(ref=ref, at=source.last_used_at)
    return found
