"""What one `remember` asks for: the request model of the write pipeline (§3).

`remember` grew one keyword per routing and metadata concern; the request gathers them
so the pipeline passes one value between its steps, and a host that builds writes in
one place (an importer, a queue) can hand them over whole, as `context()` takes a
`ContextRequest`. A plain dataclass, not a pydantic model: the engine checks each value
with its own one-line error (`InvalidArgument`, `SecretInName`), and the hot write path
pays for no second validation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TypedDict

__all__ = ["RememberOptions", "RememberRequest"]


class RememberOptions(TypedDict, total=False):
    """The keyword arguments of `MemoryRepo.remember` (see `RememberRequest`)."""

    file: str | None
    workspace: str | None
    subject: str | None
    source: str | None
    kind: str | None
    by: str
    task_id: str | None
    no_memory: bool
    origin_text: str | None
    expires: str | date | None
    due: str | date | None
    tainted: bool
    origin: str
    author: str | None
    contact_ref: str | None
    scope: str | None
    private: bool
    source_kind: str | None
    pinned: bool
    via_agent: bool
    approved: bool


@dataclass(frozen=True, kw_only=True)
class RememberRequest:
    """One fact to remember and everything that decides where and how it is stored.

    `file`/`workspace` say where a folder entry goes (default MEMORY.md); `contact_ref`,
    `scope="task"`, `private` and a strict-privacy workspace send it to memory_items;
    `by` is who states it and `source_kind` the trust of the statement (user_stated ...
    third_party; without it, `by` implies it); `no_memory` and `origin_text` let the
    screen honour "don't remember this"; `expires` is a YYYY-MM-DD day; `due` makes it a
    commitment due that day (a date, or words: `friday`, `in 2 weeks`); `tainted`
    marks text that came from outside the conversation; `origin` names the path it came
    by (remember, import, feedback...).
    """

    text: str
    file: str | None = None
    workspace: str | None = None
    subject: str | None = None
    source: str | None = None
    kind: str | None = None
    by: str = "agent"
    task_id: str | None = None
    no_memory: bool = False
    origin_text: str | None = None
    expires: str | date | None = None
    due: str | date | None = None
    tainted: bool = False
    origin: str = "remember"
    author: str | None = None
    contact_ref: str | None = None
    scope: str | None = None
    private: bool = False
    source_kind: str | None = None
    pinned: bool = False
    #: Written through the agent's tools (a workspace that holds `all` of the agent's
    #: writes holds it even when the user asked for it); `approved`: a person approved
    #: this held write, so it lands now.
    via_agent: bool = False
    approved: bool = False
