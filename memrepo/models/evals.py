"""Models of the recall-quality gate: the fixture schema and the report of a run.

A fixture file (``memrepo/evals_data/<category>.json``) is one :class:`EvalCategory`: the repo
content to build (committed files, ``remember`` calls, workspace settings, team repos,
swarm tasks and notes, later hand commits, uncommitted edits) and the cases to run
against it. Expectations are substrings of hit texts, because refs depend on hashes; a
*leak* is any ``must_not`` text in a hit.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from memrepo.models._base import Frozen
from memrepo.models.constants import By

FileText = str | list[str]
"""A file's content: one string, or a list of lines (joined with newlines, plus a final
newline) so fixtures stay readable."""


class RememberStep(Frozen):
    """One ``MemoryRepo.remember`` call of a setup (only the routing-relevant kwargs)."""

    text: str
    workspace: str | None = None
    private: bool = False
    contact_ref: str | None = None
    scope: str | None = None
    task_id: str | None = None
    source_kind: str | None = None
    subject: str | None = None
    by: By = "user"
    file: str | None = None
    kind: str | None = None
    source: str | None = None


class WorkspaceStep(Frozen):
    """One ``MemoryRepo.set_workspace`` call, applied before any ``remember``."""

    workspace: str
    memory: bool | None = None
    privacy: Literal["normal", "strict", "disabled"] | None = None


class TeamRepo(Frozen):
    """A team memory repo, published by a teammate to a local bare repo (no network).

    ``files`` are on the team's main when this memory adds the team; ``later`` files
    (written over the earlier ones) are pushed afterwards and reach this memory through
    ``sync``, so a case can check that recall follows the team's new main.
    """

    files: dict[str, FileText]
    later: dict[str, FileText] = Field(default_factory=dict)


class TaskStep(Frozen):
    """One task of the local task registry; tasks sharing a root share its swarm."""

    id: str
    title: str
    parent: str | None = None


class SwarmNoteStep(Frozen):
    """One ``MemoryRepo.swarm_note`` call. An answer names the *text* of an earlier
    question note of the same setup (refs depend on hashes)."""

    task_id: str
    kind: Literal["finding", "ruled_out", "question", "answer"]
    text: str
    sources: list[str] = Field(default_factory=list)
    author: str | None = None
    tainted: bool = False
    answers: str | None = None


class EvalSetup(Frozen):
    """The memory a category's cases run against, built in this order:

    1. ``files`` written and committed with plain git (as a person would), then the memory
       repo is opened over them;
    2. ``settings`` (workspace settings);
    3. ``teams`` (name -> :class:`TeamRepo`) published and added with ``team_add``;
    4. ``tasks`` registered in the local task registry, in order (a parent first);
    5. ``remember`` calls, in order;
    6. ``swarm_notes``, in order;
    7. the teams' ``later`` files pushed, then one ``sync`` fetches them;
    8. ``committed_after``: files written and committed with plain git after memrepo has
       indexed, so the index must follow HEAD;
    9. ``uncommitted``: files left in the working tree without a commit.
    """

    files: dict[str, FileText] = Field(default_factory=dict)
    settings: list[WorkspaceStep] = Field(default_factory=list)
    teams: dict[str, TeamRepo] = Field(default_factory=dict)
    tasks: list[TaskStep] = Field(default_factory=list)
    remember: list[RememberStep] = Field(default_factory=list)
    swarm_notes: list[SwarmNoteStep] = Field(default_factory=list)
    committed_after: dict[str, FileText] = Field(default_factory=dict)
    uncommitted: dict[str, FileText] = Field(default_factory=dict)


class CaseOptions(Frozen):
    """The recall arguments of a case besides the query."""

    workspace: str | None = None
    include_private: bool = False
    contact_ref: str | None = None
    task_id: str | None = None
    min_trust: str = "inferred"
    lanes: list[str] | None = None


class EvalCase(Frozen):
    """One query, what its answer must contain (``expect``) and must never contain.

    With ``ordered``, the expected texts must also rank in the order listed (say, an
    own-folder fact above the team fact it contradicts); a case that finds them in
    another order is *misordered*, which fails a run like a leak does.
    """

    id: str
    query: str
    options: CaseOptions = Field(default_factory=CaseOptions)
    expect: list[str] = Field(default_factory=list)
    must_not: list[str] = Field(default_factory=list)
    ordered: bool = False
    note: str = ""

    @field_validator("expect", "must_not")
    @classmethod
    def _no_empty_text(cls, value: list[str]) -> list[str]:
        if any(not text.strip() for text in value):
            raise ValueError("an expectation must be a non-empty substring of a hit text")
        return value

    @model_validator(mode="after")
    def _order_needs_two(self) -> EvalCase:
        if self.ordered and len(self.expect) < 2:
            raise ValueError("ordered needs at least two expected texts to order")
        return self


class EvalCategory(Frozen):
    """One fixture file: a category of cases over one repo setup."""

    category: str
    description: str
    setup: EvalSetup = Field(default_factory=EvalSetup)
    cases: list[EvalCase]


# --- results ---------------------------------------------------------------------------


class Leak(Frozen):
    """A ``must_not`` text that appeared in a hit (`rank` is 1-based)."""

    case_id: str
    text: str
    rank: int
    ref: str


class CaseResult(Frozen):
    """How one case went. ``ranks`` holds, per expected text, the 1-based rank of the
    first hit containing it (None when it is not within the limit). ``hits`` previews the
    hit texts only when the case missed, ranked an expectation below first, or leaked.
    ``misordered``: an ``ordered`` case found its expectations out of the listed order
    (an expectation not found at all is a miss, not a misorder)."""

    id: str
    category: str
    query: str
    ranks: list[int | None] = Field(default_factory=list)
    recall_at_1: float | None = None
    recall_at_5: float | None = None
    recall_at_10: float | None = None
    reciprocal_rank: float | None = None
    leaks: list[Leak] = Field(default_factory=list)
    misordered: bool = False
    error: str | None = None
    hits: list[str] = Field(default_factory=list)


class Failure(Frozen):
    """A case whose recall raised (or reported a failed lane), with the message."""

    case_id: str
    message: str


class CategoryScore(Frozen):
    """Metrics of one category (or of every case, for ``overall``).

    Recall@k and MRR are averaged over the ``scored`` cases (those with expectations);
    they are None when there are none.
    """

    category: str
    cases: int
    scored: int
    recall_at_1: float | None
    recall_at_5: float | None
    recall_at_10: float | None
    mrr: float | None
    leaks: int
    failures: int
    misordered: int = 0


class EvalReport(Frozen):
    """The result of one eval run: per-category rows, the overall row, leaks, failures."""

    limit: int
    categories: list[CategoryScore]
    overall: CategoryScore
    leaks: list[Leak] = Field(default_factory=list)
    failures: list[Failure] = Field(default_factory=list)
    misordered: list[str] = Field(default_factory=list)
    cases: list[CaseResult] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No leak, no failed and no misordered case (the recall threshold is the
        caller's choice)."""
        return not self.leaks and not self.failures and not self.misordered
