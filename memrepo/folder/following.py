"""Following a memory root's writes: the listeners told, once the write lock is given
back, that main moved, and the settle lock readers see meanwhile.

The search index follows each write in the writer's time, never in the next reader's
(issue #28), and other writers never wait for it: the write lock's hooks note main when
it is taken, take the settle lock as it is given back (when main moved), and tell the
listeners after it is free. Readers see `writes_settling` until the listeners are done,
so they never do the same catch-up beside it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from memrepo.folder.gitstore import GitStore
from memrepo.folder.lock import SETTLE_LOCK_NAME, WriteLock, cancelled_by

_log = logging.getLogger(__name__)


class WriteFollowers:
    """The listeners to one folder handle's writes, told through its write lock's hooks."""

    def __init__(self, store: GitStore, lock: WriteLock, state_dir: Path) -> None:
        self._store = store
        self._lock = lock
        #: Called right behind every write that moved main (see `after_write`), and
        #: with where main was and is (`on_main_moved`).
        self._written: list[Callable[[], None]] = []
        self._moves: list[Callable[[str | None, str], None]] = []
        self._main_when_taken: str | None = None
        self._moved_from: str | None = None
        #: Held by a writer from just before it gives the write lock back until the
        #: index has followed its write: readers meanwhile read the index's last state
        #: instead of doing the same catch-up beside it (`writes_settling`).
        self.settling = WriteLock(state_dir, 0.0, SETTLE_LOCK_NAME)
        self._moved = self._settled_by_us = False
        lock.on_taken = self._note_main
        lock.on_releasing = self._announce_catch_up
        lock.on_released = self._tell_written

    def after_write(self, listener: Callable[[], None]) -> None:
        """Call `listener` after each write that moved main (after the outermost write of
        a held group), once the write lock is given back. A listener's failure never
        fails the write, which has landed."""
        self._written.append(listener)

    def on_main_moved(self, listener: Callable[[str | None, str], None]) -> Callable[[], None]:
        """Call `listener(before, after)` with main's old and new commit after each write
        that moved it; returns the function that stops it."""
        self._moves.append(listener)

        def stop() -> None:
            if listener in self._moves:
                self._moves.remove(listener)

        return stop

    def writes_settling(self) -> bool:
        """Whether another handle or process is writing, or following its write with a
        catch-up: a reader then reads the index's last state (issue #28)."""
        return self._lock.held_elsewhere() or self.settling.held_elsewhere()

    def _note_main(self) -> None:
        watched = self._written or self._moves
        self._main_when_taken = self._store.main_id() if watched else None

    def _announce_catch_up(self) -> None:
        before, self._main_when_taken = self._main_when_taken, None
        watched = bool(self._written or self._moves)
        self._moved = watched and before != self._store.main_id()
        self._moved_from = before
        # Not waited for: another writer's catch-up holding it covers the readers too.
        # Nor cancelled: the write has landed, and its catch-up follows it whole.
        with cancelled_by(threading.Event()):
            self._settled_by_us = self._moved and self.settling.try_acquire()

    def _tell_written(self) -> None:
        if not self._moved:
            return
        self._moved = False
        try:
            for listener in list(self._written):
                try:
                    listener()
                except Exception:  # the write landed; the next read catches the index up
                    _log.exception("after-write listener %r failed", listener)
            after = self._store.main_id()
            for moved in list(self._moves):
                try:
                    moved(self._moved_from or None, after)
                except Exception:  # the write landed; a listener's failure is its own
                    _log.exception("main-moved listener %r failed", moved)
        finally:
            if self._settled_by_us:
                self._settled_by_us = False
                self.settling.release()
