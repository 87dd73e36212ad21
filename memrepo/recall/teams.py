"""The team lane: team repos' entries projected into the shared index.

Team clones change only when sync fetches them, so the lane is re-projected whole when
the set of (team, commit) pairs differs from the one the index reflects, and otherwise
costs one metadata read per recall. Documents get lane `team`, repo `team:<name>` and
refs `team:<name>:<path>#<id>` (provenance a person can check in the team repo).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

from memrepo.folder.repo import SWARM_PREFIX, MemoryFolder
from memrepo.index import IndexDoc, IndexStore
from memrepo.sync.teams import team_files, team_head, team_ref, team_settings

TEAMS_KEY = "teams"
LANE = "team"


def team_docs(folder: MemoryFolder) -> Iterator[IndexDoc]:
    """The index documents of every configured team's fetched main."""
    from memrepo.recall.projection import entry_docs  # that module imports this one

    for team in team_settings(folder.config):
        found = team_files(folder.state_dir, team.name)
        if found is None:
            continue
        commit, files = found
        for path, data in files:
            if not path.endswith(".md") or path.startswith(SWARM_PREFIX):
                continue
            for doc in entry_docs(path, data, commit=commit, uncommitted=False):
                entry_id = doc.ref.rpartition("#")[2]
                yield replace(
                    doc,
                    lane=LANE,
                    repo=f"team:{team.name}",
                    ref=team_ref(team.name, path, entry_id),
                )


def team_key(folder: MemoryFolder) -> str:
    """What the team lane reflects: each configured team's fetched head."""
    heads = {
        t.name: team_head(folder.state_dir, t.name) or "" for t in team_settings(folder.config)
    }
    return json.dumps(heads, sort_keys=True)


def sync_team_lane(store: IndexStore, folder: MemoryFolder) -> None:
    """Bring the team lane up to the team clones (all of it, when anything changed)."""
    if not team_settings(folder.config) and store.reflected(TEAMS_KEY) in (None, "{}"):
        return  # no teams now and none indexed: nothing to read or delete
    key = team_key(folder)
    if store.reflected(TEAMS_KEY) == key:
        return
    store.replace(list(team_docs(folder)), delete_lanes=[LANE])
    store.set_reflected(TEAMS_KEY, key)
