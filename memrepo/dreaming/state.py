"""What dreaming remembers between runs, in `.git/memrepo/dream.json` (local, untracked).

- the last dream (time, counts, commit, review branch) for health;
- the fingerprints of rejected operations and of undone dream commits: never proposed
  again;
- the dream commits made so far (id -> fingerprints), watched for an undo;
- the lines of rejected merges of exact duplicates (health stops suggesting a dream).

The file is small and rewritten atomically; a missing file is a fresh start, a damaged
one is an error that names it (it is never silently reset: that would re-propose every
change the person already turned down).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from memrepo.diskio import read_state, write_state
from memrepo.errors import DreamError
from memrepo.layout import DREAM_STATE

STATE_NAME = DREAM_STATE


class LastDream(BaseModel):
    """The last dream that ran (not a dry run)."""

    model_config = ConfigDict(extra="ignore")

    at: datetime
    counts: dict[str, int] = Field(default_factory=dict)
    commit: str | None = None
    review: str | None = None


class DreamState(BaseModel):
    """Everything in dream.json."""

    model_config = ConfigDict(extra="ignore")

    last: LastDream | None = None
    rejected: list[str] = Field(default_factory=list)
    undone: list[str] = Field(default_factory=list)
    commits: dict[str, list[str]] = Field(default_factory=dict)
    #: Merges of exact duplicates a person rejected, each its lines as `health` counts
    #: them ("path\x00normalized text", sorted): kept on purpose, no dream to suggest.
    declined_duplicates: list[list[str]] = Field(default_factory=list)

    def remembered(self) -> set[str]:
        """Fingerprints never to propose again."""
        return {*self.rejected, *self.undone}

    def reject(self, fingerprints: list[str]) -> None:
        self.rejected.extend(fp for fp in fingerprints if fp not in self.rejected)

    def mark_undone(self, commit_ids: set[str]) -> None:
        """Move undone commits' fingerprints to `undone`."""
        for commit in sorted(commit_ids):
            for fp in self.commits.pop(commit, []):
                if fp not in self.undone:
                    self.undone.append(fp)


def load_state(state_dir: Path) -> DreamState:
    path = state_dir / STATE_NAME
    try:
        return read_state(path, DreamState) or DreamState()
    except ValueError as exc:
        raise DreamError(
            f"{path}: unreadable dream state ({exc}); fix it, or delete it to forget "
            "every rejected and undone dream change"
        ) from exc


def save_state(state_dir: Path, state: DreamState) -> None:
    write_state(state_dir / STATE_NAME, state, indent=1)
