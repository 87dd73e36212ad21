"""Public models: what the API returns and what `--json` prints, in one place.

They are pydantic models so results validate at the boundary and serialize the same way
for the CLI, the MCP server and a host application. One module per area; this package
re-exports every public model so `from memrepo.models import X` works for all of them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from memrepo.models.folder import (
    By,
    CommitInfo,
    EntryAction,
    EntryEvent,
    EntryView,
    ForgetResult,
    LintProblem,
    LintReport,
    ProblemKind,
    SkipReason,
    UndoResult,
    WhyReport,
    WorktreeStatus,
    WriteAction,
    WriteResult,
)
from memrepo.models.items import (
    ItemDetail,
    ItemFilters,
    MemoryItem,
    PurgeReport,
    RetentionReport,
)
from memrepo.models.recall import (
    Detail,
    Provenance,
    RecallHit,
    RecallResult,
    ReindexReport,
)
from memrepo.models.sync import (
    ConflictBranch,
    ConflictDetail,
    ConflictInfo,
    RemoteInfo,
    RemoteSettings,
    SyncReport,
    SyncStatus,
    TeamEntry,
    TeamInfo,
    TeamSettings,
    TeamSyncResult,
)

if TYPE_CHECKING:
    from memrepo.models.context import (
        ContextBlock,
        ContextBlocks,
        ContextBudgets,
        ContextLine,
        ContextRequest,
        GateLayer,
        Gateway,
        InjectionDecision,
        InjectionInputs,
        MemoryUsed,
        Surface,
    )
    from memrepo.models.dream import (
        AcceptResult,
        BrokenLink,
        CurationChange,
        CurationReport,
        DreamReport,
        DreamStatus,
        LineRef,
        Op,
        RecentNote,
        RejectResult,
        ReviewDetail,
        ReviewSummary,
    )
    from memrepo.models.gitsetup import (
        GitHooksReport,
        HookInstall,
    )
    from memrepo.models.health import (
        CheckStatus,
        HealthCheck,
        HealthReport,
        SourceCount,
        SourcesReport,
    )
    from memrepo.models.swarm import (
        SwarmBlock,
        SwarmKind,
        SwarmNote,
        SwarmNoteResult,
        SwarmQuestion,
        SwarmRef,
        SwarmSummary,
        SwarmView,
        TaskInfo,
        TaskTreeDeleted,
    )
    from memrepo.models.transfer import (
        ExportFormat,
        ExportResult,
        ImportFormat,
        ImportProblem,
        ImportReport,
        RestoreResult,
    )

#: Models of the areas a one-shot command rarely needs, built on first access (PEP 562):
#: every model class costs its build time at import, and `import memrepo` should not pay
#: for dreaming, swarms, transfer and health to run a recall.
_LAZY = {
    "AcceptResult": "memrepo.models.dream",
    "BrokenLink": "memrepo.models.dream",
    "CheckStatus": "memrepo.models.health",
    "ContextBlock": "memrepo.models.context",
    "ContextBlocks": "memrepo.models.context",
    "ContextBudgets": "memrepo.models.context",
    "ContextLine": "memrepo.models.context",
    "ContextRequest": "memrepo.models.context",
    "CurationChange": "memrepo.models.dream",
    "CurationReport": "memrepo.models.dream",
    "DreamReport": "memrepo.models.dream",
    "DreamStatus": "memrepo.models.dream",
    "ExportFormat": "memrepo.models.transfer",
    "ExportResult": "memrepo.models.transfer",
    "GateLayer": "memrepo.models.context",
    "Gateway": "memrepo.models.context",
    "GitHooksReport": "memrepo.models.gitsetup",
    "HealthCheck": "memrepo.models.health",
    "HealthReport": "memrepo.models.health",
    "HookInstall": "memrepo.models.gitsetup",
    "ImportFormat": "memrepo.models.transfer",
    "ImportProblem": "memrepo.models.transfer",
    "ImportReport": "memrepo.models.transfer",
    "InjectionDecision": "memrepo.models.context",
    "InjectionInputs": "memrepo.models.context",
    "LineRef": "memrepo.models.dream",
    "MemoryUsed": "memrepo.models.context",
    "Op": "memrepo.models.dream",
    "RecentNote": "memrepo.models.dream",
    "RejectResult": "memrepo.models.dream",
    "RestoreResult": "memrepo.models.transfer",
    "ReviewDetail": "memrepo.models.dream",
    "ReviewSummary": "memrepo.models.dream",
    "SourceCount": "memrepo.models.health",
    "SourcesReport": "memrepo.models.health",
    "Surface": "memrepo.models.context",
    "SwarmBlock": "memrepo.models.swarm",
    "SwarmKind": "memrepo.models.swarm",
    "SwarmNote": "memrepo.models.swarm",
    "SwarmNoteResult": "memrepo.models.swarm",
    "SwarmQuestion": "memrepo.models.swarm",
    "SwarmRef": "memrepo.models.swarm",
    "SwarmSummary": "memrepo.models.swarm",
    "SwarmView": "memrepo.models.swarm",
    "TaskInfo": "memrepo.models.swarm",
    "TaskTreeDeleted": "memrepo.models.swarm",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memrepo.models' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AcceptResult",
    "BrokenLink",
    "By",
    "CheckStatus",
    "CommitInfo",
    "ConflictBranch",
    "ConflictDetail",
    "ConflictInfo",
    "ContextBlock",
    "ContextBlocks",
    "ContextBudgets",
    "ContextLine",
    "ContextRequest",
    "CurationChange",
    "CurationReport",
    "Detail",
    "DreamReport",
    "DreamStatus",
    "EntryAction",
    "EntryEvent",
    "EntryView",
    "ExportFormat",
    "ExportResult",
    "ForgetResult",
    "GateLayer",
    "Gateway",
    "GitHooksReport",
    "HealthCheck",
    "HealthReport",
    "HookInstall",
    "ImportFormat",
    "ImportProblem",
    "ImportReport",
    "InjectionDecision",
    "InjectionInputs",
    "ItemDetail",
    "ItemFilters",
    "LineRef",
    "LintProblem",
    "LintReport",
    "MemoryItem",
    "MemoryUsed",
    "Op",
    "ProblemKind",
    "Provenance",
    "PurgeReport",
    "RecallHit",
    "RecallResult",
    "RecentNote",
    "ReindexReport",
    "RejectResult",
    "RemoteInfo",
    "RemoteSettings",
    "RestoreResult",
    "RetentionReport",
    "ReviewDetail",
    "ReviewSummary",
    "SkipReason",
    "SourceCount",
    "SourcesReport",
    "Surface",
    "SwarmBlock",
    "SwarmKind",
    "SwarmNote",
    "SwarmNoteResult",
    "SwarmQuestion",
    "SwarmRef",
    "SwarmSummary",
    "SwarmView",
    "SyncReport",
    "SyncStatus",
    "TaskInfo",
    "TaskTreeDeleted",
    "TeamEntry",
    "TeamInfo",
    "TeamSettings",
    "TeamSyncResult",
    "UndoResult",
    "WhyReport",
    "WorktreeStatus",
    "WriteAction",
    "WriteResult",
]
