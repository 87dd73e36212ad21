"""Which of a person's uncommitted edits memrepo commits for them, and which it holds back.

Every write first commits the edits people left in the working tree (docs/architecture.md
§3, step 2). Some must never be committed, and none of them may stop the other writes
(issue #27):

- **Not memory**: a file that is not markdown, or, in a repository adopted with
  `memrepo init --adopt`, a file of the person's own project (one that was there when it
  was adopted, or a new one outside the memory layout: MEMORY.md, `workspaces/`,
  `swarms/` and what MEMORY.md's Index links to). Left alone, silently: it is theirs.
- **Held back**: a markdown file memrepo would commit but must not: its name holds a
  control character or a secret, it is a symlink (or sits behind one), its bytes gained a
  NUL (git would call it binary) or stopped being UTF-8, or it holds a secret. It stays
  uncommitted in the working tree exactly as typed; status and health name it
  (`path:line (what)`, never a secret's value), the first write that meets it says so
  once (`HandEditHeld`), and only a write that must change that very file is refused.

Views read a held-back file's last good version (HEAD's), except one held for a secret:
that one is read as typed, because recall and the index redact what they serve.
"""

from __future__ import annotations

import json
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pygit2

from memrepo.diskio import write_atomic
from memrepo.errors import (
    HandEditRefused,
    MemrepoError,
    PathOutsideRoot,
    SecretInEdit,
    SecretInFileName,
    SecretInName,
)
from memrepo.folder.adoption import ADOPTED_FILE
from memrepo.folder.paths import check_path, resolve_link
from memrepo.folder.secret_scan import find_in_text
from memrepo.folder.trees import read_blob
from memrepo.formats import parse
from memrepo.hygiene import redact_secrets
from memrepo.layout import ENTRY_POINT, SWARM_DIR, WORKSPACE_DIR

__all__ = [
    "HandEditHeld",
    "HandEdits",
    "HeldEdit",
    "PendingEdits",
    "report_held",
]

#: The held-back edits already reported, so each is said once, not on every write.
_REPORTED_FILE = "held-reported.json"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

HeldKind = Literal["secret", "secret_name", "name", "symlink", "nul", "utf8"]
_KEEP_OPEN = "memrepo leaves this edit uncommitted; other writes go on"


class HandEditHeld(UserWarning):
    """A hand edit memrepo left uncommitted; the message is the one line to act on."""


@dataclass(frozen=True, slots=True, order=True)
class HeldEdit:
    """One held-back hand edit: where (`shown`: the path as a person can read it, control
    characters escaped and a secret in the name redacted; `line` 1-based, 0 for the file
    as a whole), what (`label`: a secret's kind or the problem) and what to do."""

    shown: str
    line: int
    kind: HeldKind
    label: str
    fix: str
    #: The path as git names it (may hold a newline or a secret: never shown).
    path: str = field(compare=False, repr=False)

    @property
    def where(self) -> str:
        return f"{self.shown}:{self.line}" if self.line else self.shown

    @property
    def readable(self) -> bool:
        """Views may read it as typed: a secret is redacted wherever it is served."""
        return self.kind == "secret"

    def __str__(self) -> str:
        return f"{self.where} ({self.label}): {self.fix}"

    def error(self) -> MemrepoError:
        """What a write that must change this very file raises."""
        if self.kind == "secret":
            return SecretInEdit(self.shown, self.line, self.label)
        if self.kind == "secret_name":
            return SecretInFileName(self.shown, self.label.removesuffix(" in the name"))
        return HandEditRefused(
            f"{self.where} ({self.label})",
            f"{self.fix.split('; ' + _KEEP_OPEN)[0]}; this write needs that file, so "
            "nothing was written",
        )


