"""One atomic write and one lock wait, for every layer (issue #33).

Each store keeps small files of its own beside git's (state files, the index metadata,
the task registry, the vector file, an export, a hook) and serializes its writers on an
`flock` lock file. Both rules are written once, here, in a base module every layer may
import:

- `write_atomic` (and `atomic_output`, its stream): a reader sees the old file or the
  new one, never half of either. The bytes go to a temp file in the same folder
  (created exclusively, named for this process and call, so two writers never share
  one), then `os.replace`; the temp file is removed when anything fails. A new file gets
  the mode the umask gives (0644 as a rule), a `private` one 0600 (an export), or a
  given `mode` (a hook's executable bits). Durability is git's default, no fsync, unless
  the caller asks (`fsync=True`: the index metadata, a merge result git reads back).
- `flock_within`: an `flock` taken without blocking, tried again with a short backoff
  until a deadline, so a wait is bounded and can be cancelled between tries (`check`);
  the kernel drops the lock when its holder dies, so a crashed writer never blocks
  the next one. The lock itself stays each caller's (its file, its error, what holding
  it means).

`read_state` and `write_state` are the small JSON state files under `.git/memrepo/`
(config, sync and dream state...): pydantic models people may open in an editor,
written with `write_atomic`; a read tells "not there yet" (None) apart from "there but
unreadable" (the caller decides whether that is an error or a reset).

The editor-safe replace of a memory file (compare, then rename, under a lease) is not
this write: `folder/atomic.py` keeps that one.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, TypeVar

from pydantic import BaseModel

from memrepo._platform import fcntl

__all__ = ["atomic_output", "flock_within", "read_state", "write_atomic", "write_state"]

M = TypeVar("M", bound=BaseModel)

_CALLS = itertools.count()
#: The longest pause between two tries for a lock (seconds).
MAX_LOCK_DELAY = 0.05


@contextmanager
def atomic_output(
    path: Path, *, private: bool = False, mode: int | None = None, fsync: bool = False
) -> Iterator[BinaryIO]:
    """A binary stream whose bytes replace `path` in one rename when the block ends
    without an error (and are dropped when it raises); the folder is made when missing.
    For a file written piece by piece (an export); `write_atomic` for one in hand."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{next(_CALLS)}")
    create = 0o600 if private else 0o666
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), create)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            if fsync:
                out.flush()
                os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(
    path: Path,
    data: bytes | str | Iterable[bytes],
    *,
    private: bool = False,
    mode: int | None = None,
    fsync: bool = False,
) -> None:
    """Replace `path` with `data` (text is written as UTF-8, an iterable of byte chunks
    one after the other) in one rename."""
    with atomic_output(path, private=private, mode=mode, fsync=fsync) as out:
        if isinstance(data, str):
            out.write(data.encode("utf-8"))
        elif isinstance(data, bytes | bytearray | memoryview):
            out.write(data)
        else:
            for chunk in data:
                out.write(chunk)


def flock_within(
    fd: int,
    timeout: float,
    *,
    shared: bool = False,
    check: Callable[[], None] | None = None,
) -> bool:
    """Take an `flock` on `fd` (exclusive, or `shared`), trying again until `timeout`
    seconds have passed: True once held, False at the deadline (the caller says whose
    lock it was). `check` runs before each try and may raise to stop waiting."""
    operation = (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        if check is not None:
            check()
        try:
            fcntl.flock(fd, operation)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, MAX_LOCK_DELAY)


def read_state(path: Path, model: type[M]) -> M | None:
    """The file as `model`, None when it does not exist; ValueError (pydantic's
    ValidationError included) or OSError when it cannot be read as one."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return model.model_validate(json.loads(raw))


def write_state(path: Path, value: BaseModel, *, indent: int = 2) -> None:
    """Write `value` as JSON, atomically, creating the folder if needed."""
    write_atomic(path, value.model_dump_json(indent=indent) + "\n")
