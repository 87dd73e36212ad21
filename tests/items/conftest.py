"""Fixtures for memory_items: a real SQLite file under tmp_path and a clock we move."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memrepo.items import ItemStore, ItemWriter
from memrepo.models.items import ItemCandidate, WorkspacePolicy

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@dataclass
class SteppingClock:
    """A clock that stands still until a test moves it."""

    at: datetime = START

    def now(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> datetime:
        self.at += timedelta(**delta)
        return self.at


@dataclass
class Settings:
    """Workspace settings a test can change; unknown workspaces get the defaults."""

    policies: dict[str, WorkspacePolicy] = field(default_factory=dict)

    def __call__(self, workspace_id: str) -> WorkspacePolicy:
        return self.policies.get(workspace_id, WorkspacePolicy())


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "repo" / ".git" / "memrepo"


@pytest.fixture
def store(state_dir: Path) -> Iterator[ItemStore]:
    opened = ItemStore.open(state_dir, busy_timeout=2.0)
    yield opened
    opened.close()


@pytest.fixture
def writer(store: ItemStore, clock: SteppingClock, settings: Settings) -> Iterator[ItemWriter]:
    made = ItemWriter(store, clock, settings)
    yield made
    made.close()


def cand(content: str, **fields: Any) -> ItemCandidate:
    """A candidate with the defaults of ItemCandidate."""
    return ItemCandidate(content=content, **fields)


def raw(store: ItemStore) -> sqlite3.Connection:
    """A second, plain sqlite3 connection to the store's file (to poke at it directly)."""
    conn = sqlite3.connect(store.path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn
