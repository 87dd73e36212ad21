"""Prompt context for a chat turn against a bare recall, measured in the same run.

Budget (issue #5, "Speed"): on the 10,000-entry repo of bench_recall.py (same corpus,
same queries), building L0 + L1 for a chat turn (`MemoryRepo.context`, the gate, the
cached L0, recall for L1, dedupe, budget, rendering, the memory_used report and
mark_used) has a p50 at most 2 x the p50 of a bare `MemoryRepo.recall` of the same query
with the same reader (workspace ws01) and the same number of hits. Turns and bare recalls
are interleaved, in alternating order, so machine noise and warm caches favour neither.

Also shown: the cached L0 is reused on every turn without a write (the builder's rebuild
counter does not move), rebuilt once after a write, then reused again; and the cost of a
cold L0 build (reading MEMORY.md, the Index with its descriptions, the workspace file and
the standing items).

Usage: python benchmarks/bench_context.py [--size 10000] [--queries 200] [--seed 11] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from _common import Timing, timed
from bench_recall import build, corpus, queries

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextBudgets, ContextRequest

BUDGET = {"context_p50_ratio": 2.0}
WORKSPACE = "ws01"


def turn(repo: MemoryRepo, query: str, n: int) -> None:
    repo.context(ContextRequest(query=query, workspace=WORKSPACE, task_id="bench", turn=str(n)))


def bench_turns(repo: MemoryRepo, qs: list[str]) -> dict[str, Any]:
    hits = ContextBudgets().l1_hits
    ours: list[float] = []
    bare: list[float] = []
    builds_before = repo._parts.context_builder.l0.builds
    for n, q in enumerate(qs):
        # Whichever runs second finds the query's index pages warm: alternate the order.
        pair = [
            (ours, lambda: turn(repo, q, n)),  # noqa: B023
            (bare, lambda: repo.recall(q, workspace=WORKSPACE, limit=hits)),  # noqa: B023
        ]
        for series, action in pair if n % 2 else reversed(pair):
            series.append(timed(action))
    mine, base = Timing.of(ours), Timing.of(bare)
    return {
        "context": asdict(mine),
        "recall": asdict(base),
        "p50_ratio": mine.p50_ms / base.p50_ms,
        "l0_rebuilds_during_turns": repo._parts.context_builder.l0.builds - builds_before,
    }


def bench_cache(repo: MemoryRepo, qs: list[str]) -> dict[str, Any]:
    """One write between turns: L0 rebuilt once, then reused again."""
    before = repo._parts.context_builder.l0.builds
    repo.remember("The user prefers replies in English", by="user")
    rebuild = timed(lambda: turn(repo, qs[0], -1))
    after_write = repo._parts.context_builder.l0.builds - before
    cached = timed(lambda: turn(repo, qs[0], -2))
    return {
        "rebuilds_after_one_write": after_write,
        "rebuilds_on_the_next_turn": repo._parts.context_builder.l0.builds - before - after_write,
        "turn_with_rebuild_ms": rebuild * 1000,
        "turn_with_cached_l0_ms": cached * 1000,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    texts = corpus(args.size, args.seed)
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-context-")) / "repo"
    build(root, texts)
    qs = queries(texts, args.queries, args.seed)
    repo = MemoryRepo.open(root)
    repo.reindex()
    repo.recall("warm up the index", workspace=WORKSPACE)
    started = time.perf_counter()
    first = repo.context(ContextRequest(query=qs[0], workspace=WORKSPACE, preview=True))
    cold = time.perf_counter() - started
    turns = bench_turns(repo, qs)
    cache = bench_cache(repo, qs)
    repo.close()
    figures = {"context_p50_ratio": turns["p50_ratio"]}
    return {
        "entries": args.size,
        "queries": args.queries,
        "seed": args.seed,
        "first_turn_cold_l0_ms": cold * 1000,
        "first_turn_tokens": first.tokens,
        "first_turn_refs": len(first.refs),
        "turns": turns,
        "cache": cache,
        "figures": figures,
        "budget": BUDGET,
        "within_budget": {key: value <= BUDGET[key] for key, value in figures.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    t, c = result["turns"], result["cache"]
    print(
        f"{result['entries']} entries, {result['queries']} chat turns: context p50 "
        f"{t['context']['p50_ms']:.2f} p95 {t['context']['p95_ms']:.2f} ms | bare recall p50 "
        f"{t['recall']['p50_ms']:.2f} p95 {t['recall']['p95_ms']:.2f} ms"
    )
    print(
        f"L0: cold first turn {result['first_turn_cold_l0_ms']:.1f} ms, "
        f"{t['l0_rebuilds_during_turns']} rebuilds in {result['queries']} turns without writes, "
        f"{c['rebuilds_after_one_write']} after one write ({c['turn_with_rebuild_ms']:.1f} ms), "
        f"{c['rebuilds_on_the_next_turn']} on the next turn ({c['turn_with_cached_l0_ms']:.1f} ms)"
    )
    for key, value in result["figures"].items():
        verdict = "ok" if result["within_budget"][key] else "OVER"
        print(f"{key}: {value:.3f} (budget {BUDGET[key]}) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
