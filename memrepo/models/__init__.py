"""Public models: what the API returns and what `--json` prints, in one place.

They are pydantic models so results validate at the boundary and serialize the same way
for the CLI, the MCP server and a host application.
"""

from memrepo.models.folder import (
    By,
    CommitInfo,
    EntryView,
    ForgetResult,
    LintProblem,
    LintReport,
    ProblemKind,
    SkipReason,
    UndoResult,
    WorktreeStatus,
    WriteAction,
    WriteResult,
)
from memrepo.models.recall import Provenance, RecallHit, RecallResult, ReindexReport

__all__ = [
    "By",
    "CommitInfo",
    "EntryView",
    "ForgetResult",
    "LintProblem",
    "LintReport",
    "ProblemKind",
    "Provenance",
    "RecallHit",
    "RecallResult",
    "ReindexReport",
    "SkipReason",
    "UndoResult",
    "WorktreeStatus",
    "WriteAction",
    "WriteResult",
]
