"""memory_status, memory_reviews and memory_review: the state of memory, and the dream
cleanups waiting for the user.

A dream ("cleanup") may leave its riskier changes on a review branch instead of main.
The agent can see them and tell the user, but whether they land is the user's decision:
memory_review asks the host's user every time (`ForgetRequest.action` accept_review or
reject_review), whoever the agent is. Nothing here pushes, fetches or touches a remote:
the sync state shown is what the last sync recorded locally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from memrepo.errors import ApprovalDenied, EntryNotFound, InvalidArgument, ToolInputError
from memrepo.tools.approval import ForgetRequest
from memrepo.tools.files import visible_path
from memrepo.tools.models import DATA_NOTICE, ToolInput, ToolOutput, moment
from memrepo.tools.tool import READ_ONLY, Tool, ToolHints

if TYPE_CHECKING:
    from memrepo.models import ReviewSummary
    from memrepo.tools.tool import ToolEnv

STATUS = "memory_status"
REVIEWS = "memory_reviews"
REVIEW = "memory_review"


class StatusInput(ToolInput):
    """memory_status takes no arguments."""


class StatusOutput(ToolOutput):
    """Where memory stands: edits the user has not committed yet (the next write commits
    them first), reviews waiting, and the last sync as recorded locally."""

    head: str | None
    clean: bool
    modified: list[str]
    added: list[str]
    deleted: list[str]
    pending_reviews: list[str]
    remote: str | None = None
    last_sync: str | None = None
    last_sync_error: str | None = None
    ahead: int | None = None
    behind: int | None = None
    conflict_branches: list[str] = Field(default_factory=list)
    teams: list[str] = Field(default_factory=list)


class ReviewsInput(ToolInput):
    """Arguments of memory_reviews."""

    name: str | None = Field(
        default=None,
        max_length=200,
        description="One review's name to show its operations; omit to list them all.",
    )


class ReviewOperation(ToolOutput):
    """One proposed change of a review (numbered from 1, as memory_review's `ops` take)."""

    number: int
    kind: str
    path: str
    text: str | None = None
    dest: str | None = None
    reason: str


class ReviewListed(ToolOutput):
    """One pending review."""

    name: str
    created_at: str
    operations: int
    up_to_date: bool


class ReviewsOutput(ToolOutput):
    """The result of memory_reviews: the list, or one review with its operations."""

    notice: str = DATA_NOTICE
    reviews: list[ReviewListed] = Field(default_factory=list)
    operations: list[ReviewOperation] = Field(default_factory=list)
    diff: str | None = None


class ReviewInput(ToolInput):
    """Arguments of memory_review."""

    name: str = Field(min_length=1, max_length=200, description="The review's name.")
    decision: Literal["accept", "reject"] = Field(
        description="accept (land its changes on main) or reject (drop them for good)."
    )
    ops: list[int] | None = Field(
        default=None,
        max_length=200,
        description="For accept: only these operation numbers (the rest stay pending for "
        "the user to decide); omit to accept all.",
    )


class ReviewOutput(ToolOutput):
    """The result of memory_review."""

    name: str
    decision: Literal["accept", "reject"]
    commit: str | None = None
    accepted: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list)
    pending: list[str] = Field(default_factory=list)


def status(env: ToolEnv, args: StatusInput) -> StatusOutput:
    """The worktree, the reviews and the locally recorded sync state."""
    worktree = env.repo.status()
    sync = worktree.sync
    return StatusOutput(
        head=worktree.head,
        clean=worktree.clean,
        modified=[p for p in worktree.modified if visible_path(env, p)],
        added=[p for p in worktree.added if visible_path(env, p)],
        deleted=[p for p in worktree.deleted if visible_path(env, p)],
        pending_reviews=[review.name for review in env.repo.list_reviews()],
        remote=sync.remote if sync else None,
        last_sync=moment(sync.last_success) if sync and sync.last_success else None,
        last_sync_error=sync.last_error if sync else None,
        ahead=sync.ahead if sync else None,
        behind=sync.behind if sync else None,
        conflict_branches=list(sync.conflict_branches) if sync else [],
        teams=[team.name for team in sync.teams] if sync else [],
    )


