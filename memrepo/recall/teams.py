"""The team lane: team repos' entries projected into the shared index.

Team clones change only when sync fetches them, so the lane is re-projected whole when
the set of (team, commit) pairs differs from the one the index reflects, or when the
first `expires:` date it projected has passed (an expired team entry is not recalled,
as in the user's own folder: `memrepo.recall.expiry`), and otherwise costs one metadata
read per recall. Documents get lane `team`, repo `team:<name>` and
refs `team:<name>:<path>#<id>` (provenance a person can check in the team repo).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from memrepo.folder.repo import MemoryFolder
from memrepo.index import IndexDoc, IndexStore
from memrepo.layout import SWARM_DIR, TEAM_REF_PREFIX, team_ref
from memrepo.recall.documents import entry_docs
from memrepo.recall.expiry import ExpiryWatch

TEAMS_KEY = "teams"
LANE = "team"


class TeamClones(Protocol):
    """The local clones of the team repos (sync owns them: `memrepo.sync.teams`)."""

    def head(self, name: str) -> str | None:
        """The commit the team's clone of main is at; None before its first fetch."""
        ...

    def files(self, name: str) -> tuple[str, list[tuple[str, bytes]]] | None:
        """That commit and its regular files; None before the first fetch."""
        ...


#: How the projection gets the clones: on first need, so a recall in a repo without
#: teams never loads sync (tests/test_startup.py). None: no team lane.
OpenClones = Callable[[], TeamClones] | None


def team_docs(
    folder: MemoryFolder, clones: OpenClones, expiry: ExpiryWatch | None = None
) -> Iterator[IndexDoc]:
    """The index documents of every configured team's fetched main (with `expiry`,
    entries past their `expires:` date are left out and later ones noted)."""
    if clones is None or not folder.config.teams:
        return
    reader = clones()
    for team in folder.config.teams:
        found = reader.files(team.name)
        if found is None:
            continue
        commit, files = found
        for path, data in files:
            if not path.endswith(".md") or path.startswith(SWARM_DIR):
                continue
            docs = entry_docs(path, data, commit=commit, uncommitted=False, expiry=expiry)
            for doc in docs:
                entry_id = doc.ref.rpartition("#")[2]
                yield replace(
                    doc,
                    lane=LANE,
                    repo=f"{TEAM_REF_PREFIX}{team.name}",
                    ref=team_ref(team.name, path, entry_id),
                )


def team_key(folder: MemoryFolder, clones: OpenClones) -> str:
    """What the team lane reflects: each configured team's fetched head."""
    if clones is None or not folder.config.teams:
        return json.dumps({})
    reader = clones()
    heads = {t.name: reader.head(t.name) or "" for t in folder.config.teams}
    return json.dumps(heads, sort_keys=True)


def sync_team_lane(store: IndexStore, folder: MemoryFolder, clones: OpenClones) -> None:
    """Bring the team lane up to the team clones (all of it, when anything changed)."""
    recorded = store.reflected(TEAMS_KEY)
    if not folder.config.teams and (recorded is None or recorded.partition("\t")[0] == "{}"):
        return  # no teams now and none indexed: nothing to read or delete
    heads = team_key(folder, clones)
    watch = ExpiryWatch(folder.clock.now())
    reflected, until = split_key(recorded)
    if reflected == heads and (until is None or watch.now < datetime.fromisoformat(until)):
        return
    store.replace(list(team_docs(folder, clones, watch)), delete_lanes=[LANE])
    store.set_reflected(TEAMS_KEY, join_key(heads, watch))


def join_key(heads: str, watch: ExpiryWatch) -> str:
    """What the index records for the lane: the heads' JSON, a tab, and the first moment
    a projected team entry expires (empty when none does)."""
    return f"{heads}\t{min(watch.seen.values(), default='')}"


def split_key(raw: str | None) -> tuple[str | None, str | None]:
    """(heads, first expiry) of a recorded key; a key from before expiry was watched (no
    tab) reads as no heads, so that lane is projected once more."""
    heads, tab, until = (raw or "").partition("\t")
    return (heads if tab else None), (until or None)
