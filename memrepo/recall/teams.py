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
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime

from memrepo.folder.repo import SWARM_PREFIX, MemoryFolder
from memrepo.index import IndexDoc, IndexStore
from memrepo.recall.expiry import ExpiryWatch

# `memrepo.sync.teams` (remotes, credentials, sync state) loads only when there are teams
# to read: a recall in a repo without any never pays for it (tests/test_startup.py).

TEAMS_KEY = "teams"
LANE = "team"


def team_docs(folder: MemoryFolder, expiry: ExpiryWatch | None = None) -> Iterator[IndexDoc]:
    """The index documents of every configured team's fetched main (with `expiry`,
    entries past their `expires:` date are left out and later ones noted)."""
    from memrepo.recall.projection import entry_docs  # that module imports this one
    from memrepo.sync.teams import team_files, team_ref, team_settings

    for team in team_settings(folder.config):
        found = team_files(folder.state_dir, team.name)
        if found is None:
            continue
        commit, files = found
        for path, data in files:
            if not path.endswith(".md") or path.startswith(SWARM_PREFIX):
                continue
            docs = entry_docs(path, data, commit=commit, uncommitted=False, expiry=expiry)
            for doc in docs:
                entry_id = doc.ref.rpartition("#")[2]
                yield replace(
                    doc,
                    lane=LANE,
                    repo=f"team:{team.name}",
                    ref=team_ref(team.name, path, entry_id),
                )


def team_key(folder: MemoryFolder) -> str:
    """What the team lane reflects: each configured team's fetched head."""
    from memrepo.sync.teams import team_head, team_settings

    heads = {
        t.name: team_head(folder.state_dir, t.name) or "" for t in team_settings(folder.config)
    }
    return json.dumps(heads, sort_keys=True)


def sync_team_lane(store: IndexStore, folder: MemoryFolder) -> None:
    """Bring the team lane up to the team clones (all of it, when anything changed)."""
    recorded = store.reflected(TEAMS_KEY)
    if not folder.config.teams and (recorded is None or recorded.partition("\t")[0] == "{}"):
        return  # no teams now and none indexed: nothing to read or delete
    heads = team_key(folder)
    watch = ExpiryWatch(folder.clock.now())
    reflected, until = split_key(recorded)
    if reflected == heads and (until is None or watch.now < datetime.fromisoformat(until)):
        return
    store.replace(list(team_docs(folder, watch)), delete_lanes=[LANE])
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
