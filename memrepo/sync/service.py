"""`sync()`: commit pending edits, fetch, integrate, push main; then fetch the teams.

One sync runs at a time per root (the sync lock). The steps on the memory repo itself
run under the folder's write lock, so no memrepo write interleaves with them; the
network steps (fetch, push) run without it, so writes go on while the remote is slow.
The order is the one that never loses work:

1. people's uncommitted edits are committed (as every write does first);
2. the remote's main is fetched into `refs/memrepo/incoming/main` (no write lock:
   only that ref and new objects are written) and, under the write lock again with
   whatever was written meanwhile committed, checked: a remote that dropped commits it
   had (`HistoryRewritten`) or shares no history with us (`UnrelatedHistories`) is
   refused before anything moves;
3. main is integrated: nothing to do, a fast-forward, or an entry-aware merge commit
   (two parents; the losers of conflicts on a `sync/conflict-<date>-<n>` branch). A
   symlink, submodule or other non-file the remote brings is refused by path the same
   way, also where a fast-forward was possible (`sync.integration`, issue #27);
   Secrets the integration brought in are reported as warnings (`secret_guard`);
4. exactly that commit is pushed to the remote's main, never forced, and never when the
   commits it sends add a secret the remote lacks (`SecretWouldBePushed`) (no write lock:
   a write made meanwhile goes with the next sync). A rejection (the remote moved in
   the meantime) goes back to 2, at most `MAX_ATTEMPTS` times, then `SyncRejected`.

Each outcome, success or error, is recorded for `sync_status()`; a failure raises.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygit2

from memrepo.errors import (
    HistoryRewritten,
    MemrepoError,
    SecretWouldBePushed,
    SyncRejected,
    UnrelatedHistories,
)
from memrepo.folder.integrate import (
    INCOMING,
    REMOTE_MAIN,
    commit_pending_edits,
    fast_forward,
    record_remote_main,
    ref_target,
)
from memrepo.folder.lock import SYNC_LOCK_NAME, WriteLock
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import ConflictInfo, Integration, SyncReport, TeamSyncResult
from memrepo.sync.credentials import CredentialProvider
from memrepo.sync.integration import merge_remote, refused_from
from memrepo.sync.remote import GitRemote
from memrepo.sync.secret_guard import received_secrets, unpushed_secrets
from memrepo.sync.settings import credentials_for, remote_settings, require_remote
from memrepo.sync.status import record_failure, record_success
from memrepo.sync.teams import (
    fetch_teams,
    refuse_team_history,
    refuse_team_url,
    team_settings,
)
from memrepo.sync.tracking import track

#: Fetch-integrate-push rounds before a remote that keeps moving is reported.
MAX_ATTEMPTS = 5
#: Longest pause before a retry (seconds); random, so two machines racing drift apart.
_BACKOFF = 0.2
Progress = Callable[[str], None]
_WEIGHT: dict[Integration, int] = {
    "no_remote": 0, "up_to_date": 1, "ahead": 2, "first_push": 3, "fast_forward": 4, "merged": 5,
}  # fmt: skip


@dataclass(slots=True)
class _Outcome:
    """What the rounds of one sync did so far."""

    head: pygit2.Commit
    integration: Integration = "up_to_date"
    fetched: str | None = None
    conflicts: list[ConflictInfo] = field(default_factory=list)
    branch: str | None = None
    warnings: list[str] = field(default_factory=list)

    def saw(self, kind: Integration) -> None:
        if _WEIGHT[kind] > _WEIGHT[self.integration]:
            self.integration = kind


def sync(
    folder: MemoryFolder,
    *,
    credentials: CredentialProvider | None = None,
    progress: Progress | None = None,
) -> SyncReport:
    """Sync main with the user's remote, then fetch the team repos (module docstring)."""
    started = time.perf_counter()
    say = progress or _quiet
    settings = remote_settings(folder.config)
    provider = credentials or credentials_for(settings)
    if settings is None and team_settings(folder.config):
        teams = _fetch_teams(folder, provider, say)
        head = folder.store.main_id()
        return SyncReport(
            remote=None, integration="no_remote", head=head, teams=teams,
            seconds=time.perf_counter() - started,
        )  # fmt: skip
    failure: MemrepoError | None = None
    try:
        url = require_remote(folder.config).url
        refuse_team_url(folder.config, url)
        remote = GitRemote(Path(folder.repo.path), url, provider)
        report = _sync_main(folder, remote, say)
        record_success(folder.state_dir, folder.clock.now())
    except MemrepoError as exc:
        record_failure(folder.state_dir, exc, folder.clock.now())
        failure = exc
    teams = _fetch_teams(folder, provider, say)
    if failure is not None:
        raise failure
    return report.model_copy(update={"teams": teams, "seconds": time.perf_counter() - started})


