"""Models of `health` and `sources`: checks with their figures, and counts of who wrote what.

Both are read by people (the CLI prints them) and by machines (`--json`, a host's Health
tab), so every number a person sees is a field here; the words are built from the
fields, never the other way round. Neither ever carries memory text or a credential.
"""

from __future__ import annotations

from typing import Literal

from pydantic import computed_field

from memrepo.models._base import Frozen

CheckStatus = Literal["PASS", "WARN", "FAIL", "SKIP", "INFO"]

#: How bad a status is, for a report's overall status (SKIP and INFO never alarm).
SEVERITY: dict[CheckStatus, int] = {"SKIP": 0, "PASS": 0, "INFO": 0, "WARN": 1, "FAIL": 2}


class HealthCheck(Frozen):
    """One check: its status, the figure measured against the threshold, and a fix.

    `figure` and `threshold` are in `unit` (`%`, `MiB`, `tokens`, `days`, `s`, or a noun
    such as `files`); either is None when the check has no number (a missing file, a
    check skipped). `detail` says what was found in words; `fix` is one line a person
    can act on (empty when there is nothing to do).
    """

    name: str
    status: CheckStatus
    figure: float | None = None
    threshold: float | None = None
    unit: str = ""
    detail: str = ""
    fix: str = ""


class HealthReport(Frozen):
    """Every check of one run, in a fixed order, under one thresholds preset."""

    preset: str
    checks: tuple[HealthCheck, ...]
    seconds: float = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> CheckStatus:
        """FAIL if any check failed, else WARN if any warned, else PASS."""
        worst = max((SEVERITY[c.status] for c in self.checks), default=0)
        return "FAIL" if worst == 2 else "WARN" if worst == 1 else "PASS"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[str, int]:
        """How many checks ended in each status (every status present, zeros included)."""
        out = {status: 0 for status in ("PASS", "WARN", "FAIL", "SKIP", "INFO")}
        for check in self.checks:
            out[check.status] += 1
        return out

    @property
    def ok(self) -> bool:
        """No check failed (what `memrepo health --ci` exits on)."""
        return self.status != "FAIL"

    def check(self, name: str) -> HealthCheck:
        """The check called `name` (KeyError when there is none)."""
        for found in self.checks:
            if found.name == name:
                return found
        raise KeyError(name)


class SourceCount(Frozen):
    """How many memories one producer wrote with one trust, in one scope.

    Folder entries: `source` is `by` (user, agent, dream, import) and `producer` the
    `origin` (remember, edit, feedback, swarm, import, ...); `scope` is global, workspace
    or swarm. Items: `source` is the item's trust (user_stated ... third_party),
    `producer` its `source_ref` store (link, memory_hub, import, ...), `scope` the item
    scope. A value that was never recorded reads as `unknown`.
    """

    source: str
    producer: str
    scope: str
    count: int


class SourcesReport(Frozen):
    """Counts of active memories per source and producer: the folder at HEAD and the
    memory_items store. Counts only: no text, no subjects, no refs."""

    folder_entries: int
    folder: tuple[SourceCount, ...] = ()
    items_active: int = 0
    items_private: int = 0
    items: tuple[SourceCount, ...] = ()
    store_present: bool = False
    store_error: str | None = None
