"""Values the models define that code needs without building a model: ref prefixes, how
long a short commit id is, and the closed choice lists a parser offers.

Importing a model module builds its pydantic classes; `memrepo --help` lists the swarm
note kinds and who may write (`--by`), and every verb checks a ref's prefix, none of which
should pay for that. The model modules re-export these names, so
`memrepo.models.items.ITEM_REF_PREFIX` and the others still work.
"""

from __future__ import annotations

from typing import Literal

from memrepo.layout import ITEM_REF_PREFIX, TEAM_REF_PREFIX

__all__ = [
    "BY_VALUES",
    "ITEM_REF_PREFIX",
    "SHORT_COMMIT",
    "SWARM_KINDS",
    "TEAM_REF_PREFIX",
    "By",
    "SkipReason",
    "SwarmKind",
    "WriteAction",
]

#: A commit id as every face shows it short (and takes it back): its first 10 hex
#: digits, as git prints it.
SHORT_COMMIT = 10

#: Who wrote a fact: the `by` key of an entry's metadata.
By = Literal["user", "agent", "dream", "import"]
BY_VALUES: tuple[By, ...] = ("user", "agent", "dream", "import")


SwarmKind = Literal["finding", "ruled_out", "question", "answer"]
SWARM_KINDS: tuple[SwarmKind, ...] = ("finding", "ruled_out", "question", "answer")

#: What a write did, in the folder and in memory_items alike.
WriteAction = Literal["inserted", "reinforced", "superseded", "updated"]
#: Why a write was skipped: the screen's reasons (`hygiene.SKIP_REASONS`, first), then the
#: store's. One list for both stores: typing caches `Literal[...] | None` by its set of
#: values, so two lists in two orders would make the schemas depend on import order.
SkipReason = Literal[
    "empty",
    "too_short",
    "no_content",
    "telemetry",
    "secret_only",
    "no_memory",
    "outranked",
    "memory_disabled",
    "invalid_scope",
    "third_party_scope",
]
