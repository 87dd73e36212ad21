"""memrepo: a git-native manager for an AI agent's long-term memory.

The public face is `MemoryRepo`; results are the pydantic models of `memrepo.models`;
every error derives from `MemrepoError` (see `memrepo.errors` for the tree).
"""

from memrepo.clock import Clock, FixedClock, Identity, SystemClock
from memrepo.config import LocalConfig
from memrepo.engine import MemoryRepo
from memrepo.errors import (
    DirtyWorktree,
    EntryNotFound,
    FormatError,
    InvalidArgument,
    InvalidUtf8,
    LockTimeout,
    MemrepoError,
    NotAMemoryRepo,
    NothingToUndo,
    PathOutsideRoot,
    RepoStateError,
    SecretInEdit,
    UndoConflict,
)
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    LintProblem,
    LintReport,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)

__version__ = "0.1.0"

__all__ = [
    "Clock",
    "CommitInfo",
    "DirtyWorktree",
    "EntryNotFound",
    "EntryView",
    "FixedClock",
    "ForgetResult",
    "FormatError",
    "Identity",
    "InvalidArgument",
    "InvalidUtf8",
    "LintProblem",
    "LintReport",
    "LocalConfig",
    "LockTimeout",
    "MemoryRepo",
    "MemrepoError",
    "NotAMemoryRepo",
    "NothingToUndo",
    "PathOutsideRoot",
    "RepoStateError",
    "SecretInEdit",
    "SystemClock",
    "UndoConflict",
    "UndoResult",
    "WorktreeStatus",
    "WriteResult",
    "__version__",
]
