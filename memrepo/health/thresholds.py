"""The thresholds of every health check, from the one JSON file shipped with the package.

One file so a person can read (and a host can show) every limit in one place, and so the
default preset and the `--ci` preset cannot drift apart in code: both are validated
against the same model, which names every check.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from memrepo.errors import InvalidArgument, MemrepoError

Level = Literal["WARN", "FAIL", "INFO"]
PRESETS = ("default", "ci")


class Limit(BaseModel):
    """`max`: the highest figure that still passes (None: the check has no number);
    `level`: the status when the figure is over it (or when the check finds a problem)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max: float | None
    level: Level


class Thresholds(BaseModel):
    """One preset: a limit per check, every check named (a missing one fails loading)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_md: Limit
    format: Limit
    broken_links: Limit
    unlisted: Limit
    memory_l0: Limit
    secrets: Limit
    folder_duplicates: Limit
    items_duplicates: Limit
    database_size: Limit
    index: Limit
    meaning: Limit
    uncommitted_edits: Limit
    write_lock: Limit
    sync: Limit
    teams: Limit
    dreaming: Limit
    review_branches: Limit
    maintenance: Limit
    held_writes: Limit


@cache
def load_thresholds(preset: str = "default") -> Thresholds:
    """The named preset (`default` or `ci`) of the shipped thresholds file."""
    if preset not in PRESETS:
        raise InvalidArgument(f"preset={preset!r}: use one of {', '.join(PRESETS)}")
    resource = files("memrepo.health").joinpath("thresholds.json")
    try:
        data = json.loads(resource.read_text(encoding="utf-8"))
        return Thresholds.model_validate(data[preset])
    except (OSError, ValueError, KeyError, ValidationError) as exc:
        raise MemrepoError(
            f"memrepo/health/thresholds.json: cannot read preset {preset!r} ({exc}); "
            "reinstall memrepo"
        ) from exc