@dataclass(frozen=True, slots=True)
class PendingEdits:
    """Uncommitted edits a person made, relative paths sorted: the memory edits the next
    write commits (`modified`, `added`, `deleted`; a file held for a secret is listed too,
    as views read it redacted) and the edits it holds back (`held`)."""

    modified: tuple[str, ...]
    added: tuple[str, ...]
    deleted: tuple[str, ...]
    held: tuple[HeldEdit, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(sorted({*self.modified, *self.added, *self.deleted}))

    @property
    def committable(self) -> tuple[str, ...]:
        """The paths the next write commits: `paths` but the held-back ones."""
        held = {edit.path for edit in self.held}
        return tuple(path for path in self.paths if path not in held)


def shown_path(path: str) -> str:
    """A path as one line a person can read: control characters as escapes (`a\\nb.md`)."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], path)


def screen_name(root: Path, path: str) -> HeldEdit | None:
    """The name and place of a file: one git, the Index and the file system can hold,
    without a secret, not a symlink and not behind one."""
    try:
        check_path(path, root)
    except SecretInName as exc:
        shown = shown_path(redact_secrets(path)[0])
        fix = f"rename the file (memrepo never commits a secret); {_KEEP_OPEN}"
        return HeldEdit(shown, 0, "secret_name", f"{exc.kind} in the name", fix, path)
    except PathOutsideRoot as exc:
        reason = str(exc).split(": ", 1)[-1].split("; use a relative path")[0]
        fix = f"{reason}; rename the file; {_KEEP_OPEN}"
        return HeldEdit(shown_path(path), 0, "name", "bad name", fix, path)
    current = root
    for part in path.split("/"):
        current = current / part
        if current.is_symlink():
            fix = (
                "memrepo never follows a symlink out of the memory root; put the file "
                f"itself back (git checkout -- {shown_path(path)}); {_KEEP_OPEN}"
            )
            return HeldEdit(shown_path(path), 0, "symlink", "symlink", fix, path)
    return None


def screen_bytes(path: str, data: bytes, before: bytes | None) -> HeldEdit | None:
    """A markdown file's new bytes: no NUL added, still UTF-8 (what `before`, the
    committed version, already had is not the person's new doing), no secret."""
    shown = shown_path(path)
    nul = data.count(b"\x00")
    if nul and nul > (before or b"").count(b"\x00"):
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        fix = f"git would treat the file as binary; delete the byte; {_KEEP_OPEN}"
        return HeldEdit(shown, line, "nul", "NUL byte", fix, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if before is None or is_utf8(before):
            line = data.count(b"\n", 0, exc.start) + 1
            fix = f"re-save the file as UTF-8; {_KEEP_OPEN}"
            return HeldEdit(shown, line, "utf8", "not UTF-8", fix, path)
        # Read past bad bytes: a secret in a file that is not UTF-8 is still a secret.
        text = data.decode("utf-8", "replace")
    found = find_in_text(path, text)
    if found:
        where = found[0][0]
        fix = f"remove it from the file (memrepo never commits secrets); {_KEEP_OPEN}"
        return HeldEdit(shown, where.line, "secret", where.kind, fix, path)
    return None


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` decodes as UTF-8 (what a memory file must hold)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class HandEdits:
    """Sorts the working tree's changed paths into memory edits and held-back ones.

    A verdict on a file's bytes is kept by its blob id and its committed version's, so a
    status or a recall that asks again reads the file but does not scan it again.
    """

    def __init__(
        self,
        root: Path,
        state_dir: Path,
        repo: pygit2.Repository,
        head: Callable[[], pygit2.Commit | None],
    ) -> None:
        self.root = root
        self.state_dir = state_dir
        self.repo = repo
        self.head = head
        self._verdicts: dict[tuple[str, pygit2.Oid, pygit2.Oid | None], HeldEdit | None] = {}
        self._adopted: tuple[float, pygit2.Tree | bool | None] | None = None

    # --- which paths are memory -----------------------------------------------------

    def memory_paths(self, paths: Iterable[str]) -> list[str]:
        """The paths a hand edit of which memrepo may commit (see the module docstring)."""
        markdown = [path for path in paths if path.endswith(".md")]
        base = self._adoption_base()
        if base is False or not markdown:
            return markdown
        head = self.head()
        linked: set[str] | None = None
        kept: list[str] = []
        for path in markdown:
            if _in_layout(path):
                kept.append(path)
                continue
            ours_before = isinstance(base, pygit2.Tree) and _holds(base, path)
            if not ours_before and head is not None and _holds(head.tree, path):
                kept.append(path)  # committed since the adoption: memrepo's, or linked
                continue
            if linked is None:
                linked = self._linked_from_index()
            if path in linked:
                kept.append(path)
        return kept

    def _adoption_base(self) -> pygit2.Tree | bool | None:
        """False: not adopted (every markdown file is memory); else the tree of the
        commit adopted (None: adopted without commits)."""
        marker = self.state_dir / ADOPTED_FILE
        try:
            stamp = marker.stat().st_mtime
        except FileNotFoundError:
            return False
        if self._adopted is not None and self._adopted[0] == stamp:
            return self._adopted[1]
        commit_id = marker.read_text(encoding="utf-8").strip()
        base: pygit2.Tree | None = None
        if commit_id:
            found = self.repo.get(commit_id)
            base = found.tree if isinstance(found, pygit2.Commit) else None
        self._adopted = (stamp, base)
        return base

    def _linked_from_index(self) -> set[str]:
        """Files MEMORY.md's Index links to, as typed in the working tree (else HEAD)."""
        full = self.root / ENTRY_POINT
        try:
            data = full.read_bytes() if not full.is_symlink() else b""
            doc = parse(data, ENTRY_POINT)
        except (OSError, MemrepoError):
            return set()
        return {resolve_link(link.target) for link in doc.index_links}

    # --- which edits are held back ----------------------------------------------------

    def sort(
        self, modified: Iterable[str], added: Iterable[str], deleted: Iterable[str]
    ) -> PendingEdits:
        """The working tree's changed paths (as git status names them) as `PendingEdits`."""
        head = self.head()
        held: list[HeldEdit] = []
        kept: dict[str, list[str]] = {"modified": [], "added": []}
        for name, paths in (("modified", modified), ("added", added)):
            for path in self.memory_paths(paths):
                before = read_blob(self.repo, head.tree, path) if head is not None else None
                verdict = self.screen(path, before)
                if verdict is not None:
                    held.append(verdict)
                if verdict is None or verdict.readable:
                    kept[name].append(path)
        gone: list[str] = []
        for path in self.memory_paths(deleted):
            named = screen_name(self.root, path)
            if named is not None and named.kind == "name":
                held.append(named)
            else:
                gone.append(path)
        return PendingEdits(
            tuple(sorted(kept["modified"])),
            tuple(sorted(kept["added"])),
            tuple(sorted(gone)),
            tuple(sorted(held)),
        )

    def screen(self, path: str, before: bytes | None) -> HeldEdit | None:
        """The verdict on one changed (or new) file of the working tree."""
        named = screen_name(self.root, path)
        if named is not None:
            return named
        data = _read_no_follow(self.root / path)
        return None if data is None else self.check(path, data, before)

    def check(self, path: str, data: bytes, before: bytes | None) -> HeldEdit | None:
        """`screen_bytes`, remembered by the blob ids of `data` and `before`."""
        key = (path, pygit2.hash(data), pygit2.hash(before) if before is not None else None)
        if key not in self._verdicts:
            if len(self._verdicts) > 256:
                self._verdicts.clear()
            self._verdicts[key] = screen_bytes(path, data, before)
        return self._verdicts[key]


def _in_layout(path: str) -> bool:
    return path == ENTRY_POINT or path.startswith((WORKSPACE_DIR, SWARM_DIR))


def _holds(tree: pygit2.Tree, path: str) -> bool:
    try:
        tree[path]
    except KeyError:
        return False
    return True


def _read_no_follow(full: Path) -> bytes | None:
    """A regular file's bytes, never through a symlink; None when it is not one."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


# --- adoption and reporting ------------------------------------------------------------


def report_held(
    state_dir: Path, held: Iterable[HeldEdit], *, said: Iterable[HeldEdit] = ()
) -> None:
    """Warn once (`HandEditHeld`) for each held-back edit not reported before; `said` are
    the ones the caller reported otherwise (a write refused over it). Forgets the ones
    that are gone, so a problem typed again is said again."""
    current = {str(edit): edit for edit in held}
    path = state_dir / _REPORTED_FILE
    try:
        reported = set(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        reported = set()
    for key, edit in current.items():
        if key not in reported and edit not in set(said):
            warnings.warn(HandEditHeld(f"memrepo: {edit}"), stacklevel=2)
    if set(current) != reported:
        write_atomic(path, json.dumps(sorted(current)))