def reviews(env: ToolEnv, args: ReviewsInput) -> ReviewsOutput:
    """Every pending review, or one with its numbered operations and diff."""
    if args.name is None:
        return ReviewsOutput(reviews=[_listed(r) for r in env.repo.list_reviews()])
    detail = env.repo.show_review(_known(env, args.name))
    return ReviewsOutput(
        reviews=[_listed(detail.summary)],
        operations=[
            ReviewOperation.from_result(op, number=n) for n, op in enumerate(detail.ops, 1)
        ],
        diff=detail.diff,
    )


def review(env: ToolEnv, args: ReviewInput) -> ReviewOutput:
    """Accept (all or some operations) or reject one review, with the user's approval."""
    name = _known(env, args.name)
    if args.decision == "reject" and args.ops:
        raise ToolInputError(REVIEW, ["ops: only accept takes operation numbers"])
    picked = f" operations {args.ops}" if args.ops else ""
    request = ForgetRequest(
        ref=name,
        text=f"{args.decision} the dream review {name}{picked}",
        store="folder",
        task_id=env.context.task_id,
        action="accept_review" if args.decision == "accept" else "reject_review",
        change=f"{args.decision}{picked}",
    )
    if not env.approval(request):
        raise ApprovalDenied(name, "the user did not approve", action=request.action)
    try:
        if args.decision == "reject":
            rejected = env.repo.reject_review(name)
            return ReviewOutput(name=name, decision="reject", rejected=list(rejected.rejected))
        accepted = env.repo.accept_review(name, args.ops)
    except InvalidArgument as exc:
        raise ToolInputError(REVIEW, [str(exc)]) from exc
    return ReviewOutput(
        name=name,
        decision="accept",
        commit=accepted.commit,
        accepted=list(accepted.accepted),
        rejected=list(accepted.rejected),
        pending=list(accepted.pending),
    )


def _listed(review: ReviewSummary) -> ReviewListed:
    return ReviewListed(
        name=review.name,
        created_at=moment(review.created_at),
        operations=review.ops,
        up_to_date=review.base_on_main,
    )


def _known(env: ToolEnv, name: str) -> str:
    """`name` when it is a pending review; "not found" otherwise."""
    wanted = name.strip()
    if wanted not in {r.name for r in env.repo.list_reviews()}:
        raise EntryNotFound(name, "no pending review of that name; memory_reviews lists them")
    return wanted


STATUS_TOOL = Tool(
    name=STATUS,
    title="Memory status",
    description=(
        "Show where memory stands: files the user edited and has not committed yet (the "
        "next write records them first), cleanup reviews waiting for the user, and the "
        "last sync with the user's remote as recorded locally."
    ),
    input_model=StatusInput,
    handler=status,
    output_model=StatusOutput,
    hints=READ_ONLY,
)
REVIEWS_TOOL = Tool(
    name=REVIEWS,
    title="Pending cleanup reviews",
    description=(
        "List the memory cleanups (dreams) waiting for the user's review, or show one by "
        "name with its numbered operations, their reasons and the per-entry diff, so you "
        "can tell the user what it proposes."
    ),
    input_model=ReviewsInput,
    handler=reviews,
    output_model=ReviewsOutput,
    hints=READ_ONLY,
)
REVIEW_TOOL = Tool(
    name=REVIEW,
    title="Accept or reject a cleanup review",
    description=(
        "Accept (all or some operations) or reject one pending cleanup review. This is "
        "the user's decision: call it only when the user told you what to do; the user "
        "is asked to approve every time."
    ),
    input_model=ReviewInput,
    handler=review,
    output_model=ReviewOutput,
    hints=ToolHints(destructive=True),
)
