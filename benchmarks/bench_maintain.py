"""The daily maintenance pass when there is nothing to drop (issue #32, Budgets).

Budget: the pass over 100,000 folder entries and 10,000 memory items costs <= 2 s of
CPU when nothing has expired, is forgotten or is overdue (the common day). Measured in
this process with `time.process_time` around `MemoryRepo.maintain()`, median of
--rounds; beside it, one parse of every file at HEAD (what a pass that read the folder
would pay) so the figure can be compared on another machine.

Usage: python benchmarks/bench_maintain.py [--files 5000] [--entries 20] [--items 10000]
       [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import build_repo

from memrepo.formats import parse
from memrepo.models.items import candidate

BUDGET_CPU_S = 2.0


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-maintain-")) / "repo"
    repo = build_repo(root, args.files, args.entries)
    for n in range(args.items):
        repo._parts.items.ingest(
            candidate(content=f"Item {n} about project {n % 97}", kind="fact", scope="global")
        )
    passes: list[float] = []
    parses: list[float] = []
    for _ in range(args.rounds):
        start = time.process_time()
        report = repo.maintain()
        passes.append(time.process_time() - start)
        assert report.skipped is None and not report.expired_entries and report.commit is None
        start = time.process_time()
        for path in sorted(root.rglob("*.md")):
            parse(path.read_bytes(), str(path.relative_to(root)))
        parses.append(time.process_time() - start)
    repo.close()
    cpu = statistics.median(passes)
    return {
        "entries": args.files * args.entries,
        "items": args.items,
        "maintain_cpu_s": cpu,
        "parse_all_cpu_s": statistics.median(parses),
        "budget_cpu_s": BUDGET_CPU_S,
        "within_budget": cpu <= BUDGET_CPU_S,
        "rounds": passes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"maintain over {report['entries']:,} entries and {report['items']:,} items: "
        f"{report['maintain_cpu_s']:.2f} s CPU (budget {BUDGET_CPU_S} s); one parse of "
        f"every file: {report['parse_all_cpu_s']:.2f} s"
    )


if __name__ == "__main__":
    main()
