"""Index build: a full rebuild against a one-field Whoosh index over the same lines.

A rebuild (`memrepo reindex`, a fresh clone's first recall) parses every memory file,
screens every field for secrets and indexes each entry with its context, its metadata
fields and its dates. The baseline is what the lines alone cost in the same engine: a
Whoosh index of one TEXT field (Whoosh's default analyzer) over the same texts, one
writer, one commit, the posting buffer memrepo uses. Budget (issue #28, "Index build"):
rebuild <= 6x the baseline in CPU time, median of --rounds, the two measured in
turns, each in a fresh interpreter that times only the work (the machines are shared: a
ratio of two runs minutes apart would measure the neighbours; a warm cache of an earlier
round would flatter the next). Wall time is reported beside it.

The corpus is bench_recall's (deterministic from --seed): ~80% folder entries in topic
and workspace files committed with the git CLI, ~20% memory items.

Usage: python benchmarks/bench_index_build.py [--sizes 10000] [--rounds 3] [--seed 11]
       [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_recall import build, corpus
from whoosh import index as whoosh_index
from whoosh.fields import TEXT, Schema

from memrepo import MemoryRepo
from memrepo.index.store import BULK_LIMIT_MB

BUDGET = 6.0
"""Rebuild CPU time over the one-field baseline's, at every size (issue #28)."""


def one_field(texts: list[str], work: Path) -> None:
    """The baseline: the lines alone in a fresh one-field Whoosh index."""
    target = Path(tempfile.mkdtemp(prefix="whoosh-", dir=work))
    ix = whoosh_index.create_in(str(target), Schema(text=TEXT()))
    writer = ix.writer(limitmb=BULK_LIMIT_MB)
    for text in texts:
        writer.add_document(text=text)
    writer.commit()
    ix.close()
    shutil.rmtree(target)


def child(mode: str, root: Path, size: int, seed: int) -> dict[str, float]:
    """One measurement in this (fresh) interpreter, imports done before the clock starts:
    no cache of an earlier round (the analyzer's, the screen's) flatters a later one."""
    texts = corpus(size, seed)
    repo = MemoryRepo.open(root)
    cpu, wall = time.process_time(), time.perf_counter()
    if mode == "rebuild":
        repo.reindex()
    else:
        one_field(texts, root.parent)
    figures = {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}
    repo.close()
    return figures


def _in_child(mode: str, root: Path, size: int, seed: int) -> dict[str, float]:
    argv = ["--child", mode, "--child-repo", str(root), "--sizes", str(size), "--seed", str(seed)]
    out = subprocess.run([sys.executable, __file__, *argv, "--json"], check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    figures: dict[str, float] = json.loads(out)
    return figures


def bench_size(size: int, rounds: int, seed: int, work: Path) -> dict[str, Any]:
    root = work / f"repo{size}"
    build(root, corpus(size, seed))
    repo = MemoryRepo.open(root)
    documents = repo.reindex().documents  # the first build, outside the rounds
    repo.close()
    rebuilds: list[dict[str, float]] = []
    baselines: list[dict[str, float]] = []
    for _ in range(rounds):  # in turns, so both sides see the same machine
        baselines.append(_in_child("one-field", root, size, seed))
        rebuilds.append(_in_child("rebuild", root, size, seed))
    rebuild_cpu = statistics.median(r["cpu_s"] for r in rebuilds)
    base_cpu = statistics.median(b["cpu_s"] for b in baselines)
    rebuild_wall = statistics.median(r["wall_s"] for r in rebuilds)
    base_wall = statistics.median(b["wall_s"] for b in baselines)
    return {
        "entries": size,
        "documents": documents,
        "rounds": rounds,
        "rebuild_cpu_s": rebuild_cpu,
        "rebuild_wall_s": rebuild_wall,
        "one_field_cpu_s": base_cpu,
        "one_field_wall_s": base_wall,
        "ratio_cpu": rebuild_cpu / base_cpu,
        "ratio_wall": rebuild_wall / base_wall,
        "per_entry_cpu_us": rebuild_cpu / documents * 1e6,
    }


def run(sizes: list[int], rounds: int, seed: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-build-"))
    try:
        results = [bench_size(size, rounds, seed, work) for size in sizes]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    met = all(r["ratio_cpu"] <= BUDGET for r in results)
    return {"budget_ratio_cpu": BUDGET, "sizes": results, "met": met}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=["rebuild", "one-field"], help=argparse.SUPPRESS)
    parser.add_argument("--child-repo", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = [int(part) for part in args.sizes.split(",")]
    if args.child:
        print(json.dumps(child(args.child, args.child_repo, sizes[0], args.seed)))
        return 0
    result = run(sizes, args.rounds, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for r in result["sizes"]:
        print(
            f"{r['entries']:>7,} entries ({r['documents']:,} documents), median of "
            f"{r['rounds']}: rebuild {r['rebuild_cpu_s']:.2f} s CPU ({r['rebuild_wall_s']:.2f}"
            f" s wall), one-field Whoosh {r['one_field_cpu_s']:.2f} s CPU "
            f"({r['one_field_wall_s']:.2f} s wall): {r['ratio_cpu']:.1f}x CPU, "
            f"{r['ratio_wall']:.1f}x wall (budget {BUDGET:.0f}x CPU), "
            f"{r['per_entry_cpu_us']:.0f} us CPU an entry"
        )
    print("budget met" if result["met"] else "budget NOT met")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
