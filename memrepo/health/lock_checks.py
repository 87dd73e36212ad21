"""Is a writer stuck holding the write lock?

The lock is an `flock` on `<state>/write.lock`: the kernel drops it when its holder
exits, so the file itself always stays behind and means nothing. What can go wrong is a
lock still held: by a writer that has been at it for longer than any write takes, or by
a process other than the one named in the file (a child that inherited the descriptor
and outlived its parent). The probe takes a shared lock without waiting and lets go at
once; it never creates the file.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from memrepo._platform import fcntl
from memrepo.diskio import flock_within
from memrepo.folder.lock import LOCK_NAME
from memrepo.health.grading import graded
from memrepo.health.readings import HealthContext
from memrepo.models.health import HealthCheck


@dataclass(frozen=True, slots=True)
class LockState:
    """`held`: someone holds the lock now; `pid`: who the file names; `age`: seconds
    since the holder wrote its pid (when it took the lock)."""

    exists: bool
    held: bool = False
    pid: int | None = None
    age: float = 0.0


def probe_lock(ctx: HealthContext) -> LockState:
    path = ctx.folder.state_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return LockState(exists=False)
    try:
        held = not flock_within(fd, 0.0, shared=True)
        if not held:
            fcntl.flock(fd, fcntl.LOCK_UN)
        text = os.pread(fd, 64, 0).decode("utf-8", "replace").split()
        modified = os.fstat(fd).st_mtime
    finally:
        os.close(fd)
    pid = int(text[1]) if len(text) >= 2 and text[0] == "pid" and text[1].isdigit() else None
    # Wall time, not the injected clock: the file's mtime is wall time too.
    age = max(0.0, time.time() - modified)
    return LockState(exists=True, held=held, pid=pid, age=age)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    return True


def write_lock(ctx: HealthContext) -> HealthCheck:
    state = probe_lock(ctx)
    limit = ctx.limits.write_lock
    path = ctx.folder.state_dir / LOCK_NAME
    fix = f"stop the process holding it (fuser -v {path}); memrepo needs no cleanup after"
    if not state.held:
        return graded("write_lock", 0, limit, unit="s", detail="no writer holds it", fix="")
    if state.pid is not None and not _alive(state.pid):
        return HealthCheck(
            name="write_lock",
            status=limit.level,
            figure=round(state.age, 2),
            threshold=limit.max,
            unit="s",
            detail=f"held, but pid {state.pid} named in it is gone (an inherited descriptor)",
            fix=fix,
        )
    who = f"pid {state.pid}" if state.pid is not None else "an unnamed process"
    return graded(
        "write_lock",
        state.age,
        limit,
        unit="s",
        detail=f"held by {who} for {state.age:.0f} s",
        fix=fix,
    )
