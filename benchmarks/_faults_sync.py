"""Part 4 of the fault suite: two machines write and sync at the same time.

One bare remote served by a real `git daemon` on 127.0.0.1. Machine A is a new memory
(`memrepo init`, one `remember`), then `memrepo remote set URL --i-own-this-private-repo`
and `memrepo sync`; machine B is made with `memrepo clone URL B
--i-own-this-private-repo` (the CLI, as people do).
Then both run at once (a process each, the public API): R rounds of a few remembers
(to MEMORY.md and to one shared topic file) and a `sync`. A sync that loses a push race
may fail with a clear error; the next round's sync catches up. After both stop, A, B and
A sync again (the CLI) until the two mains agree.

Losses: an acknowledged write missing from either machine's entries, an entry twice,
the mains not agreeing after the closing syncs, an unsound repo on either machine.
"""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from pathlib import Path

from _common import git_daemon
from _faults_common import SEED_TEXT, Tally, Workers, cli, git, repo_problems, seeded_repo

from memrepo import MemoryRepo


def machines(work: Path, url: str) -> tuple[Path, Path]:
    """Machine A (init, remote set, sync) and machine B (clone), through the CLI."""
    a, b = seeded_repo(work / "a"), (work / "b").resolve()
    steps = [
        (a, ("remote", "set", url, "--i-own-this-private-repo")),
        (a, ("sync",)),
        (b, ("clone", url, str(b), "--i-own-this-private-repo")),
    ]
    for root, args in steps:
        run = cli(root, *args)
        if run.failed:
            raise RuntimeError(run.describe())
    return a, b


def converge(tally: Tally, a: Path, b: Path, tries: int = 4) -> None:
    """Sync A, B, A ... until both mains are the same commit."""
    for _ in range(tries):
        for root in (a, b):
            run = cli(root, "sync")
            if run.failed:
                tally.add("closing_syncs_failed")
                tally.info.setdefault("closing_sync_errors", []).append(run.describe())
        if _main(a) == _main(b):
            return
    tally.lose("mains_differ", f"after {tries} rounds of syncs A {_main(a)} != B {_main(b)}")


def _main(root: Path) -> str:
    return git(root, "rev-parse", "main").strip()


def judge(tally: Tally, roots: dict[str, Path], acked: set[str]) -> None:
    for name, root in roots.items():
        with MemoryRepo.open(root) as repo:
            found = Counter(entry.text for entry in repo.entries())
        for text in sorted(acked):
            if found[text] == 0:
                tally.lose("writes_lost", f"[machine {name}, {root}] {text!r} is not an entry")
            elif found[text] > 1:
                tally.lose("duplicated", f"[machine {name}] {text!r} is {found[text]} entries")
        tally.add(f"entries_on_{name}", sum(1 for text in acked if found[text]))
        for problem in repo_problems(root):
            tally.lose("unsound", f"[machine {name}, {root}] {problem}")
        branches = git(root, "branch", "--list", "sync/conflict-*").split()
        tally.add(f"conflict_branches_on_{name}", len([b for b in branches if b != "*"]))


def run_part(work: Path, rounds: int, writes: int, seed: int) -> Tally:
    del seed  # the race is the randomness here
    tally = Tally("4 two machines syncing")
    start = time.perf_counter()
    served = work / "served"
    served.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(served / "memory.git")],
                   check=True)  # fmt: skip
    with git_daemon(served) as port:
        a, b = machines(work, f"git://127.0.0.1:{port}/memory.git")
        workers = Workers(work)
        for name, root in (("A", a), ("B", b)):
            workers.start("machine", root, name, "--rounds", str(rounds), "--count", str(writes))
        workers.release()
        for name, code in workers.wait().items():
            if code != 0:
                tally.lose("workers_crashed", f"machine {name} exit {code}")
        converge(tally, a, b)
    acked = {SEED_TEXT}
    for name in ("A", "B"):
        for record in workers.records(name):
            if record.get("kind") == "write":
                tally.add("writes")
                if record["status"] == "written":
                    acked.add(record["text"])
                elif record.get("clear"):
                    tally.add("writes_refused")
                else:
                    tally.lose("writes_crashed", f"machine {name}: {record['trace']}")
            elif record.get("kind") == "sync":
                tally.add("syncs" if record["ok"] else "syncs_refused")
                if not record["ok"] and not record.get("clear"):
                    tally.lose("syncs_crashed", f"machine {name}: {record['trace']}")
            elif record.get("kind") == "crash":
                tally.lose("workers_crashed", f"machine {name}: {record['trace']}")
    judge(tally, {"A": a, "B": b}, acked)
    tally.seconds = time.perf_counter() - start
    return tally
