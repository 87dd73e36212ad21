"""The fault suite of issue #15: what a hostile tester loses, in five parts.

1. crash: `memrepo remember` SIGKILLed at every step of its write (strace kill points,
   states built with pygit2, random delays), then a hand edit of the same file,
   `memrepo status` and `memrepo remember`;
2. editor: a writer process remembers M facts while an editor process saves MEMORY.md K
   times (temp + rename, and truncating writes in place), each save adding a token line;
   held: the same in-place save (truncated, or half written) held open across a whole
   `memrepo remember`: the interleaving part 2 hits now and then, made certain;
3. swarm: 8 writer processes, one undoing its own and the newest writes, an editor and
   two readers (CLI and API) at once;
4. sync: two clones of one remote served by `git daemon`, writing and syncing at once.

Every part prints one line of figures; `lost` is the number of things a person or an
agent wrote that are gone (or a broken repo, a failed command, a reader's error), and
must be 0. Exits 1 when anything was lost, printing how to see each loss again.

Usage: python benchmarks/bench_faults.py [--parts crash,editor,held,swarm,sync]
       [--crash-modes strace,constructed,random] [--crash-repeat 2] [--random-trials 40]
       [--editor-writes 200] [--editor-saves 200] [--writers 8] [--writes 25]
       [--rounds 5] [--seed 15] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _faults_common import Tally, isolated_env, use_env

PARTS = ("crash", "editor", "held", "swarm", "sync")


def run_parts(args: argparse.Namespace, work: Path) -> list[Tally]:
    tallies: list[Tally] = []
    parts = [p for p in args.parts.split(",") if p]
    for part in parts:
        if part not in PARTS:
            raise SystemExit(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    if "crash" in parts:
        from _faults_crash import run_part as crash

        modes = [m for m in args.crash_modes.split(",") if m]
        states = [s for s in args.crash_states.split(",") if s] or None
        tallies.append(
            crash(
                work / "crash",
                modes,
                args.crash_repeat,
                args.random_trials,
                args.seed,
                random_hits=args.random_hits,
                states=states,
            )
        )
    if "editor" in parts:
        from _faults_editor import run_part as editor

        tallies.append(
            editor(work / "editor", args.editor_writes, args.editor_saves, args.seed, args.saves)
        )
    if "held" in parts:
        from _faults_editor import run_held

        tallies.append(run_held(work / "held"))
    if "swarm" in parts:
        from _faults_swarm import run_part as swarm

        tallies.append(swarm(work / "swarm", args.writers, args.writes, args.seed, args.saves))
    if "sync" in parts:
        from _faults_sync import run_part as sync

        tallies.append(sync(work / "sync", args.rounds, args.sync_writes, args.seed))
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--crash-modes", default="strace,constructed,random")
    parser.add_argument("--crash-repeat", type=int, default=2, help="trials per kill point")
    parser.add_argument("--crash-states", default="", help="only these kill points/states")
    parser.add_argument("--random-trials", type=int, default=60, help="at most this many")
    parser.add_argument("--random-hits", type=int, default=3, help="kills wanted per step")
    parser.add_argument("--editor-writes", type=int, default=200)
    parser.add_argument("--editor-saves", type=int, default=200)
    parser.add_argument("--saves", default="rename,in_place", help="the editor's kinds of save")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--writes", type=int, default=25, help="remembers per writer")
    parser.add_argument("--rounds", type=int, default=5, help="sync rounds per machine")
    parser.add_argument("--sync-writes", type=int, default=4, help="writes per sync round")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="memrepo-faults-")).resolve()
    use_env(isolated_env(work))
    start = time.perf_counter()
    tallies = run_parts(args, work)
    lost = sum(t.lost for t in tallies)
    result: dict[str, Any] = {
        "parts": {t.name: t.summary() for t in tallies},
        "lost": lost,
        "seconds": round(time.perf_counter() - start, 2),
        "work": str(work),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for tally in tallies:
            print(tally.line())
        for tally in tallies:
            for loss in tally.losses[:20]:
                print(f"  LOST {tally.name.split()[0]}: {loss}")
        print(f"total lost: {lost} in {result['seconds']:.1f} s (work folder {work})")
    if not args.keep and lost == 0:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
