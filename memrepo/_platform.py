"""memrepo runs on POSIX systems only (Linux, macOS, the BSDs).

Every writer of a memory root serializes on an ``flock`` lock file, which the kernel
releases when its holder dies (`folder/lock.py`); atomic replaces fsync their folder
(`folder/atomic.py`); the swarm registry and the search index lock the same way. Windows
has no ``fcntl`` and no lock with those semantics, so memrepo does not pretend to run
there: each module that needs ``fcntl`` imports it from here, and on a system without it
that import raises :class:`PosixRequired` with one sentence saying so, instead of
``ModuleNotFoundError: No module named 'fcntl'`` from deep inside the write path.

`import memrepo` itself stays possible (only the errors load eagerly), so the `memrepo`
command prints that sentence as its one error line and exits 1.
"""

from __future__ import annotations

import sys

from memrepo.errors import MemrepoError

__all__ = ["PosixRequired", "fcntl"]


class PosixRequired(MemrepoError, ImportError):
    """This Python has no ``fcntl``: memrepo needs a POSIX system.

    Also an ImportError, because it is raised while importing the first module that
    locks a file, and code that guards an optional import catches that.
    """

    def __init__(self, platform: str) -> None:
        super().__init__(
            f"memrepo needs a POSIX system (Linux, macOS or a BSD): it locks files with "
            f"fcntl, which this Python ({platform}) does not have; on Windows, run it "
            f"inside WSL"
        )
        self.platform = platform


try:
    import fcntl
except ImportError as exc:
    raise PosixRequired(sys.platform) from exc
