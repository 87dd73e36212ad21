"""The read verbs of `MemoryRepo`: history, entries, files, worktree status, lint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.engine.core import Area
from memrepo.errors import EntryNotFound, InvalidUtf8
from memrepo.folder.paths import normalize_target
from memrepo.models import CommitInfo, EntryView, LintReport, WorktreeStatus

if TYPE_CHECKING:
    from collections.abc import Callable

    from memrepo.models.backlinks import Backlink
    from memrepo.models.commits import CommitDetail, MemoryChange
    from memrepo.models.items import ItemChange


class ReadsApi(Area):
    """Reads of the folder: what git holds and what a person left in the working tree."""

    def log(self, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
        """main's history, newest first."""
        return self.folder.log(limit=limit, path=path)

    def show_commit(self, commit: str) -> CommitDetail:
        """One commit with each file's unified diff against its first parent (capped per
        file and in all, binary files marked): what a person reads before trusting or
        undoing it. `commit` is a full id, a unique prefix or a revision."""
        from memrepo.folder.commit_view import show_commit

        return show_commit(self.folder.repo, commit)

    def on_change(self, listener: Callable[[MemoryChange], None]) -> Callable[[], None]:
        """Hear every change this process makes to the memory, in either store: one
        `MemoryChange` per folder commit (after the write lock is given back) and per
        memory_items change. Returns the function that stops it. A listener's failure
        never fails the write (reference §3 step 8, one change stream)."""
        from memrepo.folder.moves import commits_between
        from memrepo.models.commits import MemoryChange

        def folder_moved(before: str | None, after: str) -> None:
            for info in commits_between(self.folder.repo, before, after):
                listener(
                    MemoryChange(
                        store="folder", kind=info.origin or "commit", commit=info.id,
                        by=info.by, task=info.task, paths=info.paths,
                    )
                )  # fmt: skip

        def items_changed(change: ItemChange) -> None:
            listener(
                MemoryChange(
                    store="items", kind=change.kind, item_ids=change.item_ids,
                    workspace=change.workspace_id,
                )
            )  # fmt: skip

        stop_folder = self.folder.on_main_moved(folder_moved)
        stop_items = self.items.on_change(items_changed)

        def stop() -> None:
            stop_folder()
            stop_items()

        return stop

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry at HEAD (swarm folders excluded unless `path` names a file in one)."""
        return self.folder.entries(normalize_target(self.root, path) if path else None)

    def backlinks(self, path: str) -> list[Backlink]:
        """The lines of other files whose `[[link]]` leads to `path`, MEMORY.md's Index
        included (as the folder is on disk)."""
        from memrepo.folder.backlinks import backlinks

        return backlinks(self.folder, normalize_target(self.root, path))

    def read_text(self, path: str) -> str:
        """A memory file as it is in the working tree (what a person sees in an editor)."""
        relative = normalize_target(self.root, path)
        try:
            data = (self.root / relative).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            raise EntryNotFound(path, "no such file in the memory repo") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(relative, exc.start) from exc

    def status(self) -> WorktreeStatus:
        """Edits people left uncommitted, and the sync state when a remote or a team repo
        is configured (last success, last error, ahead/behind, conflict branches)."""
        status = self.folder.status()
        if self.config.remote is None and not self.config.teams:
            return status
        from memrepo.sync.api import sync_status

        return status.model_copy(update={"sync": sync_status(self.folder)})

    def lint(self) -> LintReport:
        """Format problems, broken links, unlisted files and secrets, with path and line."""
        from memrepo.folder.lint import lint_folder

        return lint_folder(self.folder)
