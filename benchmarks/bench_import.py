"""Import of N JSONL facts (one commit) against N separate `remember` calls.

Budget (issue #9): the import is >= 20 x faster than the same facts remembered one call
at a time, both measured in the same run; entries per second are reported.

Timing every one of 10,000 `remember` calls would take minutes, so --sample calls are
timed (into the same file, with the same metadata an import writes) and the total is
scaled to N. That favours `remember`: each call parses its file, which grows with every
write, so the later calls of a real run of N are slower than the sample's.

Usage: python benchmarks/bench_import.py [--facts 10000] [--sample 500] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

from _common import git, timed

from memrepo import MemoryRepo


def write_dump(path: Path, facts: int) -> None:
    tools = ["pytest", "ruff", "docker", "postgres", "redis", "nginx", "terraform", "helm"]
    with open(path, "w", encoding="utf-8") as out:
        for n in range(facts):
            row = {
                "memory": f"Fact {n}: we use {tools[n % 8]} {n % 13}.{n % 7} for service {n}",
                "user_id": "dana",
                "created_at": f"2026-0{n % 9 + 1}-1{n % 9}T10:00:00Z",
            }
            out.write(json.dumps(row) + "\n")


def import_round(work: Path, dump: Path, n: int, facts: int) -> float:
    repo = MemoryRepo.init(work / f"import-{n}")
    before = int(git(repo.root, "rev-list", "--count", "main"))
    seconds = timed(lambda: repo.import_memory(dump, source="jsonl"))
    assert int(git(repo.root, "rev-list", "--count", "main")) == before + 1
    assert len(repo.entries("imports/jsonl.md")) == facts
    return seconds


def remember_round(work: Path, dump: Path, n: int, sample: int) -> float:
    """Seconds per remember call over `sample` calls (same target file and metadata)."""
    repo = MemoryRepo.init(work / f"remember-{n}")
    rows = [json.loads(line) for _, line in zip(range(sample), dump.open(), strict=False)]
    uri = dump.as_uri()

    def run() -> None:
        for line, row in enumerate(rows, 1):
            repo.remember(
                row["memory"], file="imports/jsonl.md", by="import", origin="import",
                source=f"{uri}#L{line}",
            )  # fmt: skip

    return timed(run) / sample


def run(facts: int, sample: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-import-") as tmp:
        work = Path(tmp)
        dump = work / "facts.jsonl"
        write_dump(dump, facts)
        imports, per_call = [], []
        for n in range(rounds):
            imports.append(import_round(work, dump, n, facts))
            per_call.append(remember_round(work, dump, n, sample))
    import_s = statistics.median(imports)
    remember_s = statistics.median(per_call) * facts
    return {
        "facts": facts,
        "import_seconds": round(import_s, 3),
        "import_entries_per_second": round(facts / import_s),
        "remember_seconds_per_call": round(statistics.median(per_call), 5),
        "remember_sample": sample,
        "remember_scaled_seconds": round(remember_s, 2),
        "speedup": round(remember_s / import_s, 1),
        "budget": 20.0,
        "rounds": rounds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.facts, args.sample, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"import of {result['facts']} JSONL facts: {result['import_seconds']} s "
          f"({result['import_entries_per_second']} entries/s, one commit)")  # fmt: skip
    print(f"remember: {result['remember_seconds_per_call'] * 1000:.2f} ms per call over "
          f"{args.sample} calls, scaled to {result['facts']}: "
          f"{result['remember_scaled_seconds']} s")  # fmt: skip
    print(f"speedup {result['speedup']}x (budget >= {result['budget']}), medians of "
          f"{args.rounds}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
