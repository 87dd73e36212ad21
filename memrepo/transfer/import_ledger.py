"""What each imported source held last time, so an upstream deletion is reported.

Re-importing a source adds nothing for the facts it still holds; a fact it no longer
holds (deleted in mem0, a memory file removed, a bullet edited away) is not deleted here
(the user may have built on it) but reported once, with the memrepo ref that drops it.

The ledger is local state (`.git/memrepo/imports.json`, never committed, never synced):
per source (its shape and absolute path, which is fine here and nowhere else) the facts
it held, each by a hash of its identity (a mem0 id, a memory file, else its file and
text; never the text itself, which may be private), with where it was read and the ref
memrepo keeps it under. A fact whose file could not be read this time is not gone.
An unreadable ledger is started afresh: the worst outcome is one deletion not reported.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from memrepo.diskio import read_state, write_state
from memrepo.formats import normalize_text
from memrepo.formats.importers import Fact

LEDGER_FILE = "imports.json"
_LINE = re.compile(r"#L(\d+)$")


#: One fact a source held: the file it came from, its `source` string and its ref.
KnownFact = tuple[str, str, str | None]


class SourceState(BaseModel):
    """A source as its last import found it: when, and its facts by hashed identity."""

    imported: str
    facts: dict[str, KnownFact] = Field(default_factory=dict)


class ImportLedger(BaseModel):
    """Every source imported into this memory repo (see the module docstring)."""

    version: int = 1
    sources: dict[str, SourceState] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Gone:
    """A fact the source held last time and holds no more."""

    key: str
    path: str
    line: int | None
    origin: str
    ref: str | None

    @property
    def message(self) -> str:
        keep = (
            f"`memrepo forget {shlex.quote(self.ref)}` drops it"
            if self.ref
            else "it stays in memrepo"
        )
        return (
            f"{self.origin} was imported before and is gone from the source (deleted or "
            f"changed there); {keep}"
        )


def fact_key(fact: Fact) -> str:
    """A fact's identity upstream, hashed: its own key, else its file and text."""
    identity = fact.key or f"{fact.path}\0{normalize_text(fact.text)}"
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]


class Ledger:
    """The ledger of one memory repo, read once per import."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / LEDGER_FILE
        try:
            self.state = read_state(self.path, ImportLedger) or ImportLedger()
        except (OSError, ValueError, ValidationError):
            self.state = ImportLedger()

    def gone(self, source: str, present: set[str], unreadable: set[str]) -> list[Gone]:
        """The facts `source` held last time that this read did not find, except those
        of files that could not be read now."""
        before = self.state.sources.get(source)
        if before is None:
            return []
        return [
            Gone(key, path, _line(origin), origin, ref)
            for key, (path, origin, ref) in before.facts.items()
            if key not in present and path not in unreadable
        ]

    def record(self, source: str, today: str, kept: dict[str, KnownFact], gone: set[str]) -> None:
        """Remember what `source` holds now: what it held before, less what is gone
        (reported once), plus what this import wrote or found already known."""
        before = self.state.sources.get(source)
        facts = {k: v for k, v in (before.facts if before else {}).items() if k not in gone}
        facts.update(kept)
        # Our own strings, one tuple per fact: built without validation (100,000 facts).
        self.state.sources[source] = SourceState.model_construct(imported=today, facts=facts)
        write_state(self.path, self.state, indent=0)


def _line(origin: str) -> int | None:
    match = _LINE.search(origin)
    return int(match.group(1)) if match else None
