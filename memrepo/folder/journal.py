"""The crash journal: which commit a write was publishing, and on top of which parent.

A write records it before touching the working tree and clears it last, so a process
killed in between leaves it behind for the next writer to finish (`GitStore.recover`).
The journal is read back as untrusted input: a file in `.git/memrepo/` anyone can
write. Every path is held to the rules of a write (`paths.check_path`), the commit must
be a commit whose first parent is the named parent, and every blob must be the one that
commit holds at that path. A journal failing any of this, or one that cannot be applied,
is set aside (renamed, with a warning naming it), never applied and never left to fail
every later command.
"""

from __future__ import annotations

import json
import os
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from memrepo.errors import PathOutsideRoot
from memrepo.folder.atomic import write_new_file
from memrepo.folder.paths import check_path

JOURNAL_NAME = "journal.json"
_FILE_MODES = (FileMode.BLOB, FileMode.BLOB_EXECUTABLE, FileMode.LINK)


class JournalSetAside(UserWarning):
    """A crashed write's journal could not be trusted or applied and was renamed aside."""


class BrokenJournal(Exception):
    """Why a journal is not applied (internal: recovery turns it into a set-aside)."""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """A checked journal: the commit, its parent and each path's blob (None: deleted)."""

    commit: pygit2.Commit
    parent_id: pygit2.Oid
    blob_ids: Mapping[str, pygit2.Oid | None]
    links: frozenset[str]


class Journal:
    """The journal file of one state folder."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / JOURNAL_NAME

    def exists(self) -> bool:
        return self.path.exists()

    def write(
        self,
        commit: pygit2.Oid,
        parent: pygit2.Oid,
        blob_ids: Mapping[str, pygit2.Oid | None],
        links: frozenset[str] = frozenset(),
    ) -> None:
        # Written in place, not renamed: a torn journal can only come from a crash before
        # anything else was touched, and a journal that cannot be read is set aside.
        files = {p: (str(o) if o is not None else None) for p, o in blob_ids.items()}
        record: dict[str, object] = {"commit": str(commit), "parent": str(parent), "files": files}
        if links:
            record["links"] = sorted(links)
        write_new_file(self.path, json.dumps(record).encode())

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)

    def load(self, repo: pygit2.Repository, root: Path) -> JournalEntry | None:
        """The checked journal, None when there is none; BrokenJournal says why not."""
        try:
            raw = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise BrokenJournal(f"it cannot be read ({exc})") from exc
        try:
            commit_id = pygit2.Oid(hex=raw["commit"])
            parent_id = pygit2.Oid(hex=raw["parent"])
            files = dict(raw["files"])
            links = frozenset(str(p) for p in raw.get("links", ()))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BrokenJournal(f"it is not a memrepo journal ({exc!r})") from exc
        commit = repo.get(commit_id)
        if not isinstance(commit, pygit2.Commit):
            raise BrokenJournal(f"{str(commit_id)[:10]} is not a commit of this repository")
        if [p.id for p in commit.parents[:1]] != [parent_id]:
            raise BrokenJournal(f"{str(parent_id)[:10]} is not the parent of {str(commit_id)[:10]}")
        blob_ids = {path: _checked_blob(commit, root, path, oid) for path, oid in files.items()}
        return JournalEntry(commit, parent_id, blob_ids, links & blob_ids.keys())

    def set_aside(self, reason: str) -> Path:
        """Rename the journal out of the way and warn, naming the file and the reason."""
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        aside = self.path.with_name(f"{JOURNAL_NAME}.broken-{stamp}-{os.getpid()}")
        self.path.rename(aside)
        warnings.warn(
            JournalSetAside(
                f"memrepo: the journal of an interrupted write was set aside as {aside} and "
                f"not applied: {reason}"
            ),
            stacklevel=4,
        )
        return aside


def _checked_blob(
    commit: pygit2.Commit, root: Path, path: object, oid: object
) -> pygit2.Oid | None:
    """The journal's blob for `path`, if the path is one a write may name and the
    commit really holds that blob there (or, for None, holds nothing there)."""
    if not isinstance(path, str) or not (oid is None or isinstance(oid, str)):
        raise BrokenJournal(f"it names {path!r} -> {oid!r}")
    try:
        check_path(path, root)
    except PathOutsideRoot as exc:
        raise BrokenJournal(str(exc)) from exc
    try:
        entry = commit.tree[path]
    except KeyError:
        entry = None
    held = entry.id if entry is not None and entry.filemode in _FILE_MODES else None
    if (str(held) if held is not None else None) != oid:
        raise BrokenJournal(f"{path}: its blob is not the one commit {str(commit.id)[:10]} holds")
    return held
