"""Dreaming (docs/architecture.md §11): cleanups of the memory folder as one undoable
commit, the rest on a review branch.

Deterministic passes, one module each (`expiry`, `duplicates`, `subjects`, `links`,
`unlisted`, `overflow`), plus a pluggable model (`model.DreamModel`; `OfflineModel` by
default, `openai.OpenAIModel` for an OpenAI-compatible endpoint). `run.dream` plans and
writes; `review` lists, shows, accepts and rejects review branches; `state` remembers
what was rejected or undone. Commitment expiry for memory_items lives in
`memrepo.items.curation`.
"""

from __future__ import annotations

from memrepo.dreaming.model import DreamModel, DreamRequest, ModelAnswer, ModelOp, OfflineModel

__all__ = ["DreamModel", "DreamRequest", "ModelAnswer", "ModelOp", "OfflineModel"]