def _quiet(_message: str) -> None:
    return None


def _fetch_teams(
    folder: MemoryFolder, credentials: CredentialProvider, say: Progress
) -> tuple[TeamSyncResult, ...]:
    if not team_settings(folder.config):
        return ()
    say("fetching team repos")
    return fetch_teams(folder, folder.clock.now(), credentials)


def _sync_main(folder: MemoryFolder, remote: GitRemote, say: Progress) -> SyncReport:
    """The rounds of module docstring steps 1-4. The sync lock keeps a second sync of
    this root out for the whole run; the write lock is held only for the local steps, so
    a `remember` waits for a merge at most, never for the network."""
    with _sync_lock(folder):
        head, edits = _commit_edits(folder, say)
        outcome = _Outcome(head=head)
        last_reason = ""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            say(f"fetching main from {remote.url}")
            incoming = _fetch(folder, remote)
            with folder.lock:  # what was written during the fetch is part of main now
                outcome.head, more_edits = _commit_edits(folder, _quiet)
                edits = more_edits or edits
                refuse_team_history(folder, remote.url, outcome.head.id, incoming)
                _check_history(folder, remote.url, outcome.head, incoming)
                outcome.fetched = str(incoming) if incoming is not None else None
                before = outcome.head.id
                _integrate(folder, outcome, incoming, remote.url, say)
                _warn_received(folder, outcome, before, remote.url)
                if incoming is not None and outcome.head.id == incoming:
                    record_remote_main(folder, incoming)
                    return _report(remote.url, edits, outcome, attempt, pushed=False)
            _refuse_secrets(folder, outcome.head.id, incoming)
            say(f"pushing main to {remote.url}")
            # Exactly the commit integrated above: writes made since wait for the next sync.
            push = remote.push_main(str(outcome.head.id))
            if push.accepted:
                with folder.lock:
                    record_remote_main(folder, outcome.head.id)
                    track(folder.repo, remote.url, outcome.head.id, "update by push: memrepo sync")
                return _report(remote.url, edits, outcome, attempt, pushed=True)
            last_reason = push.reason
            time.sleep(random.uniform(0, _BACKOFF * attempt))
        raise SyncRejected(
            f"push to {remote.url} was rejected {MAX_ATTEMPTS} times ({last_reason}): the "
            "remote kept changing (or refuses pushes). Everything is committed and merged "
            "locally; sync again later, or check the remote's branch protection and hooks"
        )


def _sync_lock(folder: MemoryFolder) -> WriteLock:
    return WriteLock(folder.state_dir, folder.config.lock_timeout_seconds, SYNC_LOCK_NAME)


def _commit_edits(folder: MemoryFolder, say: Progress) -> tuple[pygit2.Commit, str | None]:
    """main after committing people's uncommitted edits, and that commit (None when
    there were none)."""
    with folder.lock:
        before = folder.store.main_id()
        say("committing pending edits")
        head = commit_pending_edits(folder)
        return head, (str(head.id) if str(head.id) != before else None)


def _report(
    url: str, edits: str | None, outcome: _Outcome, attempts: int, *, pushed: bool
) -> SyncReport:
    return SyncReport(
        remote=url,
        edits_committed=edits,
        fetched=outcome.fetched,
        integration=outcome.integration,
        head=str(outcome.head.id),
        pushed=pushed,
        attempts=attempts,
        conflicts=tuple(outcome.conflicts),
        conflict_branch=outcome.branch,
        warnings=tuple(outcome.warnings),
    )


