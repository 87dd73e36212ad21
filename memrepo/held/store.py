"""The held writes of one memory root: one JSON file each under `.git/memrepo/held/`
(never tracked, never synced). A held write is screened before it is kept, as any write
is (secrets redacted, invisible characters removed), so nothing a person has not seen
reaches disk in a form a later write would not."""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memrepo.diskio import read_state, write_state
from memrepo.errors import EntryNotFound, InvalidArgument

HELD_DIR = "held"
HELD_PREFIX = "held:"
#: The shortest prefix of a held write's id a person may type.
MIN_PREFIX = 4


class HeldWrite(BaseModel):
    """One write an agent made that waits for a person: its text as it will be stored,
    where it goes, who asked and why it waits."""

    id: str
    held_at: datetime
    text: str
    workspace: str | None = None
    task_id: str | None = None
    by: str = "agent"
    why: str = ""
    request: dict[str, Any] = Field(default_factory=dict)

    @property
    def ref(self) -> str:
        return HELD_PREFIX + self.id


def hold(state_dir: Path, write: HeldWrite) -> HeldWrite:
    """Keep `write` (its id made here) and return it."""
    kept = write.model_copy(update={"id": secrets.token_hex(5)})
    write_state(state_dir / HELD_DIR / f"{kept.id}.json", kept)
    return kept


def held(state_dir: Path) -> list[HeldWrite]:
    """Every held write, oldest first; a file that cannot be read is left out (and left
    where it is, for a person to look at)."""
    found: list[HeldWrite] = []
    folder = state_dir / HELD_DIR
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        with contextlib.suppress(OSError, ValueError):
            write = read_state(path, HeldWrite)
            if write is not None:
                found.append(write)
    return sorted(found, key=lambda w: w.held_at)


def count(state_dir: Path) -> int:
    """How many writes wait (one directory listing)."""
    folder = state_dir / HELD_DIR
    return sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0


def find(state_dir: Path, ref: str) -> HeldWrite:
    """The held write `ref` names (`held:<id>`, the id or a unique prefix of at least
    four characters); EntryNotFound or InvalidArgument otherwise."""
    wanted = ref.strip().removeprefix(HELD_PREFIX)
    waiting = held(state_dir)
    matches = [w for w in waiting if w.id == wanted] or [
        w for w in waiting if len(wanted) >= MIN_PREFIX and w.id.startswith(wanted)
    ]
    if not matches:
        raise EntryNotFound(ref, "no held write with this id (memrepo pending lists them)")
    if len(matches) > 1:
        raise InvalidArgument(f"{ref} is ambiguous: it starts {len(matches)} ids; give more")
    return matches[0]


def discard(state_dir: Path, write: HeldWrite) -> None:
    """Drop a decided write (already gone: another process decided it too)."""
    with contextlib.suppress(FileNotFoundError):
        (state_dir / HELD_DIR / f"{write.id}.json").unlink()
