"""Models of export, restore and import results (what the API returns, what --json prints)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, computed_field

from memrepo.models._base import Frozen

ExportFormat = Literal["bundle", "jsonl"]
ImportFormat = Literal["claude-code", "letta", "mem0", "openmemory", "jsonl"]


class ExportResult(Frozen):
    """What `export` wrote: a bundle counts branches and commits, a jsonl export entries;
    both count items. `uncommitted` lists edits people left uncommitted, which an export
    of git history does not carry: commit them (any memrepo write does) first."""

    path: str
    format: ExportFormat
    encrypted: bool
    include_private: bool
    bytes: int
    head: str | None = None
    branches: int = 0
    commits: int = 0
    entries: int = 0
    items: int = 0
    uncommitted: tuple[str, ...] = ()
    #: Active private items this export leaves out (`include_private` brings them,
    #: encrypted): said so a person never thinks a backup holds what it does not.
    private_left_out: int = 0


class RestoreResult(Frozen):
    """The memory repo `restore` created: its root, main's commit, branches and items."""

    root: str
    head: str
    branches: int
    items: int
    encrypted: bool


class ImportProblem(Frozen):
    """Input that was not imported: where (path, 1-based line when known), why, and how."""

    path: str
    line: int | None = None
    reason: str
    message: str


class ImportReport(Frozen):
    """What an import did: rows read, the facts among them, written (folder entries and
    items), reinforced (already there), skipped by reason, the problems found in the
    input and the commit. Every row is written, reinforced or skipped:
    `rows == written + reinforced + skipped_total`, in a dry run as in the real one.

    `problems` holds the first 100 problems; `problem_count` counts them all.
    `workspace` is the workspace facts without one of their own were filed under.
    """

    format: ImportFormat
    source: str
    dry_run: bool = False
    workspace: str | None = None
    rows: int = 0
    facts: int = 0
    written: int = 0
    reinforced: int = 0
    items_written: int = 0
    skipped: dict[str, int] = Field(default_factory=dict)
    problems: tuple[ImportProblem, ...] = ()
    problem_count: int = 0
    commit: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def skipped_total(self) -> int:
        """Rows skipped, whatever the reason."""
        return sum(self.skipped.values())

    @computed_field  # type: ignore[prop-decorator]
    @property
    def imported(self) -> int:
        """Rows memrepo now holds from this source: written now or already known."""
        return self.written + self.reinforced
