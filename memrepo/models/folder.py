"""Models of the memory folder: write results, entries, commits, lint.

They are pydantic models so results validate at the boundary and serialize the same way
for the CLI, the MCP server and a host application.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from memrepo.models._base import Frozen
from memrepo.models.constants import By as By
from memrepo.models.constants import SkipReason as SkipReason
from memrepo.models.constants import WriteAction as WriteAction
from memrepo.models.sync import SyncStatus

EntryAction = Literal["added", "changed", "moved", "removed"]


class WriteResult(Frozen):
    """What `remember` did: written (inserted, reinforced, superseded, updated), skipped,
    or held for a person's approval (`ref` is then `held:<id>`, reference §8.7).

    `store` says where it went: the folder (a commit) or memory_items (a `memory:` ref,
    never a commit: contact, task and private facts stay out of git).
    """

    status: Literal["written", "skipped", "held"]
    store: Literal["folder", "items"] = "folder"
    action: WriteAction | None = None
    reason: SkipReason | None = None
    ref: str | None = None
    path: str | None = None
    commit: str | None = None
    redacted: tuple[str, ...] = ()
    truncated: bool = False

    @property
    def written(self) -> bool:
        return self.status == "written"


class EntryView(Frozen):
    """One entry of the folder as a reader sees it (line is 1-based, as editors count).

    `uncommitted` marks an entry a person typed that no commit holds yet (the next write
    records it as their edit): every view shows the files as they are on disk.
    """

    ref: str
    id: str
    path: str
    line: int
    text: str
    metadata: dict[str, str] = Field(default_factory=dict)
    links: tuple[str, ...] = ()
    uncommitted: bool = False


class CommitInfo(Frozen):
    """One commit of the memory repo with the memrepo trailers decoded."""

    id: str
    summary: str
    message: str
    author: str
    time: datetime
    origin: str | None = None
    by: str | None = None
    task: str | None = None
    undoes: str | None = None
    paths: tuple[str, ...] = ()


class ForgetResult(Frozen):
    """What `forget` removed: a folder entry (with its commit) or a memory item."""

    ref: str
    text: str
    store: Literal["folder", "items"] = "folder"
    path: str | None = None
    commit: str | None = None


class UndoResult(Frozen):
    """The commit `undo` reversed and the new commit that reversed it; `whose` says
    whose change that was, as a person reads it ("your own hand edit", "the agent's write
    (origin remember, task t-7)"), with the undone commit's summary, origin and by."""

    undone: str
    commit: str
    paths: tuple[str, ...]
    entries_removed: int
    entries_restored: int
    whose: str = ""
    summary: str = ""
    origin: str | None = None
    by: str | None = None


class HeldEditView(Frozen):
    """A hand edit memrepo leaves uncommitted (a NUL byte, bad UTF-8, a symlink, a bad
    file name, a secret): `path` as a person reads it (control characters escaped, a
    secret in the name redacted), `line` 1-based (0: the file), never a secret's value."""

    path: str
    line: int
    kind: str
    label: str
    message: str


class WorktreeStatus(Frozen):
    """Edits a person made that are not committed yet (paths relative to the root);
    `held`: the ones the next write leaves uncommitted, each with what to do."""

    root: str
    head: str | None
    modified: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    held: tuple[HeldEditView, ...] = ()
    #: Sync with the user's remote and the team repos, when either is configured
    #: (read from local state, never the network): status is never silent about it.
    sync: SyncStatus | None = None

    @property
    def clean(self) -> bool:
        return not (self.modified or self.added or self.deleted or self.held)


ProblemKind = Literal[
    "format",
    "encoding",
    "binary",
    "too_large",
    "broken_link",
    "unlisted",
    "secret",
    "missing",
    "conflict",
]
Severity = Literal["error", "warning"]


class LintProblem(Frozen):
    """One problem `lint` found; line is 1-based or None for a whole file."""

    kind: ProblemKind
    severity: Severity
    path: str
    line: int | None
    message: str


class LintReport(Frozen):
    """Every problem lint found; `ok` is false when any is an error."""

    problems: tuple[LintProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


class LintFixResult(Frozen):
    """What `lint --fix` changed (one commit, or None when nothing needed fixing) and the
    lint report of the folder after it."""

    commit: str | None = None
    #: Refs of the entries moved from below MEMORY.md's Index to above it, in file order.
    moved: tuple[str, ...] = ()
    report: LintReport


class EntryEvent(Frozen):
    """One commit in the life of a folder entry, with the trailers that say who and why."""

    action: EntryAction
    commit: str
    time: datetime
    summary: str
    path: str
    line: int
    text: str
    previous_text: str | None = None
    from_path: str | None = None
    by: str | None = None
    origin: str | None = None
    task: str | None = None
    source: str | None = None


class WhyReport(Frozen):
    """Where a memory came from: a folder entry's commits or an item's chain, in words.

    `explanation` is the plain-language answer a person reads; `events` (folder entries,
    oldest first) are the commits behind it for tools that want the structure.
    """

    ref: str
    store: Literal["folder", "items"]
    present: bool
    text: str
    explanation: str
    events: tuple[EntryEvent, ...] = ()


class EditResult(Frozen):
    """What `edit` did to one entry. `ref` is the entry's ref now (a reworded entry
    without a `subject` gets a new id); `changed` is False when the line already said
    that (no commit)."""

    ref: str
    old_ref: str
    path: str
    text: str
    changed: bool = False
    commit: str | None = None
    redacted: tuple[str, ...] = ()


class MoveResult(Frozen):
    """What `move` did: the entry left `source` for `target` in one `commit`. `merged`
    is True when `target` held the same entry already, so the line only left `source`."""

    ref: str
    old_ref: str
    source: str
    target: str
    text: str
    merged: bool = False
    commit: str | None = None


class ConfirmResult(Frozen):
    """What `confirm` did: a person vouched for a memory the agent (or an import or a
    dream) wrote, so it may stand in every prompt (L0).

    `confirmed` is False when there was nothing to confirm (already a person's word);
    a folder entry's confirmation is one undoable `commit`, an item's is not in git.
    """

    ref: str
    store: Literal["folder", "items"]
    confirmed: bool
    text: str
    commit: str | None = None
