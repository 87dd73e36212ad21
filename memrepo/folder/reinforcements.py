"""Who repeated a folder entry. A repeat makes no line and no commit
(docs/architecture.md §3 step 4), so git cannot tell that a second task or a person also
stated the fact; this local record can. It decides one thing: an agent may drop "its
own" inference without asking only while nobody else has stated it too
(`memrepo.tools.forget`).

The record lives in `.git/memrepo/reinforcements.json`, written under the write lock like
every write and never synced (approval is a local matter). Only repeats are recorded, a
few parties per entry. It fails closed: a record that cannot be read is left alone for a
person to look at, and until then every agent forget of a folder entry asks.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ValidationError

from memrepo.diskio import read_state, write_state

FILE_NAME = "reinforcements.json"
#: Parties kept per entry: enough to know "someone else did", which is all that is asked.
PER_ENTRY = 8


class Reinforcements(BaseModel):
    version: int = 1
    #: Entry ref -> who repeated it, as "by" or "by task:<id>", first repeat first.
    refs: dict[str, list[str]] = {}


def party(by: str, task: str | None) -> str:
    """How one stating party is written: who, and the task it ran in when known (on one
    line, as the commit trailer writes it)."""
    task = " ".join(task.split()) if task else ""
    return f"{by} task:{task}" if task else by


def record(state_dir: Path, ref: str, by: str, task: str | None) -> None:
    """Note that `by` (in `task`) stated the entry `ref` again. Caller holds the lock."""
    state = _load(state_dir)
    if state is None:
        return  # unreadable: left for a person; forgets ask meanwhile (see repeated_by)
    parties = state.refs.setdefault(ref, [])
    who = party(by, task)
    if who in parties or len(parties) >= PER_ENTRY:
        return
    parties.append(who)
    write_state(state_dir / FILE_NAME, state, indent=0)


def repeated_by(state_dir: Path, ref: str) -> tuple[str, ...] | None:
    """Everyone recorded as having stated `ref` again; None when the record is unreadable
    (then nobody can say that no one else did)."""
    state = _load(state_dir)
    return None if state is None else tuple(state.refs.get(ref, ()))


def _load(state_dir: Path) -> Reinforcements | None:
    try:
        return read_state(state_dir / FILE_NAME, Reinforcements) or Reinforcements()
    except (OSError, ValueError, ValidationError):
        return None
