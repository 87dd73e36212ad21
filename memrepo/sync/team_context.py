"""Team repos as a source of the prompt's L0 block (docs/architecture.md §7, §9).

Each team's MEMORY.md entries join L0 next to the user's own: read from the local clone
(never the network), with the team entry's trust taken from its `by` like any folder
line, and a named subject deduplicated against the user's own (the builder keeps the
highest trust, then the newest). The builder asks only when the gate allows the team
layer, and sanitizes, tags and budgets these lines like every other memory line.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.folder.repo import MemoryFolder
from memrepo.layout import TEAM_REF_PREFIX
from memrepo.models.prompt_context import ContextRequest, InjectionDecision
from memrepo.recall.context_lines import ExtraLayer, SourceLine
from memrepo.routing import BY_TO_SOURCE
from memrepo.sync.teams import team_l0_entries


class TeamContextSource:
    """Every configured team's MEMORY.md entries, team by team in config order."""

    name = "team"
    layer: ExtraLayer = "team"

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder

    def lines(self, request: ContextRequest, decision: InjectionDecision) -> Sequence[SourceLine]:
        """No teams configured (or none fetched yet): no lines, no cost beyond a config read."""
        if not self.folder.config.teams:
            return []
        out: list[SourceLine] = []
        for entry in team_l0_entries(self.folder):
            meta = entry.metadata
            out.append(
                SourceLine(
                    ref=entry.ref,
                    text=entry.text,
                    origin=f"{TEAM_REF_PREFIX}{entry.team}",
                    trust=BY_TO_SOURCE.get(meta.get("by", "user"), "inferred"),
                    tainted=meta.get("tainted", "").casefold() == "yes",
                    added=meta.get("added", ""),
                    subject=meta.get("subject", ""),
                )
            )
        return out
