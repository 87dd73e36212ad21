"""What the readers of other agents' memory produce: facts, and input they had to reject."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact read from another tool's memory, with where it was found.

    `path` is relative to the imported folder (or the file's name); `line` is 1-based.
    `anchor` replaces `L<line>` in the fact's source when a line number means nothing
    (a memory of a JSON document is named by its id). `key` is the fact's identity
    upstream (a mem0 memory id, a Claude Code memory file), which is how a later import
    tells a deleted fact from a moved one; without it the path and text are the identity.
    `meta` is what the source said about the fact that memrepo keeps on the entry as it
    is (a description, categories, a block's limit, the headings above a bullet).
    The other optional fields are what the source said; the import pipeline decides what
    they mean here (subject, kind, dates as YYYY-MM-DD, routing hints for private facts).
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
    expires: str | None = None
    anchor: str | None = None
    key: str | None = None
    meta: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Rejected:
    """Input that was not read as a fact: where, a machine reason, and a message.

    A `quiet` rejection is input that is not a fact by design (a `Last name: ?`
    placeholder, a template's lead-in): it is counted as skipped, not listed as a problem.
    """

    path: str
    line: int | None
    reason: str
    message: str
    quiet: bool = False
