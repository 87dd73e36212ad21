"""The base of the result models: frozen, no unknown fields, built on first use.

Pydantic builds a model's validator and serializer when its class is created, unless
`defer_build` says to wait for the first validation. A command imports a whole module of
models for the few it prints (`memrepo recall` the recall results, never the edit or lint
results beside them), so with it the others cost a class statement each, not a schema
build (`tests/test_startup.py` keeps the startup path light).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen"]


class Frozen(BaseModel):
    """A value a caller reads and never changes: API results, `--json`, tool schemas."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
