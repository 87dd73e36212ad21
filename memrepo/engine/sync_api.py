"""The sync verbs of `MemoryRepo`: remote, team repos, conflicts, git hooks (memrepo.sync)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from memrepo.models.gitsetup import GitHooksReport
    from memrepo.models.sync import (
        ConflictBranch,
        ConflictDetail,
        RemoteInfo,
        SyncReport,
        SyncStatus,
        TeamInfo,
    )


class SyncApi(Area):
    """Sync: the user's private remote, read-only team repos, and plain git working
    alongside."""

    def set_remote(
        self, url: str, *, confirm_private: bool = False, ssh_key: str | None = None
    ) -> RemoteInfo:
        """Sync with `url`, only once the user confirms it is private and theirs; a URL
        with credentials, or a team repo's, is refused."""
        from memrepo.sync.api import set_remote

        return set_remote(self.folder, url, confirm_private=confirm_private, ssh_key=ssh_key)

    def remote(self) -> RemoteInfo | None:
        """The configured remote, or None."""
        from memrepo.sync.api import remote

        return remote(self.folder)

    def remove_remote(self) -> RemoteInfo | None:
        """Stop syncing (the remote is untouched); returns what was removed."""
        from memrepo.sync.api import remove_remote

        return remove_remote(self.folder)

    def sync(self, *, progress: Callable[[str], None] | None = None) -> SyncReport:
        """Commit pending edits, fetch, merge entry by entry, push main (never forced,
        nothing else), then fetch the team repos; raises when it fails (and records it)."""
        from memrepo.sync.api import sync

        return sync(self.folder, progress=progress)

    def sync_status(self) -> SyncStatus:
        """Last success and error, ahead/behind, conflict branches, teams (no network)."""
        from memrepo.sync.api import sync_status

        return sync_status(self.folder)

    def team_add(self, name: str, url: str) -> TeamInfo:
        """Add a read-only team memory repo (at most three) and fetch it."""
        from memrepo.sync.api import team_add

        return team_add(self.folder, name, url)

    def team_list(self) -> list[TeamInfo]:
        """The team repos and the state of their local clones."""
        from memrepo.sync.api import team_list

        return team_list(self.folder)

    def team_remove(self, name: str) -> TeamInfo:
        """Forget a team repo and delete its local clone."""
        from memrepo.sync.api import team_remove

        return team_remove(self.folder, name)

    def conflicts(self) -> list[ConflictBranch]:
        """Branches holding the losing side of sync merges, oldest first."""
        from memrepo.sync.api import conflicts

        return conflicts(self.folder)

    def conflict(self, name: str) -> ConflictDetail:
        """One conflict branch: both versions of each conflicted path, and the diff."""
        from memrepo.sync.api import conflict

        return conflict(self.folder, name)

    def resolve_conflict(self, name: str, keep: Literal["main", "theirs"]) -> str | None:
        """The person settles a conflict branch: "main" keeps main as it is, "theirs" puts
        the branch's losing versions back on main (one `by: user` commit, undoable, whose
        id is returned); either way the branch is deleted. Refused, nothing written, when
        main changed those files again since the merge."""
        from memrepo.sync.conflicts import resolve_conflict

        return resolve_conflict(self.folder, name, keep)

    def install_git_hooks(self) -> GitHooksReport:
        """Make a plain `git pull` merge entries like sync does (a merge driver) and check
        commits people make by hand (pre-commit: secrets block, format warns). Writes only
        inside .git/; running it again changes nothing."""
        from memrepo.sync.hooks import install_git_hooks

        return install_git_hooks(self.root)
