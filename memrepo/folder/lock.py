"""The write lock that serializes every writer of one memory root, across processes.

`flock` is released by the kernel when its holder dies, so a lock file left behind by a
killed process is never stale: the next writer simply acquires it. The holder's pid is
written into the file only to name it in a timeout message.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from types import TracebackType

from memrepo._platform import fcntl
from memrepo.errors import LockTimeout

LOCK_NAME = "write.lock"
#: Held for a whole `sync` (one at a time per root), while the write lock is held only
#: for its local steps, so writes never wait for the network.
SYNC_LOCK_NAME = "sync.lock"


class WriteLock:
    """A blocking, re-entrant-per-object exclusive lock on `<state>/write.lock` (or on
    another lock file of the state folder, `name`)."""

    def __init__(self, state_dir: Path, timeout: float = 30.0, name: str = LOCK_NAME) -> None:
        self.path = state_dir / name
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0
        # flock is per open file, not per thread: threads of one process sharing this
        # object are serialized here first (re-entrant for the thread that holds it).
        self._threads = threading.RLock()

    def acquire(self) -> None:
        if not self._threads.acquire(timeout=self.timeout):
            raise LockTimeout(str(self.path), self.timeout, "another thread of this process")
        if self._fd is not None:
            self._depth += 1
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = _read_holder(fd)
                    os.close(fd)
                    self._threads.release()
                    raise LockTimeout(str(self.path), self.timeout, holder) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
        # Fixed width, so no truncate is needed to overwrite an older holder's pid.
        os.pwrite(fd, f"pid {os.getpid():<12}\n".encode(), 0)
        self._fd = fd
        self._depth = 1

    def release(self) -> None:
        if self._fd is None:
            return
        self._depth -= 1
        if self._depth == 0:
            fd, self._fd = self._fd, None
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        self._threads.release()

    def __enter__(self) -> WriteLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 64, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
