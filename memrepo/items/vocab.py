"""The vocabularies of memory_items and the trust order, checked in code (not in SQL).

The `Literal` types live in `memrepo.models.items` (the public models); this module
gives the same values as tuples for code that iterates them, and ranks sources.
"""

from __future__ import annotations

from typing import get_args

from memrepo.errors import InvalidArgument
from memrepo.models.items import Kind, Privacy, Scope, Source, Status

KINDS: tuple[Kind, ...] = get_args(Kind)
SCOPES: tuple[Scope, ...] = get_args(Scope)
#: High to low trust: a newer statement of equal or higher trust wins, lower is outranked.
SOURCES: tuple[Source, ...] = get_args(Source)
STATUSES: tuple[Status, ...] = get_args(Status)
PRIVACY: tuple[Privacy, ...] = get_args(Privacy)

#: Sources `purge_task(purge_derived=True)` removes with the task that produced them.
DERIVED_SOURCES: frozenset[Source] = frozenset({"inferred", "third_party", "system"})

#: source_ref stores that name where a fact was read (a `--source` URL), not a record:
#: many facts share one, so they are provenance only. A write carrying one is never an
#: edit of the rows that carry it, and no status change selects rows by it.
LINK_STORES: frozenset[str] = frozenset({"link"})

#: source_ref alias stores that hold one value per record (a commitment's due date):
#: a newer statement's value replaces the old one instead of joining it.
SINGLE_VALUED_STORES: frozenset[str] = frozenset({"due"})

_RANK: dict[str, int] = {source: len(SOURCES) - i for i, source in enumerate(SOURCES)}


def trust_rank(source: str) -> int:
    """A number that grows with trust (user_stated highest, third_party lowest)."""
    try:
        return _RANK[source]
    except KeyError:
        allowed = ", ".join(SOURCES)
        raise InvalidArgument(f"unknown source {source!r}; allowed: {allowed}") from None


def outranks(holder: str, challenger: str) -> bool:
    """True when `holder` ranks strictly higher, so `challenger` may not replace it."""
    return trust_rank(holder) > trust_rank(challenger)
