"""What the readers of other agents' memory produce: facts, and input they had to reject."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact read from another tool's memory, with where it was found.

    `path` is relative to the imported folder (or the file's name); `line` is 1-based.
    The optional fields are what the source said; the import pipeline decides what they
    mean here (subject, kind, dates as YYYY-MM-DD, routing hints for private facts).
    """

    text: str
    path: str
    line: int
    subject: str | None = None
    kind: str | None = None
    created: str | None = None
    user_id: str | None = None
    agent_id: str | None = None
    workspace: str | None = None
    contact: str | None = None
    task_id: str | None = None
    scope: str | None = None
    private: bool = False


@dataclass(frozen=True, slots=True)
class Rejected:
    """Input that was not read as a fact: where, a machine reason, and a message."""

    path: str
    line: int | None
    reason: str
    message: str
