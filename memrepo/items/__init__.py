"""memory_items: the SQLite store of contact, task and private facts (DESIGN §5).

`ItemStore` owns the one connection and is the only code that writes the database;
`ItemWriter` is the pipeline every producer's facts go through (screen, redact, policy,
dedupe, supersede, persist, hot version, listeners) plus status changes, retention and
purges. Models live in `memrepo.models.items`.
"""

from memrepo.items.db import DB_NAME, DEFAULT_BUSY_TIMEOUT
from memrepo.items.policy import SettingsLookup, default_settings
from memrepo.items.schema import SCHEMA_VERSION
from memrepo.items.store import ItemStore
from memrepo.items.vocab import KINDS, PRIVACY, SCOPES, SOURCES, STATUSES, trust_rank
from memrepo.items.writer import ItemWriter, content_hash

__all__ = [
    "DB_NAME",
    "DEFAULT_BUSY_TIMEOUT",
    "KINDS",
    "PRIVACY",
    "SCHEMA_VERSION",
    "SCOPES",
    "SOURCES",
    "STATUSES",
    "ItemStore",
    "ItemWriter",
    "SettingsLookup",
    "content_hash",
    "default_settings",
    "trust_rank",
]
