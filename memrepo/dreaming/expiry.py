"""Entries whose `expires` date is in the past: they are dropped.

Dropping an agent's expired entry is a safe change; a person's expired entry is still
proposed, but for review (screen.py decides), because only they know whether it still
holds.
"""

from __future__ import annotations

from datetime import date

from memrepo.dreaming.ops import make_op
from memrepo.dreaming.snapshot import Fact, Snapshot
from memrepo.models.dream import Op


def find_expired(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One remove per entry whose `expires` is before today (the day itself still counts)."""
    ops: list[Op] = []
    for fact in snap.with_expiry:
        expires = _expiry(fact)
        if expires is None or expires >= snap.today or fact.key in claimed:
            continue
        claimed.add(fact.key)
        ops.append(
            make_op(
                "remove",
                "expiry",
                fact.path,
                f"expired on {expires.isoformat()}",
                targets=[fact.ref],
                sources=_source(fact),
            )
        )
    return ops


def _expiry(fact: Fact) -> date | None:
    value = fact.metadata.get("expires", "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None  # a hand-written "expires: soon" is not a date we act on


def _source(fact: Fact) -> tuple[str, ...]:
    source = fact.metadata.get("source", "")
    return (source,) if source else ()
