"""The processes of the concurrent fault parts: writers, an undoer, an editor, readers and
a syncing machine. Each is `python _faults_workers.py ROLE --root R --out FILE ...`,
waits for the `--go` file (so all start together, their imports done), and writes one
JSON line per thing it did to `--out`, errors included: the parent judges.

Writers, the undoer and the machines use the public `MemoryRepo` API; the CLI reader
runs the real `memrepo` command; the editor only writes files, as editors do.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import random
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any, TextIO

MEMORY = "MEMORY.md"
READY_NAME = "ready"


def wait_for(path: Path, timeout: float = 120.0) -> None:
    """Say this worker is ready (its imports done), then wait for the parent's go."""
    path.with_name(f"{READY_NAME}.{os.getpid()}").touch()
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{path} never appeared")
        time.sleep(0.001)


def emit(out: TextIO, **record: Any) -> None:
    record["t"] = round(time.time(), 4)
    out.write(json.dumps(record) + "\n")
    out.flush()


def failure(exc: BaseException) -> dict[str, Any]:
    """An error as a record; `clear` when it is a MemrepoError (a one-line refusal that
    loses nothing, as the contract allows) rather than a crash."""
    from memrepo import MemrepoError

    return {
        "error": f"{type(exc).__name__}: {exc}",
        "clear": isinstance(exc, MemrepoError),
        "trace": traceback.format_exc()[-2000:],
    }


def writer(args: argparse.Namespace, out: TextIO) -> None:
    """`--count` remembers with unique texts; every second one to a topic file."""
    from memrepo import MemoryRepo

    repo = MemoryRepo.open(args.root)
    wait_for(args.go)
    for n in range(args.count):
        text = f"Fact {args.name} number {n} about widget {n * 7 % 11}"
        file = None if n % 2 == 0 or not args.topics else f"topics/{args.name}-{n % 3}.md"
        try:
            result = repo.remember(text, file=file)
            emit(out, kind="write", text=text, status=result.status, commit=result.commit)
        except Exception as exc:
            emit(out, kind="write", text=text, status="error", **failure(exc))
    repo.close()


def undoer(args: argparse.Namespace, out: TextIO) -> None:
    """Remember, then undo: its own commit by id, or a bare `undo` every second time."""
    from memrepo import MemoryRepo

    repo = MemoryRepo.open(args.root)
    wait_for(args.go)
    for n in range(args.count):
        text = f"Undoable fact {args.name} number {n}"
        try:
            result = repo.remember(text)
            emit(out, kind="write", text=text, status=result.status, commit=result.commit)
        except Exception as exc:
            emit(out, kind="write", text=text, status="error", **failure(exc))
            continue
        bare = n % 2 == 1
        try:
            undone = repo.undo() if bare else repo.undo(result.commit)
            emit(out, kind="undo", bare=bare, undone=undone.undone, commit=undone.commit)
        except Exception as exc:
            emit(out, kind="undo", bare=bare, target=result.commit, status="error", **failure(exc))
    repo.close()


def editor(args: argparse.Namespace, out: TextIO) -> None:
    """`--count` saves of MEMORY.md, each adding one token line, taking turns between the
    kinds of `--how`: `rename` writes a temp file and renames it over (vim, many IDEs),
    `in_place` truncates and writes (VS Code, nano). Random pauses of up to 2 x `--pace`
    ms between saves."""
    rng = random.Random(args.seed)
    path = args.root / MEMORY
    wait_for(args.go)
    for n in range(args.count):
        time.sleep(rng.uniform(0, 2 * args.pace / 1000))
        token = f"editor-{args.name}-{n}-{rng.randrange(16**6):06x}"
        text = path.read_text(encoding="utf-8")
        at = text.find("\n## Index")
        line = f"- Saved by the editor {token}\n"
        text = text[: at + 1] + line + text[at + 1 :] if at >= 0 else text + line
        how = args.how.split(",")[n % len(args.how.split(","))]
        if how == "rename":
            tmp = path.with_name(f".{path.name}.swp-{os.getpid()}")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        emit(out, kind="save", token=token, how=how)


def reader_api(args: argparse.Namespace, out: TextIO) -> None:
    """recall, log and entries through a freshly opened MemoryRepo until `--stop`."""
    from memrepo import MemoryRepo

    wait_for(args.go)
    n = 0
    while not args.stop.exists():
        for what in ("recall", "log", "entries"):
            try:
                with MemoryRepo.open(args.root) as repo:
                    if what == "recall":
                        repo.recall("widget fact")
                    elif what == "log":
                        repo.log(limit=5)
                    else:
                        repo.entries()
                emit(out, kind="read", what=what, ok=True)
            except Exception as exc:
                emit(out, kind="read", what=what, ok=False, **failure(exc))
        n += 1
    emit(out, kind="reader_done", loops=n)


def reader_cli(args: argparse.Namespace, out: TextIO) -> None:
    """`memrepo recall`, `log` and `entries` as real processes until `--stop`."""
    from _faults_common import memrepo_command

    wait_for(args.go)
    commands = (("recall", "widget fact"), ("log", "--limit", "5"), ("entries",))
    while not args.stop.exists():
        for command in commands:
            argv = [*memrepo_command(), "--repo", str(args.root), *command]
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
            ok = done.returncode == 0 and "Traceback" not in done.stderr
            emit(out, kind="read", what=command[0], ok=ok, error=done.stderr[-2000:])


def machine(args: argparse.Namespace, out: TextIO) -> None:
    """`--rounds` rounds of `--count` remembers (half to a shared topic file) and a sync."""
    from memrepo import MemoryRepo

    repo = MemoryRepo.open(args.root)
    wait_for(args.go)
    for rnd in range(args.rounds):
        for n in range(args.count):
            text = f"Machine {args.name} round {rnd} fact {n}"
            file = "topics/shared.md" if n % 2 else None
            try:
                result = repo.remember(text, file=file)
                emit(out, kind="write", text=text, status=result.status, commit=result.commit)
            except Exception as exc:
                emit(out, kind="write", text=text, status="error", **failure(exc))
        try:
            report = repo.sync()
            emit(out, kind="sync", ok=True, pushed=report.pushed, how=report.integration)
        except Exception as exc:
            emit(out, kind="sync", ok=False, **failure(exc))
    repo.close()


ROLES = {
    "writer": writer,
    "undoer": undoer,
    "editor": editor,
    "reader_api": reader_api,
    "reader_cli": reader_cli,
    "machine": machine,
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=sorted(ROLES))
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--go", type=Path, required=True)
    parser.add_argument("--stop", type=Path, default=Path("/nonexistent-stop"))
    parser.add_argument("--name", default="w0")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--pace", type=float, default=5.0, help="editor: mean ms between saves")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--how", default="rename,in_place", help="editor: kinds of save")
    parser.add_argument("--topics", action="store_true", help="writer: also topic files")
    args = parser.parse_args()
    # `kill -USR1 PID` prints where a worker is (a hang is a finding too).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    with open(args.out, "a", encoding="utf-8") as out:
        try:
            ROLES[args.role](args, out)
        except Exception as exc:  # a crash of the worker itself is a finding too
            emit(out, kind="crash", **failure(exc))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
