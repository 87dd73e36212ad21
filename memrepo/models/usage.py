"""Who last put a memory in a prompt (`memrepo.items.usage`)."""

from __future__ import annotations

from datetime import datetime

from memrepo.models._base import Frozen


class MemoryUse(Frozen):
    """The newest use of one memory: when a prompt or a quote carried it, and the agent
    that did ('' when its host gave no name)."""

    ref: str
    at: datetime
    agent: str = ""
