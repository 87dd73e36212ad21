"""What a list row shows of a folder entry or a memory item, and the list's filters.

Presentation only: a row is what `MemoryRepo.entries()` and `list_items()` returned, put
in the words of the page (who wrote it, where it lives, when, its tags). Which memories
exist, and which a reader may see, is the repo's answer; the filters only narrow what is
on the screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from memrepo.hub.forms import BadForm, Form
from memrepo.models import EntryView, MemoryItem

PAGE_SIZE = 200
SHORT = 10
WORKSPACE_DIR = "workspaces/"
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


@dataclass(frozen=True, slots=True)
class Row:
    """One memory as the list shows it."""

    ref: str
    label: str
    text: str
    store: Literal["folder", "items"]
    trust: str
    where: str
    path: str | None
    line: int | None
    when: str
    tags: tuple[str, ...]
    workspace: str | None
    scope: str
    kind: str
    pinned: bool
    #: Contact-scope or third-party: "from other people", listed apart (reference §5a).
    others: bool


def entry_row(entry: EntryView) -> Row:
    meta = entry.metadata
    by = meta.get("by", "user").strip().casefold() or "user"  # a line without `by` is a person's
    tags = []
    if by == "agent":
        tags.append("inferred")
    if meta.get("tainted", "").strip().casefold() == "yes":
        tags.append("tainted")
    if entry.uncommitted:
        tags.append("uncommitted")
    if "expires" in meta:
        tags.append(f"expires {meta['expires']}")
    workspace = _workspace_of(entry.path)
    return Row(
        ref=entry.ref,
        label=entry.ref,
        text=entry.text,
        store="folder",
        trust=f"by:{by}",
        where=f"{entry.path}:{entry.line}",
        path=entry.path,
        line=entry.line,
        when=meta.get("added", ""),
        tags=tuple(tags),
        workspace=workspace,
        scope="workspace" if workspace else "global",
        kind=meta.get("kind", ""),
        pinned=False,
        others=False,
    )


def item_row(item: MemoryItem) -> Row:
    tags = []
    if item.source == "inferred":
        tags.append("inferred")
    if item.source == "import":
        tags.append("imported")
    if item.tainted:
        tags.append("tainted")
    if item.privacy == "private":
        tags.append("private")
    if item.pinned:
        tags.append("pinned")
    where = item.scope + (f":{item.scope_ref}" if item.scope_ref else "")
    if item.workspace_id:
        where += f" (workspace {item.workspace_id})"
    return Row(
        ref=item.ref,
        label=f"memory:{item.id[:SHORT]}",
        text=item.content,
        store="items",
        trust=item.source,
        where=where,
        path=None,
        line=None,
        when=item.created_at.strftime("%Y-%m-%d"),
        tags=tuple(tags),
        workspace=item.workspace_id,
        scope=item.scope,
        kind=item.kind,
        pinned=item.pinned,
        others=item.scope == "contact" or item.source == "third_party",
    )


def _workspace_of(path: str) -> str | None:
    if path.startswith(WORKSPACE_DIR) and path.count("/") == 1 and path.endswith(".md"):
        return path[len(WORKSPACE_DIR) : -3]
    return None


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
    page: int = 1

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
        return self.q is None or self.q.casefold() in row.text.casefold()

    def params(self, **changes: object) -> dict[str, object]:
        """The filters as query parameters (for paging links), with `changes` applied."""
        out: dict[str, object] = {
            "q": self.q, "file": self.file, "workspace": self.workspace, "scope": self.scope,
            "kind": self.kind, "trust": self.trust, "pinned": "1" if self.pinned else None,
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
    kept = [row for row in rows if filters.keeps(row)]
    own = [row for row in kept if not row.others]
    others = [row for row in kept if row.others]
    pages = max(1, -(-len(own) // PAGE_SIZE))
    if filters.page > pages:
        raise BadForm(f"page {filters.page} does not exist (the list has {pages})")
    start = (filters.page - 1) * PAGE_SIZE
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
        trusts=[t for t in (*FOLDER_TRUST, *ITEM_TRUST) if any(r.trust == t for r in rows)],
    )
