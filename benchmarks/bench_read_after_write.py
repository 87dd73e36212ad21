"""A read right after a write, and what a write costs now that it keeps the index current.

Budgets (issue #28, "The writer keeps the index current"), at each --sizes corpus
(benchmarks/_common.build_repo: files of 20 entries, as bench_write.py), medians over
--rounds rounds, CPU time beside wall time:
- recall right after a remember <= 1.2x a recall with no write before it (the same
  queries, in turns: write+recall, recall, so machine noise favours neither side);
- remember with the index kept current <= 0.5x `git add` + `git commit` of one changed
  file in a copy of the same repo, p50, measured in the same round.

One process, as a host or a server holds its repo: the index is open (a first recall)
before anything is timed, so every write brings it up to date behind itself.

With --memory-md N, also `remember` with no file (into MEMORY.md, near its top, so each
write moves every line below it) when MEMORY.md holds N entries, p50 against git
add+commit of a line appended to that file: the case where a write's index update used
to rewrite the whole file.

Usage: python benchmarks/bench_read_after_write.py [--sizes 1000,10000] [--writes 30]
       [--rounds 3] [--memory-md 500] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from _common import build_repo, copy_repo, git, topic_path

ENTRIES_PER_FILE = 20
QUERIES = ("component 3 version", "fact about component 7", "topic notes", "version 1.4")
RECALL_BUDGET = 1.2
WRITE_BUDGET = 0.5


def timed_pair(action: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def one_round(root: Path, entries: int, writes: int, stamp: int) -> dict[str, float]:
    from memrepo import MemoryRepo

    files = max(1, entries // ENTRIES_PER_FILE)
    repo = MemoryRepo.open(root)
    try:
        for query in QUERIES:
            repo.recall(query)  # the index opened and warm: a host's steady state
        series: dict[str, list[float]] = {
            k: [] for k in ("write", "write_cpu", "after", "after_cpu", "idle", "idle_cpu")
        }
        for n in range(writes):
            path = topic_path(n * 7 % files)
            text = f"component {n % 13} moved to rack {stamp}-{n}"
            query = QUERIES[n % len(QUERIES)]
            timings = (
                ("write", timed_pair(partial(repo.remember, text, file=path, by="agent"))),
                ("after", timed_pair(partial(repo.recall, query))),
                ("idle", timed_pair(partial(repo.recall, query))),
            )
            for name, (wall, cpu) in timings:
                series[name].append(wall)
                series[f"{name}_cpu"].append(cpu)
    finally:
        repo.close()
    figures = {k: statistics.median(v) for k, v in series.items()}
    figures["git"] = git_p50(root, files, writes)
    return figures


def git_p50(root: Path, files: int, writes: int) -> float:
    """`git add` + `git commit` of one changed file, in a copy of the same repo (ms)."""
    copy = copy_repo(root)
    times = []
    for n in range(writes):
        target = copy / topic_path(n * 7 % files)
        with target.open("a", encoding="utf-8") as out:
            out.write(f"- a line added by hand {n}\n")
        start = time.perf_counter()
        git(copy, "add", str(target.relative_to(copy)))
        git(copy, "commit", "-q", "-m", f"hand edit {n}")
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(entries: int, writes: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-raw-") as tmp:
        root = Path(tmp) / "repo"
        build_repo(root, max(1, entries // ENTRIES_PER_FILE), ENTRIES_PER_FILE).close()
        runs = [one_round(root, entries, writes, r) for r in range(rounds)]
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    return {
        "entries": entries,
        "rounds": rounds,
        "writes_per_round": writes,
        **{f"{k}_ms": round(v, 2) for k, v in med.items()},
        "recall_after_write_ratio": round(med["after"] / med["idle"], 3),
        "recall_after_write_ratio_cpu": round(med["after_cpu"] / med["idle_cpu"], 3),
        "remember_vs_git": round(med["write"] / med["git"], 3),
    }


def memory_md(entries: int, writes: int, rounds: int) -> dict[str, Any]:
    """`remember` into a MEMORY.md of `entries` entries, index kept current (see above)."""
    from memrepo import MemoryRepo

    runs = []
    for r in range(rounds):
        with tempfile.TemporaryDirectory(prefix="memrepo-bench-md-") as tmp:
            root = Path(tmp) / "repo"
            MemoryRepo.init(root).close()
            memory = root / "MEMORY.md"
            facts = "".join(f"- fact {n} about subsystem {n % 37}\n" for n in range(entries))
            memory.write_text(memory.read_text() + "\n## Facts\n" + facts)
            git(root, "commit", "-qam", "a person's list")
            repo = MemoryRepo.open(root)
            try:
                repo.recall("subsystem")
                pairs = [
                    timed_pair(partial(repo.remember, f"reactor note {r}-{n}", by="agent"))
                    for n in range(writes)
                ]
            finally:
                repo.close()
            times = []
            for n in range(writes):
                with memory.open("a", encoding="utf-8") as out:
                    out.write(f"- a line added by hand {n}\n")
                start = time.perf_counter()
                git(root, "add", "MEMORY.md")
                git(root, "commit", "-q", "-m", f"hand edit {n}")
                times.append((time.perf_counter() - start) * 1000)
        runs.append(
            {
                "write": statistics.median(w for w, _ in pairs),
                "write_cpu": statistics.median(c for _, c in pairs),
                "git": statistics.median(times),
            }
        )
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    return {
        "entries": entries,
        **{f"{k}_ms": round(v, 2) for k, v in med.items()},
        "remember_vs_git": round(med["write"] / med["git"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--writes", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-md", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [measure(int(s), args.writes, args.rounds) for s in args.sizes.split(",")]
    report: dict[str, Any] = {
        "sizes": sizes,
        "budget_recall_after_write": RECALL_BUDGET,
        "budget_remember_vs_git": WRITE_BUDGET,
    }
    if args.memory_md:
        report["memory_md"] = memory_md(args.memory_md, args.writes, args.rounds)
    if args.json:
        print(json.dumps(report))
        return
    for s in sizes:
        print(
            f"{s['entries']:>7} entries: recall after a write {s['after_ms']:.1f} ms "
            f"({s['after_cpu_ms']:.1f} CPU) vs {s['idle_ms']:.1f} ms ({s['idle_cpu_ms']:.1f} CPU)"
            f" = {s['recall_after_write_ratio']}x (budget {RECALL_BUDGET}x); remember "
            f"{s['write_ms']:.1f} ms ({s['write_cpu_ms']:.1f} CPU) vs git add+commit "
            f"{s['git_ms']:.1f} ms = {s['remember_vs_git']}x (budget {WRITE_BUDGET}x)"
        )
    if "memory_md" in report:
        m = report["memory_md"]
        print(
            f"MEMORY.md of {m['entries']} entries: remember {m['write_ms']:.1f} ms "
            f"({m['write_cpu_ms']:.1f} CPU) vs git add+commit {m['git_ms']:.1f} ms "
            f"= {m['remember_vs_git']}x"
        )


if __name__ == "__main__":
    main()
