"""The write lock that serializes every writer of one memory root, across processes.

`flock` is released by the kernel when its holder dies, so a lock file left behind by a
killed process is never stale: the next writer simply acquires it. The holder's pid is
written into the file only to name it in a timeout message.

A server's write may wait here for another process; its client may cancel meanwhile
(issue #28). The thread that waits cannot be interrupted from outside, so the server
hands it a flag (`cancelled_by`) and the wait checks it: a cancelled write gives up
with `CallCancelled` before it holds the lock, so nothing is written.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import TracebackType

from memrepo._platform import fcntl
from memrepo.diskio import flock_within
from memrepo.errors import CallCancelled, LockTimeout

LOCK_NAME = "write.lock"
#: Held for a whole `sync` (one at a time per root), while the write lock is held only
#: for its local steps, so writes never wait for the network.
SYNC_LOCK_NAME = "sync.lock"
#: Held by a writer from its release of the write lock until the index has followed its
#: write (`MemoryFolder.writes_settling`, issue #28).
SETTLE_LOCK_NAME = "settle.lock"
#: How often a wait for this process's other threads looks at the cancel flag.
_THREAD_POLL_SECONDS = 0.05

_CANCEL: ContextVar[threading.Event | None] = ContextVar("memrepo_cancel", default=None)


@contextmanager
def cancelled_by(flag: threading.Event) -> Iterator[None]:
    """Waits for a lock inside the block give up (`CallCancelled`) once `flag` is set."""
    token = _CANCEL.set(flag)
    try:
        yield
    finally:
        _CANCEL.reset(token)


def raise_if_cancelled() -> None:
    """`CallCancelled` when the call running in this context was cancelled."""
    flag = _CANCEL.get()
    if flag is not None and flag.is_set():
        raise CallCancelled()


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
        #: Told when the lock is taken, when it is about to be given back (still held)
        #: and once it is given back (outermost only): the folder watches its branch
        #: move here, so whatever a write moves is followed right behind it, outside the
        #: lock, while readers know a catch-up is coming (issue #28).
        self.on_taken: Callable[[], None] | None = None
        self.on_releasing: Callable[[], None] | None = None
        self.on_released: Callable[[], None] | None = None

    def acquire(self) -> None:
        self._acquire_thread()
        if self._fd is not None:
            self._depth += 1
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except BaseException:
            self._threads.release()
            raise
        try:
            taken = flock_within(fd, self.timeout, check=raise_if_cancelled)
        except CallCancelled:
            os.close(fd)
            self._threads.release()
            raise
        if not taken:
            holder = _read_holder(fd)
            os.close(fd)
            self._threads.release()
            raise LockTimeout(str(self.path), self.timeout, holder)
        # Fixed width, so no truncate is needed to overwrite an older holder's pid.
        os.pwrite(fd, f"pid {os.getpid():<12}\n".encode(), 0)
        self._fd = fd
        self._depth = 1
        if self.on_taken is not None:
            self.on_taken()

    def try_acquire(self) -> bool:
        """Take the lock only if it is free right now; False if anyone holds it. For
        what a reader may do but must never wait for (issue #28: finishing a crashed
        write when it opens the repo; a live holder finishes or recovers it anyway)."""
        timeout, self.timeout = self.timeout, 0.0
        try:
            self.acquire()
        except LockTimeout:
            return False
        finally:
            self.timeout = timeout
        return True

    def held_elsewhere(self) -> bool:
        """Whether another handle or process holds the lock right now, asked without
        taking it (a shared flock, refused while anyone holds it exclusively, and given
        back at once): a reader reads the index's last state instead of catching it up
        while a write or its catch-up is under way (issue #28)."""
        if self._fd is not None:
            return False
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False  # never taken here: nobody holds it
        try:
            return not flock_within(fd, 0.0, shared=True)
        finally:
            os.close(fd)  # closing gives a shared lock back

    def _acquire_thread(self) -> None:
        """This object's thread lock, waited for in slices so a cancel is seen."""
        deadline = time.monotonic() + self.timeout
        while not self._threads.acquire(timeout=_THREAD_POLL_SECONDS):
            raise_if_cancelled()
            if time.monotonic() >= deadline:
                raise LockTimeout(str(self.path), self.timeout, "another thread of this process")
        if self._fd is None:  # a nested acquire of the holder is never cancelled
            try:
                raise_if_cancelled()
            except CallCancelled:
                self._threads.release()
                raise

    def release(self) -> None:
        if self._fd is None:
            return
        self._depth -= 1
        outermost = self._depth == 0
        try:
            if outermost and self.on_releasing is not None:
                self._depth = 1  # what it does itself re-enters, never releases
                try:
                    self.on_releasing()
                finally:
                    self._depth = 0
        finally:
            if outermost:
                fd, self._fd = self._fd, None
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
            self._threads.release()
        if outermost and self.on_released is not None:
            self.on_released()

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
