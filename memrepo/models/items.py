"""Models of memory_items: the candidate a producer hands in, the stored item, results.

The vocabularies are `Literal` types, so an unknown kind, scope or source fails
validation with a message that lists the allowed values; they are checked here, in code,
never by CHECK constraints, so a later version can add a kind without a table rebuild.
`memrepo.items.vocab` derives its tuples and the trust order from these types.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import AwareDatetime, Field, ValidationError, field_validator

from memrepo.errors import InvalidArgument
from memrepo.models._base import Frozen
from memrepo.models.constants import ITEM_REF_PREFIX as ITEM_REF_PREFIX
from memrepo.models.constants import SkipReason, WriteAction

Kind = Literal["identity", "preference", "fact", "rule", "commitment", "relationship", "note"]
Scope = Literal["global", "workspace", "contact", "task"]
#: Trust order, high to low (docs/architecture.md §5); `memrepo.items.vocab.trust_rank` ranks them.
Source = Literal[
    "user_stated", "user_confirmed", "curated", "import", "system", "inferred", "third_party"
]
#: How the folder's `by` and the store's trust `source` correspond (a line without `by`
#: is a person's): routing, the folder's trust order and recall read this one table.
BY_TO_SOURCE: dict[str, Source] = {
    "user": "user_stated",
    "agent": "inferred",
    "dream": "curated",
    "import": "import",
}
#: The person's own word (stated or confirmed): first in a tight prompt, never cleaned up
#: by a dream, shown without the agent's-inference mark.
PERSON_SOURCES: frozenset[Source] = frozenset({"user_stated", "user_confirmed"})
#: Sources that record an explicit act of the user (kept even when memory is off).
EXPLICIT_SOURCES: frozenset[Source] = PERSON_SOURCES | {"curated"}
Status = Literal["active", "archived", "superseded", "deleted"]
Privacy = Literal["normal", "private"]
PrivacyMode = Literal["normal", "strict", "disabled"]
#: The folder's and the items' writes share their actions and skip reasons.
ItemAction = WriteAction
ItemSkipReason = SkipReason

#: Subject keys memrepo derives or writes itself; a caller may not name one like these.
RESERVED_SUBJECT_PREFIXES = ("hash:", "deleted:")


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _blank_to_none(value: str | None) -> str | None:
    """An empty id means "none": '' and None must not become two different workspaces."""
    if value is None:
        return None
    stripped = value.strip()
    return stripped or None


class SourceRefAlias(Frozen):
    """Another record that stated the same content (kept so its edit or delete finds it)."""

    store: str = Field(min_length=1)
    id: str = Field(min_length=1)


class SourceRef(Frozen):
    """Where an item came from (`{store, id}`), plus the refs of records merged into it."""

    store: str = Field(min_length=1)
    id: str = Field(min_length=1)
    aliases: tuple[SourceRefAlias, ...] = ()

    def matches(self, store: str, id: str) -> bool:
        """True when this ref or one of its aliases names `store:id`."""
        return (self.store, self.id) == (store, id) or any(
            (a.store, a.id) == (store, id) for a in self.aliases
        )


class WorkspacePolicy(Frozen):
    """A workspace's memory settings as the writer sees them (memory on/off, privacy)."""

    enabled: bool = True
    privacy: PrivacyMode = "normal"

    @property
    def memory_off(self) -> bool:
        """Memory off blocks machine writes; explicit user acts are still recorded."""
        return not self.enabled or self.privacy == "disabled"


class ItemCandidate(Frozen):
    """What a producer asks the writer to remember (reference §3, `MemoryCandidate`).

    `privacy=None` leaves privacy to policy (third-party text and strict workspaces are
    private). `mode="migration"` keeps `created_at` and skips live-only rules (edits by
    source ref, workspace settings). Datetimes must carry a timezone. `tainted` says the
    producer had read untrusted content when it wrote this: such a candidate never
    changes or replaces a clean item it does not outrank (`memrepo.items._resolve`).
    """

    content: str
    kind: Kind = "fact"
    scope: Scope = "global"
    workspace_id: str | None = None
    scope_ref: str | None = None
    subject_key: str | None = None
    source: Source = "inferred"
    source_ref: SourceRef | None = None
    confidence: float = Field(default=0.7, ge=0.0, le=1.0, allow_inf_nan=False)
    pinned: bool = False
    privacy: Privacy | None = None
    task_id: str | None = None
    expires_at: AwareDatetime | None = None
    status: Literal["active", "archived"] = "active"
    origin_workspace_id: str | None = None
    origin_text: str | None = None
    no_memory: bool = False
    mode: Literal["live", "migration"] = "live"
    created_at: AwareDatetime | None = None
    tainted: bool = False

    @field_validator("workspace_id", "scope_ref", "task_id", "origin_workspace_id")
    @classmethod
    def _ids(cls, value: str | None) -> str | None:
        return _blank_to_none(value)

    @field_validator("subject_key")
    @classmethod
    def _subject(cls, value: str | None) -> str | None:
        value = _blank_to_none(value)
        if value is not None and value.startswith(RESERVED_SUBJECT_PREFIXES):
            raise ValueError(
                f"subject_key may not start with {' or '.join(RESERVED_SUBJECT_PREFIXES)} "
                "(memrepo derives those keys itself)"
            )
        return value

    @field_validator("expires_at", "created_at")
    @classmethod
    def _to_utc(cls, value: datetime | None) -> datetime | None:
        return _utc(value)


