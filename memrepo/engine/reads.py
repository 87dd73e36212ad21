"""The read verbs of `MemoryRepo`: history, entries, files, worktree status, lint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.engine.core import Area
from memrepo.errors import EntryNotFound, InvalidUtf8
from memrepo.folder.paths import normalize_target
from memrepo.models import CommitInfo, EntryView, LintReport, WorktreeStatus

if TYPE_CHECKING:
    from memrepo.models.commits import CommitDetail


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

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry at HEAD (swarm folders excluded unless `path` names a file in one)."""
        return self.folder.entries(normalize_target(self.root, path) if path else None)

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