def _warn_received(folder: MemoryFolder, outcome: _Outcome, before: pygit2.Oid, url: str) -> None:
    """Report secrets the integration brought into main (never accepted silently)."""
    if outcome.head.id == before:
        return
    for where in received_secrets(folder.repo, before, outcome.head.id):
        warning = (
            f"{where.path}:{where.line}: a secret ({where.kind}) came from {url}; remove "
            "the line and rotate the credential (the remote's history still holds it)"
        )
        if warning not in outcome.warnings:
            outcome.warnings.append(warning)


def _refuse_secrets(folder: MemoryFolder, head: pygit2.Oid, remote: pygit2.Oid | None) -> None:
    """SecretWouldBePushed when the push would add a secret the remote lacks (the rule is
    in `secret_guard`); checked before anything is sent."""
    added = unpushed_secrets(folder.repo, head, remote)
    if added:
        first = added[0]
        raise SecretWouldBePushed(first.commit, str(first.where), len(added) - 1)


def _fetch(folder: MemoryFolder, remote: GitRemote) -> pygit2.Oid | None:
    """The remote's main (None: it has none), fetched; git's remote-tracking ref learns
    it as a `git fetch` would (`sync.tracking`), checked or not."""
    incoming = ref_target(folder.repo, INCOMING) if remote.fetch_main(INCOMING) else None
    with folder.lock:
        track(folder.repo, remote.url, incoming, "fetch: memrepo sync")
    return incoming


def _check_history(
    folder: MemoryFolder, url: str, head: pygit2.Commit, incoming: pygit2.Oid | None
) -> None:
    """Refuse a remote that lost commits it had, or one with a history unrelated to ours."""
    repo = folder.repo
    known = ref_target(repo, REMOTE_MAIN)
    rewritten = known is not None and (
        incoming is None or (incoming != known and not repo.descendant_of(incoming, known))
    )
    if rewritten:
        assert known is not None
        now = "has no main any more" if incoming is None else f"moved to {str(incoming)[:10]}"
        raise HistoryRewritten(
            f"{url} rewrote its history: its main was {str(known)[:10]} at the last sync and "
            f"{now}, dropping commits. Nothing was changed here and nothing was pushed. "
            f"Compare with `git log {INCOMING}`; if the rewrite was intended, run "
            f"`memrepo remote set {url} --i-own-this-private-repo` again and sync: your "
            "local commits are kept and merged back"
        )
    if incoming is not None and repo.merge_base(head.id, incoming) is None:
        raise UnrelatedHistories(
            f"{url} holds a memory with a history unrelated to this one; nothing was merged "
            "or pushed. To work on that memory, start from it with `memrepo clone "
            f"{url} NEW_FOLDER --i-own-this-private-repo`; to sync this memory, point "
            "`memrepo remote set` at an empty private repository instead"
        )


def _integrate(
    folder: MemoryFolder,
    outcome: _Outcome,
    incoming: pygit2.Oid | None,
    url: str,
    say: Progress,
) -> None:
    repo, head = folder.repo, outcome.head
    if incoming is None:
        outcome.saw("first_push")
    elif incoming == head.id:
        outcome.saw("up_to_date")
    elif repo.descendant_of(head.id, incoming):
        outcome.saw("ahead")
    elif repo.descendant_of(incoming, head.id) and not refused_from(repo, head, incoming):
        fast_forward(folder, head, incoming)
        outcome.saw("fast_forward")
    else:
        # Also a fast-forward that would bring a symlink or submodule: the merge commit
        # keeps main's version of that path and the remote's on a conflict branch.
        say("merging entries")
        merged = merge_remote(folder, head, incoming, url)
        outcome.branch = merged.branch or outcome.branch
        outcome.conflicts.extend(merged.conflicts)
        outcome.saw("merged")
    main = folder.store.main_commit()
    assert main is not None
    outcome.head = main
