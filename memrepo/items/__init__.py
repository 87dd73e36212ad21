"""memory_items: the SQLite store of contact, task and private facts (docs/architecture.md §5).

`ItemStore` owns the one connection and is the only code that writes the database;
`ItemWriter` is the pipeline every producer's facts go through (screen, redact, policy,
dedupe, supersede, persist, hot version, listeners) plus status changes, retention and
purges. Models live in `memrepo.models.items`.

Names load on first use (PEP 562): `memrepo.items.vocab` is needed by every write's
routing, the store and writer only when an item is actually touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memrepo.lazy import load_attribute

if TYPE_CHECKING:
    from memrepo.items.db import DB_NAME as DB_NAME
    from memrepo.items.db import DEFAULT_BUSY_TIMEOUT as DEFAULT_BUSY_TIMEOUT
    from memrepo.items.policy import (
        SettingsLookup as SettingsLookup,
    )
    from memrepo.items.policy import (
        default_settings as default_settings,
    )
    from memrepo.items.schema import SCHEMA_VERSION as SCHEMA_VERSION
    from memrepo.items.store import ItemStore as ItemStore
    from memrepo.items.vocab import (
        KINDS as KINDS,
    )
    from memrepo.items.vocab import (
        PRIVACY as PRIVACY,
    )
    from memrepo.items.vocab import (
        SCOPES as SCOPES,
    )
    from memrepo.items.vocab import (
        SOURCES as SOURCES,
    )
    from memrepo.items.vocab import (
        STATUSES as STATUSES,
    )
    from memrepo.items.vocab import (
        trust_rank as trust_rank,
    )
    from memrepo.items.writer import ItemWriter as ItemWriter
    from memrepo.items.writer import content_hash as content_hash

_HOMES = {
    "DB_NAME": "db",
    "DEFAULT_BUSY_TIMEOUT": "db",
    "KINDS": "vocab",
    "PRIVACY": "vocab",
    "SCHEMA_VERSION": "schema",
    "SCOPES": "vocab",
    "SOURCES": "vocab",
    "STATUSES": "vocab",
    "ItemStore": "store",
    "ItemWriter": "writer",
    "SettingsLookup": "policy",
    "content_hash": "writer",
    "default_settings": "policy",
    "trust_rank": "vocab",
}

__all__ = sorted(_HOMES)


_MODULES = {name: f"memrepo.items.{home}" for name, home in _HOMES.items()}


def __getattr__(name: str) -> Any:
    return load_attribute(__name__, name, _MODULES, globals())
