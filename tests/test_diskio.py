"""The one atomic write and the one lock wait every layer uses (`memrepo/diskio.py`),
checked on real files and a real second process holding the lock."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.diskio import atomic_output, flock_within, write_atomic

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


def test_a_write_replaces_the_whole_file_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "state" / "config.json"
    write_atomic(target, "first\n")
    write_atomic(target, [b"sec", b"ond\n"])
    assert target.read_bytes() == b"second\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["config.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_a_failed_write_keeps_the_old_file_and_drops_the_temp(tmp_path: Path) -> None:
    target = tmp_path / "export.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_output(target, private=True) as out:
        out.write(b"half of the new")
        raise RuntimeError("the export failed half way")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["export.bin"]


def test_private_and_executable_modes(tmp_path: Path) -> None:
    write_atomic(tmp_path / "export", b"x", private=True)
    write_atomic(tmp_path / "hook", "#!/bin/sh\n", mode=0o755)
    assert stat.S_IMODE((tmp_path / "export").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "hook").stat().st_mode) == 0o755


@pytest.mark.slow
def test_a_lock_held_by_another_process_is_waited_for_until_the_deadline(
    tmp_path: Path,
) -> None:
    lock = tmp_path / "write.lock"
    with subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdout is not None and holder.stdin is not None
        _wait_while_held(holder, lock)


def _wait_while_held(holder: subprocess.Popen[str], lock: Path) -> None:
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "held"
        fd = os.open(lock, os.O_RDWR)
        try:
            assert flock_within(fd, 0.2) is False
            assert flock_within(fd, 0.0, shared=True) is False
            checked: list[int] = []

            def cancel() -> None:
                checked.append(1)
                if len(checked) == 3:
                    raise KeyboardInterrupt

            with pytest.raises(KeyboardInterrupt):
                flock_within(fd, 30.0, check=cancel)
            holder.stdin.write("\n")
            holder.stdin.flush()
            holder.wait(timeout=30)
            assert flock_within(fd, 30.0) is True  # the holder's exit gave it back
        finally:
            os.close(fd)
    finally:
        holder.kill()
        holder.wait()
