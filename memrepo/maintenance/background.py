"""Starting the maintenance pass without a person: beside an ordinary command, and
every hour in a server, when a day has passed since the last pass.

The pass runs in a process of its own (a new session, no terminal, output discarded),
so it never delays the command that started it, a read or a write; its lock keeps two
from running at once. A memory whose state folder is not writable (a read-only mount)
is left alone. `MEMREPO_NO_MAINTENANCE=1` turns the background start off (the pass still
runs with `memrepo maintain`, or from a timer; see the README).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from memrepo.folder.lock import WriteLock
from memrepo.maintenance.state import LOCK_NAME, STATE_NAME, is_due, record

OFF = "MEMREPO_NO_MAINTENANCE"
#: How often a server looks whether the pass is due.
SERVER_CHECK_SECONDS = 3600.0


def start_if_due(root: Path, state_dir: Path, now: datetime | None = None) -> bool:
    """Start `memrepo maintain --if-due` in the background when it is due; whether it
    was started. A memory whose pass never ran starts counting now (its first pass
    runs a day after first use, not in the middle of setting it up)."""
    when = now or datetime.now(UTC)
    if os.environ.get(OFF) or not os.access(state_dir, os.W_OK):
        return False
    if not (state_dir / STATE_NAME).exists():
        record(state_dir, {})
        return False
    if not is_due(state_dir, when) or WriteLock(state_dir, 0.0, LOCK_NAME).held_elsewhere():
        return False
    command = [sys.executable, "-m", "memrepo", "--repo", str(root), "maintain", "--if-due"]
    subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )
    return True


def keep_maintained(root: Path, state_dir: Path) -> threading.Event:
    """A server's hourly look (a daemon thread); set the returned event to stop it."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            # A full disk or a vanished folder: the next hour looks again.
            with contextlib.suppress(OSError):
                start_if_due(root, state_dir)
            stop.wait(SERVER_CHECK_SECONDS)

    threading.Thread(target=loop, name="memrepo-maintenance", daemon=True).start()
    return stop
