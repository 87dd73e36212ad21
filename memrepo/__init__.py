"""memrepo: a git-native manager for an AI agent's long-term memory.

The public face is `MemoryRepo`; results are the pydantic models of `memrepo.models`;
every error derives from `MemrepoError` (see `memrepo.errors` for the tree). The agent
tools, the injection gate and the extension protocols (recall lanes, context sources,
dream models, task registries, credentials) are importable from here too. Everything but
the errors loads on first use: every `memrepo.*` import runs this file first, and
`memrepo --help` should not pay for pydantic or libgit2, nor a one-shot `memrepo recall`
for the tool schemas or dreaming.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memrepo.errors import (
    ApprovalDenied,
    ArchiveCorrupt,
    CredentialMissing,
    DecryptionFailed,
    DirtyWorktree,
    DreamError,
    DreamModelError,
    EntryNotFound,
    FeedbackRefused,
    FormatError,
    HistoryRewritten,
    ImportSourceError,
    IndexLocked,
    IndexUnavailable,
    InvalidArgument,
    InvalidUtf8,
    LockTimeout,
    MemrepoError,
    NotAMemoryRepo,
    NothingToUndo,
    PathOutsideRoot,
    ReadOnlyRef,
    RecallFailed,
    RemoteNotConfirmed,
    RemoteUnreachable,
    RepoStateError,
    ReviewConflict,
    ReviewNotFound,
    RoleRefused,
    SchemaTooNew,
    SecretInEdit,
    SecretInFileName,
    StoreBusy,
    StoreCorrupt,
    StoreError,
    SwarmError,
    SyncError,
    SyncRejected,
    TargetExists,
    TaskCycle,
    TaskNotFound,
    ToolInputError,
    TransferError,
    UndoConflict,
    UndoNeedsConfirmation,
    UnrelatedHistories,
    UnsafeRemote,
)
from memrepo.lazy import load_attribute

if TYPE_CHECKING:
    from memrepo.clock import Clock, FixedClock, Identity, SystemClock
    from memrepo.config import LocalConfig
    from memrepo.dreaming import DreamModel, OfflineModel
    from memrepo.dreaming.openai import OpenAIModel
    from memrepo.engine import MemoryRepo
    from memrepo.models.dream import DreamReport
    from memrepo.models.folder import (
        CommitInfo,
        EntryView,
        ForgetResult,
        LintProblem,
        LintReport,
        UndoResult,
        WhyReport,
        WorktreeStatus,
        WriteResult,
    )
    from memrepo.models.health import HealthReport, SourcesReport
    from memrepo.models.items import ItemFilters, MemoryItem
    from memrepo.models.prompt_context import (
        ContextBlocks,
        ContextRequest,
        InjectionDecision,
        InjectionInputs,
    )
    from memrepo.models.recall import RecallHit, RecallResult
    from memrepo.models.swarm import SwarmNoteResult, SwarmView
    from memrepo.models.sync import SyncReport, SyncStatus
    from memrepo.models.transfer import ExportResult, ImportReport, RestoreResult
    from memrepo.recall.context_lines import ContextSource, SourceLine
    from memrepo.recall.gate import resolve_memory_injection
    from memrepo.recall.lanes import Lane
    from memrepo.swarm import LocalTaskRegistry, TaskRegistry
    from memrepo.sync.credentials import CredentialProvider
    from memrepo.tools import (
        ForgetApproval,
        ForgetRequest,
        MemoryTools,
        ToolContext,
        anthropic_tools,
        openai_responses_tools,
        openai_tools,
    )

from memrepo.version import __version__ as __version__

#: Every public name but the errors, loaded on first access (PEP 562) from the module
#: that defines it: `memrepo.cli` imports `memrepo.errors`, which runs this file, so
#: whatever is imported here eagerly is paid by `memrepo --help` (pydantic, pygit2).
_LAZY = {
    "Clock": "memrepo.clock",
    "CommitInfo": "memrepo.models.folder",
    "ContextBlocks": "memrepo.models.prompt_context",
    "ContextRequest": "memrepo.models.prompt_context",
    "ContextSource": "memrepo.recall.context_lines",
    "CredentialProvider": "memrepo.sync.credentials",
    "DreamModel": "memrepo.dreaming",
    "DreamReport": "memrepo.models.dream",
    "EntryView": "memrepo.models.folder",
    "ExportResult": "memrepo.models.transfer",
    "FixedClock": "memrepo.clock",
    "ForgetApproval": "memrepo.tools",
    "ForgetRequest": "memrepo.tools",
    "ForgetResult": "memrepo.models.folder",
    "HealthReport": "memrepo.models.health",
    "Identity": "memrepo.clock",
    "ImportReport": "memrepo.models.transfer",
    "InjectionDecision": "memrepo.models.prompt_context",
    "InjectionInputs": "memrepo.models.prompt_context",
    "ItemFilters": "memrepo.models.items",
    "Lane": "memrepo.recall.lanes",
    "LintProblem": "memrepo.models.folder",
    "LintReport": "memrepo.models.folder",
    "LocalConfig": "memrepo.config",
    "LocalTaskRegistry": "memrepo.swarm",
    "MemoryItem": "memrepo.models.items",
    "MemoryRepo": "memrepo.engine",
    "MemoryTools": "memrepo.tools",
    "OfflineModel": "memrepo.dreaming",
    "OpenAIModel": "memrepo.dreaming.openai",
    "RecallHit": "memrepo.models.recall",
    "RecallResult": "memrepo.models.recall",
    "RestoreResult": "memrepo.models.transfer",
    "SourceLine": "memrepo.recall.context_lines",
    "SourcesReport": "memrepo.models.health",
    "SwarmNoteResult": "memrepo.models.swarm",
    "SwarmView": "memrepo.models.swarm",
    "SyncReport": "memrepo.models.sync",
    "SyncStatus": "memrepo.models.sync",
    "SystemClock": "memrepo.clock",
    "TaskRegistry": "memrepo.swarm",
    "ToolContext": "memrepo.tools",
    "UndoResult": "memrepo.models.folder",
    "WhyReport": "memrepo.models.folder",
    "WorktreeStatus": "memrepo.models.folder",
    "WriteResult": "memrepo.models.folder",
    "anthropic_tools": "memrepo.tools",
    "openai_responses_tools": "memrepo.tools",
    "openai_tools": "memrepo.tools",
    "resolve_memory_injection": "memrepo.recall.gate",
}


def __getattr__(name: str) -> Any:
    return load_attribute(__name__, name, _LAZY, globals())


__all__ = [
    "ApprovalDenied",
    "ArchiveCorrupt",
    "Clock",
    "CommitInfo",
    "ContextBlocks",
    "ContextRequest",
    "ContextSource",
    "CredentialMissing",
    "CredentialProvider",
    "DecryptionFailed",
    "DirtyWorktree",
    "DreamError",
    "DreamModel",
    "DreamModelError",
    "DreamReport",
    "EntryNotFound",
    "EntryView",
    "ExportResult",
    "FeedbackRefused",
    "FixedClock",
    "ForgetApproval",
    "ForgetRequest",
    "ForgetResult",
    "FormatError",
    "HealthReport",
    "HistoryRewritten",
    "Identity",
    "ImportReport",
    "ImportSourceError",
    "IndexLocked",
    "IndexUnavailable",
    "InjectionDecision",
    "InjectionInputs",
    "InvalidArgument",
    "InvalidUtf8",
    "ItemFilters",
    "Lane",
    "LintProblem",
    "LintReport",
    "LocalConfig",
    "LocalTaskRegistry",
    "LockTimeout",
    "MemoryItem",
    "MemoryRepo",
    "MemoryTools",
    "MemrepoError",
    "NotAMemoryRepo",
    "NothingToUndo",
    "OfflineModel",
    "OpenAIModel",
    "PathOutsideRoot",
    "ReadOnlyRef",
    "RecallFailed",
    "RecallHit",
    "RecallResult",
    "RemoteNotConfirmed",
    "RemoteUnreachable",
    "RepoStateError",
    "RestoreResult",
    "ReviewConflict",
    "ReviewNotFound",
    "RoleRefused",
    "SchemaTooNew",
    "SecretInEdit",
    "SecretInFileName",
    "SourceLine",
    "SourcesReport",
    "StoreBusy",
    "StoreCorrupt",
    "StoreError",
    "SwarmError",
    "SwarmNoteResult",
    "SwarmView",
    "SyncError",
    "SyncRejected",
    "SyncReport",
    "SyncStatus",
    "SystemClock",
    "TargetExists",
    "TaskCycle",
    "TaskNotFound",
    "TaskRegistry",
    "ToolContext",
    "ToolInputError",
    "TransferError",
    "UndoConflict",
    "UndoNeedsConfirmation",
    "UndoResult",
    "UnrelatedHistories",
    "UnsafeRemote",
    "WhyReport",
    "WorktreeStatus",
    "WriteResult",
    "__version__",
    "anthropic_tools",
    "openai_responses_tools",
    "openai_tools",
    "resolve_memory_injection",
]
