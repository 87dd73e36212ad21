"""Entries whose `expires` date is in the past: they are dropped.

Dropping an agent's expired entry is a safe change; a person's expired entry is still
proposed, but for review (screen.py decides), because only they know whether it still
holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from memrepo.dreaming.ops import make_op
from memrepo.dreaming.snapshot import Snapshot
from memrepo.models.dream import Op


def find_expired(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One remove per entry whose `expires` is before today (the day itself still counts)."""
    ops: list[Op] = []
    for fact in snap.with_expiry:
        metadata = fact.metadata  # decoded on each use: once here
        expires = _expiry(metadata)
        if expires is None or expires >= snap.today or fact.key in claimed:
            continue
        claimed.add(fact.key)
        source = metadata.get("source", "")
        ops.append(
            make_op(
                "remove",
                "expiry",
                fact.path,
                f"expired on {expires.isoformat()}",
                targets=[fact],
                sources=(source,) if source else (),
            )
        )
    return ops


def _expiry(metadata: Mapping[str, str]) -> date | None:
    value = metadata.get("expires", "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None  # a hand-written "expires: soon" is not a date we act on
