"""Expired memory is not recalled, even before retention or a dream removes it.

Items past `expires_at` and folder entries past their `expires:` date stay in storage
until retention (items) or a dream (entries) drops them; recall, expand and L1 must
leave them out from the moment they expire, in an index that was open the whole time
and in one opened later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextRequest

pytestmark = pytest.mark.slow


@dataclass
class Clock:
    """A clock the test moves forward (the repo's `clock` seam)."""

    at: datetime

    def now(self) -> datetime:
        return self.at


DAY_2 = datetime(2026, 3, 2, 12, tzinfo=UTC)
DAY_3_LATE = datetime(2026, 3, 3, 23, 0, tzinfo=UTC)
DAY_4 = datetime(2026, 3, 4, 9, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY_2)


@pytest.fixture
def repo(tmp_path: Path, clock: Clock) -> MemoryRepo:
    made = MemoryRepo.init(tmp_path / "mem", clock=clock)
    made.remember("Parking code for the offsite is 4417", expires="2026-03-03", by="user")
    made.remember(
        "Ana is reachable at the hotel desk until Tuesday",
        contact_ref="mail:ana",
        expires="2026-03-03",
        by="user",
    )
    made.remember("Parking at the office is in level -2", by="user")
    return made


def _found(repo: MemoryRepo, query: str) -> list[str]:
    result = repo.recall(query, contact_ref="mail:ana")
    return sorted(hit.text for hit in result.hits)


def _l1(repo: MemoryRepo, query: str) -> str:
    request = ContextRequest(query=query, contact_ref="mail:ana", preview=True)
    return repo.context(request).text


def test_live_until_the_day_ends_then_gone(repo: MemoryRepo, clock: Clock) -> None:
    assert "Parking code for the offsite is 4417" in _found(repo, "parking")
    assert _found(repo, "hotel desk") == ["Ana is reachable at the hotel desk until Tuesday"]
    clock.at = DAY_3_LATE
    assert "Parking code for the offsite is 4417" in _found(repo, "parking")
    clock.at = DAY_4  # the same open index, a day later: nothing was written meanwhile
    assert _found(repo, "parking") == ["Parking at the office is in level -2"]
    assert _found(repo, "hotel desk") == []
    text = _l1(repo, "parking hotel desk")
    assert "4417" not in text and "hotel desk" not in text and "level -2" in text


def test_an_index_opened_after_the_expiry_leaves_them_out(
    repo: MemoryRepo, clock: Clock, tmp_path: Path
) -> None:
    assert len(_found(repo, "parking")) == 2  # the index is built while both are live
    repo.close()
    clock.at = DAY_4
    later = MemoryRepo.open(tmp_path / "mem", clock=clock)
    assert _found(later, "parking") == ["Parking at the office is in level -2"]
    assert _found(later, "hotel desk") == []


def test_expand_hides_an_expired_item(repo: MemoryRepo, clock: Clock) -> None:
    hits = repo.recall("hotel desk", contact_ref="mail:ana").hits
    assert len(hits) == 1
    clock.at = DAY_4
    assert repo.expand([hits[0].ref], contact_ref="mail:ana") == []


def test_an_edit_that_extends_the_expiry_brings_the_entry_back(
    repo: MemoryRepo, clock: Clock
) -> None:
    clock.at = DAY_4
    assert _found(repo, "offsite") == []
    memory = repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("expires: 2026-03-03", "expires: 2026-03-09"))
    assert _found(repo, "offsite") == ["Parking code for the offsite is 4417"]
