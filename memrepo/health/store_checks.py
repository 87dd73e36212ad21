"""Checks of the memory_items database: its size and its duplicate rate.

A memory root that never stored a contact, task or private fact has no database file;
both checks are then SKIP (creating an empty file just to measure it would be a write).
"""

from __future__ import annotations

from memrepo.health.grading import graded, plural, skipped
from memrepo.health.readings import HealthContext
from memrepo.models.health import HealthCheck

MIB = 1024 * 1024
_NO_STORE = "no memory_items database yet (created by the first private, contact or task fact)"


def _unreadable(name: str, error: str, level: str) -> HealthCheck:
    return HealthCheck(
        name=name,
        status="FAIL" if level == "FAIL" else "WARN",
        detail=error,
        fix="move the file aside (memrepo starts an empty store) or restore a backup",
    )


def database_size(ctx: HealthContext) -> HealthCheck:
    """The file plus its WAL, against the size a laptop should not have to carry."""
    facts = ctx.store
    if not facts.present:
        return skipped("database_size", _NO_STORE)
    mib = facts.size_bytes / MIB
    return graded(
        "database_size",
        mib,
        ctx.limits.database_size,
        unit="MiB",
        detail=f"{facts.path.name} is {mib:.2f} MiB",
        fix="memrepo retention drops tombstones, expired and old superseded items",
    )


def items_duplicates(ctx: HealthContext) -> HealthCheck:
    """Active items whose normalized text another active item already holds for the same
    reader (same workspace and scope ref: a contact, a task). The store refuses that within
    one scope and kind, not across kinds or scopes. The same text about two contacts is
    two facts, not a duplicate."""
    facts = ctx.store
    if not facts.present:
        return skipped("items_duplicates", _NO_STORE)
    if facts.error is not None:
        return _unreadable("items_duplicates", facts.error, ctx.limits.items_duplicates.level)
    rate = 100 * facts.duplicates / facts.active if facts.active else 0.0
    return graded(
        "items_duplicates",
        rate,
        ctx.limits.items_duplicates,
        unit="%",
        detail=f"{facts.duplicates} of {plural(facts.active, 'active item')} repeat another",
        fix="memrepo items list shows them; forget the extra copies",
    )
