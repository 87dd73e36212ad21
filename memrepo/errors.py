"""Every error memrepo raises, so callers can decide what to do next.

The tree is shaped by what a caller does about the failure, not by where it happened::

    MemrepoError
    +-- FormatError                 a file cannot be read as the Agent Memory Repo format
    |   +-- InvalidUtf8             bytes that are not UTF-8 (path and byte offset)
    +-- NotAMemoryRepo              the path is not (or no longer) a memory repo
    +-- RepoStateError              HEAD detached, main missing, HEAD moved under us
    +-- PathOutsideRoot             a target path escapes the root, enters .git or a symlink
    +-- DirtyWorktree               uncommitted user edits and auto-commit is off
    +-- EntryNotFound               forget/undo named an entry or commit that is not there
    +-- UndoConflict                a later commit changed the same entries
    +-- NothingToUndo               no memrepo commit left to undo
    +-- LockTimeout                 another writer held the write lock for too long
    +-- SecretInEdit                an uncommitted edit holds a secret
    +-- InvalidArgument             a value memrepo cannot store (also a ValueError)
    +-- IndexLocked                 another process held the search index writer too long
    +-- IndexUnavailable            the search index could not be used even after a rebuild
    +-- RecallFailed                every recall lane failed (never "nothing remembered")
    +-- StoreError                  the memory_items database cannot be used
        +-- StoreBusy               another process held the database too long
        +-- StoreCorrupt            the file is not a readable SQLite database (left as is)
        +-- SchemaTooNew            written by a newer memrepo; never downgraded

Each error carries the context a caller needs (path, commit, ref) as attributes and a
message that says what happened and how to fix it.
"""

from __future__ import annotations

from collections.abc import Sequence


class MemrepoError(Exception):
    """Root of every error memrepo raises on purpose."""


class FormatError(MemrepoError):
    """A file cannot be read as the Agent Memory Repo format."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class InvalidUtf8(FormatError):
    """The file holds bytes that are not UTF-8; nothing was changed."""

    def __init__(self, path: str, offset: int) -> None:
        where = path or "<bytes>"
        super().__init__(
            f"{where}: not valid UTF-8 at byte offset {offset}; "
            "re-save the file as UTF-8 (memrepo never rewrites it for you)",
            path=path,
        )
        self.offset = offset


class NotAMemoryRepo(MemrepoError):
    """The path is not a memory repo; `memrepo init PATH` makes one."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: not a memory repo ({reason}); run `memrepo init {path}`")
        self.path = path


class RepoStateError(MemrepoError):
    """The git repository is in a state memrepo will not write to."""


class PathOutsideRoot(MemrepoError):
    """A target path would leave the memory root; nothing was written."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path!r}: {reason}; use a relative path inside the memory root")
        self.path = path


class DirtyWorktree(MemrepoError):
    """Uncommitted user edits block a write because auto-commit of edits is off."""

    def __init__(self, paths: Sequence[str]) -> None:
        names = ", ".join(paths)
        super().__init__(
            f"uncommitted edits in {names}; commit them with git, or set "
            "auto_commit_user_edits = true so memrepo commits them first"
        )
        self.paths = tuple(paths)


class EntryNotFound(MemrepoError):
    """A ref or commit named by the caller does not exist."""

    def __init__(self, ref: str, reason: str = "no such entry") -> None:
        super().__init__(f"{ref}: {reason}")
        self.ref = ref


class UndoConflict(MemrepoError):
    """Undo would overwrite a later change to the same entries; nothing was changed."""

    def __init__(self, commit: str, later: Sequence[str], detail: str = "") -> None:
        names = ", ".join(c[:10] for c in later)
        extra = f" ({detail})" if detail else ""
        super().__init__(
            f"cannot undo {commit[:10]}: later commit(s) {names} changed the same entries"
            f"{extra}; undo those first"
        )
        self.commit = commit
        self.later = tuple(later)


class NothingToUndo(MemrepoError):
    """There is no memrepo commit left that undo could reverse."""


class LockTimeout(MemrepoError):
    """Another writer held the write lock longer than we were willing to wait."""

    def __init__(self, path: str, waited: float, holder: str = "") -> None:
        who = f" held by {holder}" if holder else ""
        super().__init__(
            f"{path}: write lock{who} not released after {waited:.1f}s; "
            "if no memrepo process is running, delete the lock file"
        )
        self.path = path


class SecretInEdit(MemrepoError):
    """A person's uncommitted edit holds a secret; memrepo will not commit it for them."""

    def __init__(self, path: str, line: int, kind: str) -> None:
        super().__init__(
            f"{path}:{line}: looks like a secret ({kind}); remove it from the file, then "
            "retry (memrepo never commits secrets)"
        )
        self.path = path
        self.line = line


class InvalidArgument(MemrepoError, ValueError):
    """A caller passed a value memrepo cannot store (a bad `by`, a malformed date, ...)."""


class StoreError(MemrepoError):
    """The memory_items database cannot be used; the message names the file."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class StoreBusy(StoreError):
    """Another process kept the database locked longer than the bounded wait."""


class StoreCorrupt(StoreError):
    """The database file is damaged or not SQLite; memrepo leaves it untouched."""


class SchemaTooNew(StoreError):
    """The database was written by a newer memrepo; opening it here would damage it."""


class IndexLocked(MemrepoError):
    """Another writer held the index lock longer than we were willing to wait."""

    def __init__(self, path: str, waited: float) -> None:
        super().__init__(
            f"{path}: index writer lock not released after {waited:.1f}s; another memrepo "
            "process is writing the index; retry when it has finished"
        )
        self.path = path
        self.waited = waited


class IndexUnavailable(MemrepoError):
    """The index could not be used even after a rebuild; the message says why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: search index unusable ({reason}); run `memrepo reindex`")
        self.path = path
        self.reason = reason


class RecallFailed(MemrepoError):
    """Every recall lane failed; never reported as "nothing remembered"."""

    def __init__(self, errors: dict[str, str]) -> None:
        detail = "; ".join(f"{lane}: {why}" for lane, why in errors.items())
        super().__init__(f"recall failed in every lane ({detail}); try `memrepo reindex`")
        self.errors = dict(errors)
