"""Time and identity seams, so tests are deterministic without patching."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Source of the current time (timezone-aware)."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class FixedClock:
    """A clock that always says the same time; for tests and reproducible demos."""

    at: datetime

    def now(self) -> datetime:
        return self.at


@dataclass(frozen=True, slots=True)
class Identity:
    """Who commits: memrepo writes as this author and committer."""

    name: str = "memrepo"
    email: str = "memrepo@localhost"