class MemoryItem(Frozen):
    """One row of memory_items; datetimes are timezone-aware UTC.

    `tainted`: written after untrusted input and not since vouched for by the user; recall
    hits, prompt lines (`(tainted)`) and `why` say so.
    """

    id: str
    workspace_id: str | None
    scope: Scope
    scope_ref: str | None
    kind: Kind
    subject_key: str
    content: str
    content_hash: str
    source: Source
    source_ref: SourceRef | None
    confidence: float
    pinned: bool
    privacy: Privacy
    task_id: str | None
    status: Status
    supersedes_id: str | None
    reinforced_count: int
    created_at: datetime
    updated_at: datetime
    last_used_at: datetime | None = None
    expires_at: datetime | None = None
    tainted: bool = False

    @property
    def ref(self) -> str:
        """The ref recall and `forget` use for this item (docs/architecture.md §2)."""
        return f"{ITEM_REF_PREFIX}{self.id}"

    @property
    def derived_subject(self) -> bool:
        """True when nobody named the subject (the key was derived from the content)."""
        return self.subject_key.startswith("hash:")


class ItemWriteResult(Frozen):
    """What `ingest` did: written (inserted, reinforced, superseded, updated) or skipped.

    `holder_id` names the row that outranked the write; `superseded_ids` the rows this
    write replaced; `redacted` the kinds of secret removed from the content.
    """

    status: Literal["written", "skipped"]
    action: ItemAction | None = None
    item: MemoryItem | None = None
    superseded_ids: tuple[str, ...] = ()
    redacted: tuple[str, ...] = ()
    truncated: bool = False
    reason: ItemSkipReason | None = None
    holder_id: str | None = None

    @property
    def written(self) -> bool:
        return self.status == "written"


class ItemFilters(Frozen):
    """What `ItemStore.list` returns; private items only with `include_private`."""

    workspace_id: str | None = None
    scope: Scope | None = None
    scope_ref: str | None = None
    kind: Kind | None = None
    status: Status | Literal["any"] = "active"
    task_id: str | None = None
    subject_key: str | None = None
    include_private: bool = False
    limit: int | None = Field(default=None, ge=1)


class ItemDetail(Frozen):
    """One item and the revisions it replaced, newest first (walking `supersedes_id`)."""

    item: MemoryItem
    chain: tuple[MemoryItem, ...] = ()


class ItemChange(Frozen):
    """What a change listener hears after a commit (reference §3 step 8)."""

    kind: Literal["ingest", "status", "purge", "retention"]
    item_ids: tuple[str, ...]
    workspace_id: str | None = None
    scope: Scope | None = None


class RetentionReport(Frozen):
    """Rows one retention run dropped, by rule."""

    ran_at: datetime
    tombstones: int = 0
    expired: int = 0
    revisions: int = 0

    @property
    def total(self) -> int:
        return self.tombstones + self.expired + self.revisions


class PurgeReport(Frozen):
    """Rows a purge deleted, and rows that survived with their task link cleared."""

    deleted: int = 0
    detached: int = 0


def candidate(**fields: Any) -> ItemCandidate:
    """Build an `ItemCandidate`, turning a validation failure into `InvalidArgument`.

    For API edges and the CLI: the message lists each bad field and, for a vocabulary
    field, the allowed values.
    """
    try:
        return ItemCandidate(**fields)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'candidate'}: {err['msg']}"
            for err in exc.errors()
        )
        raise InvalidArgument(f"invalid memory item: {problems}") from exc
