"""Swarm note throughput: eight concurrent writer processes against a single writer.

Budget (issue #6): eight writers appending to one swarm at once must not take longer in
total than the same eight writers run one after another (the write lock serializes the
commits; concurrency may only overlap everything around them: interpreter start,
imports, resolving the task, screening).

Each round uses a fresh memory repo with one root task and eight child tasks. Every
writer process appends `--notes` notes (one commit each) and reports when its first
note started and its last note ended (`time.monotonic`, one clock for all processes):

- single writer: notes / (its last end - its first start);
- eight concurrent writers: all notes / (latest end - earliest start);
- total: wall time of starting eight writer processes at once and waiting for all,
  against the wall time of running them one after another.

Medians over `--rounds` rounds, every figure measured in the same run.

Usage: python benchmarks/bench_swarm.py [--writers 8] [--notes 50] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo import MemoryRepo

ROOT = "bench-root-0001"
WRITER = """
import sys, time
from memrepo import MemoryRepo
repo = MemoryRepo.open(sys.argv[1])
task, count = sys.argv[2], int(sys.argv[3])
start = time.monotonic()
for n in range(count):
    kind = "question" if n % 5 == 4 else "finding"
    result = repo.swarm_note(task, kind, f"{task} observed behaviour number {n} of the build")
    assert result.written and result.commit, result
print(start, time.monotonic())
"""


def fresh_repo(writers: int) -> tuple[Path, list[str]]:
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-swarm-")) / "mem"
    repo = MemoryRepo.init(root)
    repo.add_task(ROOT, "Find why the nightly build is slow")
    tasks = [f"writer-{i}" for i in range(writers)]
    for task in tasks:
        repo.add_task(task, f"Look at part {task}", parent=ROOT)
    return root, tasks


def spawn(root: Path, task: str, notes: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root), task, str(notes)],
        stdout=subprocess.PIPE,
        text=True,
    )


def spans(procs: list[subprocess.Popen[str]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for proc in procs:
        stdout, _ = proc.communicate(timeout=900)
        if proc.returncode != 0:
            raise SystemExit(f"a writer failed with exit code {proc.returncode}")
        first, last = stdout.split()
        out.append((float(first), float(last)))
    return out


def one_round(writers: int, notes: int) -> dict[str, float]:
    root, tasks = fresh_repo(writers)
    started = time.perf_counter()
    sequential: list[tuple[float, float]] = []
    for task in tasks:
        sequential.extend(spans([spawn(root, task, notes)]))
    sequential_total = time.perf_counter() - started

    root, tasks = fresh_repo(writers)
    started = time.perf_counter()
    concurrent = spans([spawn(root, task, notes) for task in tasks])
    concurrent_total = time.perf_counter() - started

    single_rates = [notes / (end - begin) for begin, end in sequential]
    window = max(end for _, end in concurrent) - min(begin for begin, _ in concurrent)
    return {
        "single_notes_per_s": statistics.median(single_rates),
        "concurrent_notes_per_s": writers * notes / window,
        "sequential_total_s": sequential_total,
        "concurrent_total_s": concurrent_total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--notes", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rounds = [one_round(args.writers, args.notes) for _ in range(args.rounds)]
    median = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    median["throughput_ratio"] = median["concurrent_notes_per_s"] / median["single_notes_per_s"]
    median["total_time_ratio"] = median["concurrent_total_s"] / median["sequential_total_s"]
    result = {
        "writers": args.writers,
        "notes_per_writer": args.notes,
        "rounds": rounds,
        "median": median,
        "budgets": {"concurrent_not_slower_than_sequential": median["total_time_ratio"] <= 1.0},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.writers} writers x {args.notes} notes, median of {args.rounds} rounds")
    print(f"  single writer      {median['single_notes_per_s']:8.1f} notes/s")
    print(
        f"  {args.writers} concurrent       {median['concurrent_notes_per_s']:8.1f} notes/s"
        f"  ({median['throughput_ratio']:.2f} x single)"
    )
    print(
        f"  total: concurrent {median['concurrent_total_s']:.2f} s vs sequential "
        f"{median['sequential_total_s']:.2f} s  (ratio {median['total_time_ratio']:.2f}, "
        "budget <= 1.00)"
    )


if __name__ == "__main__":
    main()
