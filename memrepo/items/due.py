"""A commitment's due day, where memory_items keep it: the `due` entry of the item's
source_ref aliases (`{"store": "due", "id": "YYYY-MM-DD"}`, one per item: a newer one
replaces it). Its own module, light to import: recall and the prompt show the day, and a
one-shot recall must not load commitment expiry to do so."""

from __future__ import annotations

import hashlib
from datetime import date

from memrepo.formats.text import normalize_text
from memrepo.models.items import MemoryItem

DUE_STORE = "due"


def due_date(item: MemoryItem) -> date | None:
    """The commitment's due date from its source_ref aliases, if it has one."""
    if item.source_ref is None:
        return None
    for alias in item.source_ref.aliases:
        if alias.store == DUE_STORE:
            try:
                return date.fromisoformat(alias.id)
            except ValueError:
                return None
    return None


def commitment_id(text: str) -> str:
    """A commitment's own source id (`{"store": "commitment", "id": ...}`) when it has no
    source of its own: its normalised text, hashed, so stating it again with another due
    date edits the same item."""
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()[:16]
