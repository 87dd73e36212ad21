"""Every error memrepo raises, so callers can decide what to do next.

The tree is shaped by what a caller does about the failure, not by where it happened::

    MemrepoError
    +-- FormatError                 a file cannot be read as the Agent Memory Repo format
    |   +-- InvalidUtf8             bytes that are not UTF-8 (path and byte offset)
    +-- NotAMemoryRepo              the path is not (or no longer) a memory repo
    +-- RepoStateError              HEAD detached, main missing, HEAD moved under us
    |   +-- WorktreeChanged         a file changed on disk while memrepo was writing it
    +-- PathOutsideRoot             a target path escapes the root, enters .git or a symlink
    +-- DirtyWorktree               uncommitted user edits and auto-commit is off
    +-- EntryNotFound               forget/undo named an entry or commit that is not there
    +-- UndoConflict                a later commit changed the same entries
    +-- NothingToUndo               no memrepo commit left to undo
    +-- UndoNeedsConfirmation       a bare undo would revert a person's hand edits
    +-- LockTimeout                 another writer held the write lock for too long
    +-- CallCancelled               the client cancelled a write before it began
    +-- SecretInEdit                an uncommitted edit holds a secret
    |   +-- SecretInFileName        a file a person made is named with a secret
    +-- HandEditRefused             a hand edit memrepo will not commit (binary, symlink, name)
    +-- MemoryToolError             a memory-tool command cannot run (the contract's text)
    +-- InvalidArgument             a value memrepo cannot store (also a ValueError)
    |   +-- SecretInName            a name (workspace, file, task id) holds a secret
    |   +-- UnknownWorkspace        a read named a workspace this memory does not know
    +-- IndexLocked                 another process held the search index writer too long
    +-- IndexUnavailable            the search index could not be used even after a rebuild
    +-- RecallFailed                every recall lane failed (never "nothing remembered")
    +-- StoreError                  the memory_items database cannot be used
    |   +-- StoreBusy               another process held the database too long
    |   +-- StoreCorrupt            the file is not a readable SQLite database (left as is)
    |   +-- SchemaTooNew            written by a newer memrepo; never downgraded
    +-- ToolInputError              an agent's tool call does not validate (model-readable)
    +-- ApprovalDenied              the host's approval callback refused a forget
    +-- ReadOnlyRef                 a write named a team repo's entry; team repos are read-only
    +-- FeedbackRefused             feedback came from someone other than the workspace owner
    +-- SenderRefused               a turn handling someone else's message tried to change memory
    +-- SyncError                   sync with the user's remote could not finish
    |   +-- RemoteNotConfirmed      no remote, or the user never confirmed it is theirs
    |   +-- UnsafeRemote            a URL with credentials, or a team repo used as remote
    |   +-- CredentialMissing       the user's ssh key / credential helper gave nothing
    |   +-- RemoteUnreachable       the remote could not be reached; local state unchanged
    |   +-- UnrelatedHistories      the remote's main shares no history with ours
    |   +-- HistoryRewritten        the remote rewrote history we already had
    |   +-- SyncRejected            pushes kept being rejected after bounded retries
    |   +-- SecretWouldBePushed     the push would give the remote a secret it lacks
    +-- SwarmError                  a swarm note or task chain cannot be used
    |   +-- TaskNotFound            a task id the registry does not know
    |   +-- TaskCycle               the parent chain loops or is longer than allowed
    |   +-- RoleRefused             a verifier role may read the swarm but not write it
    +-- DreamError                  a dream could not run or its proposal was rejected whole
    |   +-- DreamModelError         the model's answer was not valid (nothing applied)
    |   +-- ReviewNotFound          no review branch by that name
    |   +-- ReviewConflict          main moved in a way that conflicts with the review
    +-- TransferError               an export, restore or import could not proceed
    |   +-- TargetExists            the export file or restore folder already exists
    |   +-- DecryptionFailed        wrong passphrase, or the file was tampered with
    |   +-- ArchiveCorrupt          truncated, reordered or otherwise damaged archive
    |   +-- ImportSourceError       the folder or file to import cannot be read as that format
    +-- MeaningError                the meaning lane cannot run; recall answers lexically
        +-- MeaningExtraMissing     its packages (the `meaning` extra) are not installed
        +-- ModelUnavailable        the embedding model is missing, broken or not installed
        +-- EmbeddingFailed         the model gave a vector that is not a number (NaN)
        +-- VectorsDamaged          the vector file is damaged or from another model; reindex

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


class WorktreeChanged(RepoStateError):
    """A file changed on disk while memrepo was writing it; the change on disk was kept
    and nothing of the write was applied."""

    def __init__(self, path: str, *, busy: bool = False) -> None:
        what = (
            "is open for writing in another program (an editor still saving?)"
            if busy
            else "changed on disk while memrepo was writing it"
        )
        super().__init__(
            f"{path} {what}; your version was kept and nothing was written; run the command again"
        )
        self.path = path
        self.busy = busy


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


class UndoNeedsConfirmation(MemrepoError):
    """A bare `undo` would revert a person's hand edits; nothing was changed.

    A person typing `undo` twice means to take back memrepo's writes, not the lines
    they typed themselves (issue #31): that takes the commit named, or a confirmation.
    """

    def __init__(self, commit: str, whose: str, summary: str, how: str = "") -> None:
        how = how or f"name it (memrepo undo {commit[:10]}) or confirm with --yes to revert it"
        super().__init__(
            f"the newest change left to undo is {whose}, {commit[:10]} ({summary}); a bare "
            f"undo does not take back what a person typed: {how}"
        )
        self.commit = commit
        self.whose = whose


class LockTimeout(MemrepoError):
    """Another writer held the write lock longer than we were willing to wait."""

    def __init__(self, path: str, waited: float, holder: str = "") -> None:
        # Said to remote clients too (an MCP tool result): what holds the lock in words,
        # never the lock's absolute path or a process id (issue #28). Those stay on the
        # exception (`path`, `holder`) for a local log; `memrepo health` names the holder.
        # The lock is an flock the kernel drops when its holder dies: never stale.
        name = path.rsplit("/", 1)[-1]
        what = "sync" if name.startswith("sync") else "write"
        who = (
            "another thread of this memrepo process"
            if "thread" in holder
            else "another memrepo process on this machine"
        )
        super().__init__(
            f"the memory's {what} lock was held by {who} for {waited:g} s; nothing was "
            f"written; try again once that {what} has finished"
        )
        self.path = path
        self.holder = holder


class SecretInEdit(MemrepoError):
    """A person's uncommitted edit holds a secret; memrepo will not commit it for them."""

    def __init__(self, path: str, line: int, kind: str) -> None:
        super().__init__(
            f"{path}:{line}: looks like a secret ({kind}); remove it from the file, then "
            "retry (memrepo never commits secrets)"
        )
        self.path = path
        self.line = line


class SecretInFileName(SecretInEdit):
    """A file a person created or renamed has a secret in its name: committing it would put
    the secret in a tree. The message shows the name redacted, never the value."""

    def __init__(self, shown_path: str, kind: str) -> None:
        MemrepoError.__init__(
            self,
            f"{shown_path}: the file name looks like a secret ({kind}); rename the file, then "
            "retry (memrepo never commits secrets)",
        )
        self.path = shown_path
        self.line = 0


class HandEditRefused(MemrepoError):
    """A person's uncommitted edit memrepo will not commit: a NUL byte or bytes that are
    not UTF-8 in a markdown file, a symlink, a name git or the Index cannot hold. Raised
    only by a write that must change that very file; every other write goes on."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where


class MemoryToolError(MemrepoError):
    """A memory-tool command (view, create, str_replace, insert, delete, rename) that
    cannot run; the message is the one the tool's contract gives the model, and nothing
    was written."""


class InvalidArgument(MemrepoError, ValueError):
    """A caller passed a value memrepo cannot store (a bad `by`, a malformed date, ...)."""


class SecretInName(InvalidArgument):
    """A name memrepo would write into a path, a title, a trailer or a store key holds a
    secret. Names identify things for later reads, so one is refused, never redacted."""

    def __init__(self, what: str, kind: str) -> None:
        super().__init__(
            f"the {what} looks like it holds a secret ({kind}); memrepo never writes one "
            "into a file name, a title, history or a store: use a name without it"
        )
        self.what = what
        self.kind = kind


class UnknownWorkspace(InvalidArgument):
    """A read named a workspace this memory has no file, item or settings for: most
    often a misspelling, which would otherwise answer "nothing found"."""

    def __init__(self, name: str, nearest: Sequence[str], known: Sequence[str]) -> None:
        if nearest:
            hint = "did you mean " + " or ".join(repr(n) for n in nearest) + "?"
        elif known:
            hint = "known workspaces: " + ", ".join(known[:10])
        else:
            hint = "this memory has no workspaces yet"
        super().__init__(f"no workspace {name!r} in this memory; {hint}")
        self.name = name
        self.nearest = tuple(nearest)


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
        super().__init__(  # no path: a remote client may read it (as LockTimeout)
            f"the search index was being written by another memrepo process for {waited:g} s;"
            " try again once it has finished"
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


class ToolInputError(MemrepoError, ValueError):
    """An agent's tool call does not validate; the message is written for the model."""

    def __init__(self, tool: str, problems: Sequence[str]) -> None:
        super().__init__(f"{tool}: invalid arguments: " + "; ".join(problems))
        self.tool = tool
        self.problems = list(problems)


#: What each refused action was, and what stayed as it was (`ApprovalDenied`).
_REFUSED = {
    "forget": ("forgetting it", "nothing was removed"),
    "edit": ("editing it", "nothing was changed"),
    "move": ("moving it", "nothing was moved"),
    "undo": ("undoing this change", "nothing was undone"),
    "accept_review": ("accepting this dream review", "nothing was merged"),
    "reject_review": ("rejecting this dream review", "the review stays as it was"),
    "approve_held": ("approving this held write", "it still waits"),
    "reject_held": ("rejecting this held write", "it still waits"),
}


class ApprovalDenied(MemrepoError):
    """The host's approval callback refused a change; nothing was changed.

    The message names what was refused (a forget, an edit, a move, an undo, a review
    decision): a model told only "forgetting it was not approved" after an edit would
    try the wrong thing next (issue #28)."""

    def __init__(self, ref: str, reason: str = "", action: str = "forget") -> None:
        what, kept = _REFUSED.get(action, _REFUSED["forget"])
        extra = f" ({reason})" if reason else ""
        super().__init__(f"{ref}: {what} was not approved{extra}; {kept}")
        self.ref = ref
        self.action = action


class ReadOnlyRef(MemrepoError):
    """A write named an entry of a team repo; team repos are read-only to memrepo."""

    def __init__(self, ref: str) -> None:
        super().__init__(
            f"{ref}: belongs to a team repo, which memrepo never writes; "
            "ask its owners to change it there"
        )
        self.ref = ref


class SyncError(MemrepoError):
    """Sync with the user's remote (or a team fetch) could not finish; local work is kept."""


class RemoteNotConfirmed(SyncError):
    """No remote is set, or the user never confirmed that it is private and theirs."""


class UnsafeRemote(SyncError):
    """The URL embeds credentials or points at a team repo; memrepo refuses to use it."""


class CredentialMissing(SyncError):
    """The remote wants credentials that the user's ssh agent, key or helper did not give."""


class RemoteUnreachable(SyncError):
    """The remote could not be reached; the local repo is unchanged."""


class UnrelatedHistories(SyncError):
    """The remote's main shares no commit with ours; nothing was merged."""


class HistoryRewritten(SyncError):
    """The remote no longer contains commits it had before (a force push); nothing reset."""


class SyncRejected(SyncError):
    """The remote kept rejecting our push (it moved each time) after bounded retries."""


class SecretWouldBePushed(SyncError):
    """The commits a sync would push add a secret the remote does not hold; nothing was
    pushed (the remote's changes were merged here all the same)."""

    def __init__(self, commit: str, where: str, more: int) -> None:
        others = f" and {more} more" if more else ""
        super().__init__(
            f"push refused: commit {commit[:10]} adds a secret at {where}{others} that the "
            "remote does not have; nothing was pushed. Remove it from that commit (rewrite "
            "your unpushed history, e.g. `git rebase -i`), rotate the credential, sync again"
        )
        self.commit = commit


class SwarmError(MemrepoError):
    """A swarm note or a task chain cannot be used."""


class TaskNotFound(SwarmError):
    """A task id that the task registry does not know."""


class TaskCycle(SwarmError):
    """The parent chain loops or is longer than the allowed number of hops."""


class RoleRefused(SwarmError):
    """A verifier role may read the swarm but not write to it."""


class DreamError(MemrepoError):
    """A dream could not run, or a proposal was rejected whole (nothing half-applied)."""


class DreamModelError(DreamError):
    """The dream model's answer was not valid; none of it was applied."""


class ReviewNotFound(DreamError):
    """No review branch by that name (list them with `memrepo review list`)."""


class ReviewConflict(DreamError):
    """main moved in a way that conflicts with the review; dream again."""


class TransferError(MemrepoError):
    """An export, restore or import could not proceed; nothing was written."""


class TargetExists(TransferError):
    """The export file or restore folder already exists (use --force to replace a file)."""


class DecryptionFailed(TransferError):
    """Wrong passphrase, or the encrypted file was changed after it was written."""


class ArchiveCorrupt(TransferError):
    """The export file is truncated, reordered or otherwise damaged."""


class ImportSourceError(TransferError):
    """The folder or file to import cannot be read as the named format."""


class SenderRefused(MemrepoError):
    """A tool call made while the agent handles a message from someone other than the
    memory's owner tried to change the owner's memory; nothing was changed."""

    def __init__(self, tool: str, sender: str) -> None:
        super().__init__(
            f"{tool}: this turn handles a message from {sender}, not from the memory's "
            f"owner; only the owner's own messages change memory (what {sender} says can "
            "be saved with memory_remember, as a fact about them)"
        )
        self.tool = tool
        self.sender = sender


class FeedbackRefused(MemrepoError):
    """Only the workspace owner's feedback becomes a standing correction."""

    def __init__(self, workspace: str) -> None:
        super().__init__(
            f"feedback for workspace {workspace!r} is not from its owner; only the owner's "
            "feedback becomes a correction the agent follows"
        )
        self.workspace = workspace


class CallCancelled(MemrepoError):
    """The caller cancelled the call before its write began (an MCP client's
    `notifications/cancelled`, or a client gone); nothing was written."""

    def __init__(self) -> None:
        super().__init__("the call was cancelled before it wrote anything; nothing was written")


class MeaningError(MemrepoError):
    """The meaning lane (issue #29) cannot run; recall keeps answering lexically."""


class MeaningExtraMissing(MeaningError):
    """The meaning lane's packages (the `meaning` extra) are not installed."""

    def __init__(self, missing: str) -> None:
        super().__init__(
            f"the meaning lane needs the meaning extra ({missing} is not installed): "
            "pip install 'memrepo[meaning]' (from a checkout: pip install -e '.[meaning]')"
        )


class ModelUnavailable(MeaningError):
    """The embedding model cannot be loaded: not installed, missing, or broken."""

    def __init__(self, model: str, reason: str) -> None:
        super().__init__(f"embedding model {model!r} cannot be used: {reason}")
        self.model = model


class EmbeddingFailed(MeaningError):
    """The model gave a vector that is not a number (NaN, infinite or zero) for a text."""

    def __init__(self, model: str, position: int) -> None:
        # The text itself is not quoted: it may be a private item's.
        super().__init__(
            f"embedding model {model!r} gave no usable vector (NaN) for text {position + 1} "
            "of the batch; the model file may be damaged: name another model"
        )
        self.model = model
        self.position = position


class VectorsDamaged(MeaningError):
    """The vector file cannot be read as this model's vectors; rebuild it."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(
            f"meaning vectors at {path} cannot be used ({reason}); "
            "rebuild them with `memrepo reindex`"
        )
        self.path = path
