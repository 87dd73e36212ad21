"""The dreaming verbs of `MemoryRepo`: clean-up runs and their review branches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from memrepo.dreaming.model import DreamModel
    from memrepo.models.dream import (
        AcceptResult,
        CurationChange,
        DreamReport,
        DreamStatus,
        RecentNote,
        RejectResult,
        ReviewDetail,
        ReviewSummary,
    )


class DreamApi(Area):
    """Dreaming (docs/architecture.md §11): safe changes on main, the rest for a person to
    review."""

    def dream(
        self,
        *,
        model: DreamModel | None = None,
        recent_notes: Sequence[RecentNote | str] = (),
        now: datetime | None = None,
        dry_run: bool = False,
    ) -> DreamReport:
        """Clean up the folder (docs/architecture.md §11): safe changes as one undoable
        commit on main, the rest on one `dream/<date>-<n>` review branch; then commitment
        expiry for memory_items. Offline (deterministic passes only) unless a `model` is
        given."""
        from memrepo.dreaming.run import dream, items_curator

        curator = None if dry_run else items_curator(self.folder.state_dir, lambda: self.items)
        return dream(
            self.folder, model=model, recent_notes=recent_notes, now=now, dry_run=dry_run,
            curator=curator,
        )  # fmt: skip

    def list_reviews(self) -> list[ReviewSummary]:
        """Open dream review branches, oldest first."""
        from memrepo.dreaming.review import list_reviews

        return list_reviews(self.folder)

    def show_review(self, name: str) -> ReviewDetail:
        """A review's operations with a per-entry diff and the reasons."""
        from memrepo.dreaming.review import show_review

        return show_review(self.folder, name)

    def accept_review(self, name: str, ops: Sequence[int | str] | None = None) -> AcceptResult:
        """Apply a review (or the operations numbered / fingerprinted in `ops`) to main as
        one commit; the rest stay pending on the review branch. ReviewConflict when main
        changed their lines."""
        from memrepo.dreaming.review import accept_review

        return accept_review(self.folder, name, ops)

    def reject_review(self, name: str, ops: Sequence[int | str] | None = None) -> RejectResult:
        """Reject a review (or the operations numbered / fingerprinted in `ops`, the rest
        staying pending); what is rejected is never proposed again."""
        from memrepo.dreaming.review import reject_review

        return reject_review(self.folder, name, ops)

    def last_dream(self) -> DreamStatus:
        """When the last dream ran, what it found, and the reviews still open (health)."""
        from memrepo.dreaming.review import last_dream

        return last_dream(self.folder)

    def curation_log(self, limit: int = 50) -> list[CurationChange]:
        """The changes dreams made to memory items (closed commitments), newest first,
        undone ones included (with `undone_at`): what `undo_curation` takes ids from."""
        from memrepo.errors import InvalidArgument
        from memrepo.items.curation import curation_log

        if limit < 1:
            raise InvalidArgument(f"limit must be at least 1, not {limit}")
        return curation_log(self.items)[:limit]

    def undo_curation(self, change_id: int) -> CurationChange:
        """Reopen a commitment a dream closed; it is never closed automatically again."""
        from memrepo.items.curation import undo_curation

        return undo_curation(self.items, change_id)
