"""git's stat cache written back after a byte copy of the folder, so the working-tree
scan before every write stays cheap (the scan itself, and the watch that keeps it
cheaper still, are `memrepo.folder.worktree_scan`).

git's index remembers each file's inode, times and size, so a status scan hashes only
files whose stat changed. A byte copy (``cp -r``, rsync, a restore, another disk)
changes every inode and ctime while no content changes: libgit2's status then re-hashes
every file on every scan and, unlike ``git status``, never writes the fresh stat data
back. Measured at 500 files: each scan 22 ms instead of 1.1 ms, each ``remember``
26.5 ms instead of 5.1 ms, for good (issue #16).

Two signs say the cache is stale: the folder is not where it was (its root directory's
device and inode differ from the ones recorded in ``<state_dir>/worktree-id`` at the last
write: a copy, or a move to another disk; a rename on the same disk keeps every inode),
or a write's scan was slower than a clean one could be. Then the write transaction runs
``git update-index -q --refresh`` once, under memrepo's write lock: it rewrites the stat
data of files whose content matches the index and stages nothing (a changed file stays
changed, and is committed as the person's edit as always). pygit2 exposes neither
libgit2's ``GIT_STATUS_OPT_UPDATE_INDEX`` nor the index entries' stat fields, hence the
git command line, which sync and export already need.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["folder_moved", "is_stale_scan", "refresh_stat_cache"]

WORKTREE_ID = "worktree-id"

PER_FILE_SECONDS = 15e-6
"""A scan slower than this per tracked file is re-hashing (a clean scan costs 2-4 us a
file here, a re-hashing one about 40 us)."""
MIN_SECONDS = 0.005
"""Scans faster than this are never worth a refresh, whatever the file count."""
TIMEOUT_SECONDS = 60.0


def is_stale_scan(seconds: float, tracked_files: int) -> bool:
    """Whether a status scan of that duration over that many files was re-hashing them."""
    return seconds >= max(MIN_SECONDS, PER_FILE_SECONDS * tracked_files)


def folder_moved(state_dir: Path, root: Path) -> bool:
    """Whether ``root`` is another directory than at the last check (and record it).

    The first check of a folder records it and says no: a new repo's cache is fresh.
    """
    try:
        stat = root.stat()
    except OSError:
        return False
    current = f"{stat.st_dev}:{stat.st_ino}"
    marker = state_dir / WORKTREE_ID
    try:
        recorded = marker.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        recorded = ""
    if recorded == current:
        return False
    try:
        marker.write_text(current + "\n", encoding="ascii")
    except OSError:
        return False  # a read-only state dir: never a refresh loop
    return bool(recorded)


def refresh_stat_cache(root: Path) -> bool:
    """Write fresh stat data for unchanged files into git's index; True when git ran.

    Best effort: a missing git, a held ``index.lock`` or a timeout leave the index as it
    was (the scans stay slow, nothing is lost). Exit status 1 only says some files differ
    from the index, which is expected.
    """
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "update-index", "-q", "--refresh"],
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode in (0, 1)


# --- the watch: rescan only what changed -------------------------------------------
