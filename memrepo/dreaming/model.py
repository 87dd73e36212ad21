"""The dream model seam: what a model is shown and what it may answer.

A model sees the entries (each under a handle), the file list and the caller's recent
notes, and answers with operations on those handles. The answer is validated by pydantic
and then screened whole (`screen.ops_from_answer`): one bad operation rejects the answer,
nothing of it is applied. Memory text is data for the model, never instructions.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from memrepo.dreaming.snapshot import Snapshot
from memrepo.models.dream import RecentNote

#: Below this stated confidence a model's proposal goes to review, never to main.
LOW_CONFIDENCE = 0.7


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ModelOp(_Strict):
    """One operation as a model writes it (entries by handle)."""

    op: Literal["add", "remove", "merge", "rewrite", "move"]
    entries: tuple[str, ...] = ()
    path: str | None = None
    text: str | None = None
    to: str | None = None
    reason: str = Field(min_length=1)
    sources: tuple[str, ...] = ()
    confidence: float = Field(default=1.0, ge=0.0, le=1.0, allow_inf_nan=False)


class ModelAnswer(_Strict):
    """A model's whole answer."""

    ops: tuple[ModelOp, ...] = ()


class ShownEntry(_Strict):
    """An entry as the model sees it."""

    handle: str
    path: str
    text: str
    metadata: dict[str, str]


class DreamRequest(_Strict):
    """Everything a model is given."""

    today: date
    files: tuple[str, ...]
    entries: tuple[ShownEntry, ...]
    recent_notes: tuple[RecentNote, ...] = ()


class DreamModel(Protocol):
    """Proposes operations over the folder; `name` is shown in reports."""

    name: str

    def propose(self, request: DreamRequest) -> ModelAnswer: ...


class OfflineModel:
    """No model: the deterministic passes alone (the default)."""

    name = "offline"

    def propose(self, request: DreamRequest) -> ModelAnswer:
        return ModelAnswer()


def request_for(snap: Snapshot, notes: tuple[RecentNote, ...]) -> DreamRequest:
    """What the model is shown of a snapshot."""
    return DreamRequest(
        today=snap.today,
        files=tuple(snap.docs),
        entries=tuple(
            ShownEntry(handle=f.handle, path=f.path, text=f.text, metadata=f.metadata)
            for f in snap.facts
        ),
        recent_notes=notes,
    )
