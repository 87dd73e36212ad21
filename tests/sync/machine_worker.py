"""One machine of `test_two_machines_syncing_at_once_lose_nothing`, in its own process:
write, sync, write, sync... for the given rounds. Each round the machines meet at a
barrier (a file per machine and round in `meet`) after writing, so their syncs start
together: every round is a race for the remote.

Prints one JSON line: what it wrote and how many syncs the remote kept rejecting (the
remote kept moving; what they carried goes with the next sync)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from memrepo import MemoryRepo
from memrepo.errors import SyncRejected
from memrepo.sync import api


def run(
    root: Path, machine: str, rounds: int, meet: Path, machines: list[str]
) -> dict[str, object]:
    written: list[str] = []
    rejected = 0
    with MemoryRepo.open(root) as repo:
        for rnd in range(rounds):
            for n in range(3):
                text = f"Machine {machine} round {rnd} fact {n}"
                # Both machines write the same files: MEMORY.md and one shared topic file.
                file = "topics/shared.md" if n == 1 else None
                assert repo.remember(text, file=file, by="user").written
                written.append(text)
            status = f"Machine {machine} status is round {rnd}"
            assert repo.remember(status, subject=f"status-{machine}", by="user").written
            _barrier(meet, machine, rnd, machines)
            try:
                api.sync(repo.folder)
            except SyncRejected:
                rejected += 1
    return {"written": written, "rejected": rejected}


def _barrier(meet: Path, machine: str, rnd: int, machines: list[str]) -> None:
    (meet / f"{machine}-{rnd}").touch()
    deadline = time.monotonic() + 120
    while not all((meet / f"{m}-{rnd}").exists() for m in machines):
        if time.monotonic() > deadline:
            raise TimeoutError(f"round {rnd}: the other machine never came")
        time.sleep(0.002)


if __name__ == "__main__":
    root, machine, rounds, meet, machines = sys.argv[1:6]
    print(json.dumps(run(Path(root), machine, int(rounds), Path(meet), machines.split(","))))
