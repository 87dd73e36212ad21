"""Models of recall: ranked hits with provenance, and the result of one recall."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from memrepo.models._base import Frozen

Detail = Literal["snippet", "full"]


def due_label(due: str) -> str:
    """A due day as a person reads it beside a memory: `Friday 2026-12-11` (as it is
    when it is not an ISO day)."""
    try:
        day = date.fromisoformat(due[:10])
    except ValueError:
        return due
    return f"{day.strftime('%A')} {day.isoformat()}"


class Provenance(Frozen):
    """Where a hit comes from, so an agent can cite it and a person can check it."""

    repo: str = "main"
    path: str | None = None
    line: int | None = None
    commit: str | None = None
    by: str | None = None
    added: str | None = None
    source: str | None = None
    trust: str | None = None
    uncommitted: bool = False
    #: A commitment's due day (YYYY-MM-DD).
    due: str | None = None


class Explanation(Frozen):
    """Why a hit came up (``recall(..., explain=True)``), in the order the score is made.

    `matched` names the query words that met each part of the entry: its own `text`
    (and subject), its `context` (neighbours, heading, description), its `date` terms
    and its `label`. `index_score` is the lane's BM25F score and `term_scores` what each
    matched index term gave it (``field:term``, before the query's own boosts: a date the
    query names weighs `DATE_BOOST`, a word the last one may complete half); `label_boost`
    multiplied it when the
    query named the entry's label. `lanes` are each lane's fused contribution
    (weight / (60 + rank)), `reader_boost` the factor for the reader's own workspace,
    task or contact; their product summed is `score`.
    """

    matched: dict[str, list[str]] = Field(default_factory=dict)
    index_score: float | None = None
    term_scores: dict[str, float] = Field(default_factory=dict)
    label_boost: float = 1.0
    lanes: dict[str, float] = Field(default_factory=dict)
    reader_boost: float = 1.0
    score: float = 0.0
    #: With a calibrated lane (the meaning lane, issue #29) the score is a blend: this
    #: lexical relevance (0-1) plus each such lane's share in `lanes`, made from its own
    #: score here (a cosine) rescaled over the candidates.
    lexical: float | None = None
    calibrated: dict[str, float] = Field(default_factory=dict)


class RecallHit(Frozen):
    """One fused hit. `relevance` is the score relative to the best hit (1.0 for it)."""

    ref: str
    lane: str
    text: str
    snippet: str
    relevance: float
    score: float
    provenance: Provenance
    tainted: bool = False
    tokens: int
    lane_ranks: dict[str, int] = Field(default_factory=dict)
    content: str | None = None
    explain: Explanation | None = None
    #: The workspace a recall over the whole memory found it in (`recall_everywhere`);
    #: None for what every workspace sees, and for a recall scoped as an agent's is.
    workspace: str | None = None


class RecallResult(Frozen):
    """The ranked hits of one recall, and any lane that failed (recall raises when all do)."""

    query: str
    hits: tuple[RecallHit, ...] = ()
    lane_errors: dict[str, str] = Field(default_factory=dict)


class ReindexReport(Frozen):
    """What a full rebuild indexed."""

    documents: int
    folder_entries: int
    items: int
    seconds: float


class MeaningStatus(Frozen):
    """The meaning lane of one memory root (issue #29): `memrepo meaning` prints it."""

    enabled: bool
    model: str | None = None
    #: Entries and items with a vector, and those the index holds without one yet.
    embedded: int = 0
    waiting: int = 0
    #: Bytes the vectors take under `.git/memrepo/meaning` (kept while the lane is off).
    vectors_bytes: int = 0
    #: Why the lane cannot be used now (recall answers by words alone), or None.
    problem: str | None = None
