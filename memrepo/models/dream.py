"""Models of dreaming: proposed operations, the dream report, review branches, curation.

Operations are pydantic models because they cross boundaries: a model's JSON answer is
turned into them, they are stored (one JSON line each) in a review commit's message, and
`--json` prints them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import Field

from memrepo.models._base import Frozen

OpKind = Literal["add", "remove", "merge", "rewrite", "move", "link"]
PassName = Literal[
    "expiry",
    "duplicates",
    "near_duplicates",
    "subjects",
    "links",
    "unlisted",
    "overflow",
    "model",
]
#: Pass order (the Literal's own order): an entry claimed by an earlier pass is left alone
#: by the later ones.
PASS_ORDER: tuple[PassName, ...] = get_args(PassName)


class LineRef(Frozen):
    """A line an operation changes: its file, where it was (0-based) and its exact text.

    Operations find their lines again by text (nearest to `line`), so a review still
    applies after unrelated lines moved, and refuses when its line changed.
    """

    path: str
    line: int = Field(ge=0)
    raw: str


class Op(Frozen):
    """One proposed change with why it is proposed, what it relies on, and its class.

    `text` is the full new line (add, merge, rewrite); `dest` is the file a move goes to
    or the file a link points at. `fingerprint` identifies the change across runs: a
    rejected or undone change is never proposed again.
    """

    kind: OpKind
    found_by: PassName
    path: str
    targets: tuple[LineRef, ...] = ()
    text: str | None = None
    dest: str | None = None
    reason: str
    sources: tuple[str, ...] = ()
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    fingerprint: str = ""
    review: bool = False
    why_review: str | None = None


class RecentNote(Frozen):
    """A recent task note the caller hands to a dream (evidence and model input)."""

    text: str
    when: datetime | None = None
    source: str | None = None
    #: The workspace the note was written in: it is evidence for that workspace's
    #: commitments and the global ones, never for another workspace's (reference §5b).
    workspace: str | None = None


class BrokenLink(Frozen):
    """A `[[link]]` whose target is gone and that git's rename detection cannot place."""

    path: str
    line: int
    target: str


class CurationChange(Frozen):
    """One curation-log row: an automatic change to a memory item, undoable."""

    id: int
    fingerprint: str
    op: str
    item_id: str
    reason: str
    before: dict[str, object]
    after: dict[str, object]
    applied_at: datetime
    undone_at: datetime | None = None


class CurationReport(Frozen):
    """What one commitment-expiry sweep did (reference §5b)."""

    candidates: int = 0
    searched: int = 0
    expired: tuple[CurationChange, ...] = ()
    skipped_undone: int = 0
    capped: bool = False


class DreamReport(Frozen):
    """What a dream did: one safe commit on main, one review branch, what it left alone."""

    started_at: datetime
    dry_run: bool = False
    model: str = "offline"
    base: str = ""
    commit: str | None = None
    review: str | None = None
    safe: tuple[Op, ...] = ()
    pending_review: tuple[Op, ...] = ()
    counts: dict[str, int] = Field(default_factory=dict)
    remembered: int = 0
    broken_links: tuple[BrokenLink, ...] = ()
    curation: CurationReport | None = None


class ReviewSummary(Frozen):
    """One review branch as `review list` shows it."""

    name: str
    commit: str
    base: str
    base_on_main: bool
    created_at: datetime
    ops: int
    passes: tuple[str, ...] = ()


class ReviewDetail(Frozen):
    """A review branch with its operations (numbered from 1), a per-entry diff, and each
    operation's own diff lines (`-`, `+`, `=`) for a page that draws them per operation."""

    summary: ReviewSummary
    ops: tuple[Op, ...]
    diff: str
    op_lines: tuple[tuple[str, ...], ...] = ()


class AcceptResult(Frozen):
    """The commit an accepted review made on main, what was accepted, and what still
    waits on the review branch for a decision (`pending`). `rejected` stays empty:
    accepting part of a review rejects nothing (issue #31)."""

    name: str
    commit: str | None
    accepted: tuple[str, ...]
    rejected: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()


class RejectResult(Frozen):
    """Rejected operations of a review (their fingerprints remembered, never proposed
    again) and those still pending on its branch (none: the branch is deleted)."""

    name: str
    rejected: tuple[str, ...]
    pending: tuple[str, ...] = ()


class DreamStatus(Frozen):
    """The last dream, for health: when, what it found, and reviews still waiting."""

    last_at: datetime | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    commit: str | None = None
    review: str | None = None
    pending_reviews: tuple[str, ...] = ()
    #: Merges of exact duplicates a person rejected: each its lines, "path\x00normalized
    #: text", sorted. `health` does not suggest a dream for those copies again.
    declined_duplicates: tuple[tuple[str, ...], ...] = ()
