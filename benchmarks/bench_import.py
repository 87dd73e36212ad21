"""Import of N JSONL facts (one commit) against N separate `remember` calls.

Budgets, both measured in the same run, medians of --rounds:
- issue #9: the import is >= 20 x faster than the same facts remembered one call at a
  time; entries per second are reported;
- issue #30: an import of 10,000 rows *with progress* (a callback hearing the running
  row count, as the CLI's progress bar does) takes <= 2 x the time of `remember` of the
  same rows in bulk (the ratio import / remember is reported; it must be <= 2.0).

Timing every one of 10,000 `remember` calls would take minutes, so --sample calls are
timed (into the same file, with the same metadata an import writes) and the total is
scaled to N. That favours `remember`: each call parses its file, which grows with every
write, so the later calls of a real run of N are slower than the sample's.

--shape picks what is imported, all holding the same rows: `jsonl` (one row per line),
`mem0` (one `{"results": [...]}` document) or `openmemory` (OpenMemory's export zip,
its `memories.json` read whole, every memory `active`).

Usage: python benchmarks/bench_import.py [--facts 10000] [--sample 500] [--rounds 3]
       [--shape jsonl|mem0|openmemory] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import zipfile
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


SHAPES = {"jsonl": "imports/jsonl.md", "mem0": "imports/mem0.md",
          "openmemory": "imports/openmemory.md"}  # fmt: skip


def reshape(dump: Path, shape: str) -> Path:
    """The rows of the JSONL dump as `shape` writes them (see the module docstring)."""
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    if shape == "mem0":
        path = dump.with_name("mem0.json")
        results = [{"id": f"m-{n}", **row} for n, row in enumerate(rows)]
        path.write_text(json.dumps({"results": results}))
        return path
    if shape == "openmemory":
        path = dump.with_name("memories_export_dana.zip")
        memories = [
            {"id": f"m-{n}", "user_id": "u-1", "app_id": None, "content": row["memory"],
             "metadata": {}, "state": "active", "created_at": row["created_at"],
             "updated_at": row["created_at"], "archived_at": None, "deleted_at": None,
             "category_ids": []}
            for n, row in enumerate(rows)
        ]  # fmt: skip
        document = {"user": {"id": "u-1", "user_id": "dana"}, "apps": [], "categories": [],
                    "memories": memories, "export_meta": {"version": "1"}}  # fmt: skip
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("memories.json", json.dumps(document, indent=2))
        return path
    return dump


def import_round(work: Path, dump: Path, n: int, facts: int, shape: str) -> float:
    repo = MemoryRepo.init(work / f"import-{n}")
    before = int(git(repo.root, "rev-list", "--count", "main"))
    heard: list[int] = []
    seconds = timed(lambda: repo.import_memory(dump, source=shape, progress=heard.append))  # type: ignore[arg-type]
    assert int(git(repo.root, "rev-list", "--count", "main")) == before + 1
    assert len(repo.entries(SHAPES[shape])) == facts
    assert heard and heard[-1] == facts  # progress was reported, to the last row
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


def run(facts: int, sample: int, rounds: int, shape: str = "jsonl") -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-import-") as tmp:
        work = Path(tmp)
        dump = work / "facts.jsonl"
        write_dump(dump, facts)
        source = reshape(dump, shape)
        imports, per_call = [], []
        for n in range(rounds):
            imports.append(import_round(work, source, n, facts, shape))
            per_call.append(remember_round(work, dump, n, sample))
    import_s = statistics.median(imports)
    remember_s = statistics.median(per_call) * facts
    return {
        "facts": facts,
        "shape": shape,
        "import_seconds": round(import_s, 3),
        "import_entries_per_second": round(facts / import_s),
        "remember_seconds_per_call": round(statistics.median(per_call), 5),
        "remember_sample": sample,
        "remember_scaled_seconds": round(remember_s, 2),
        "speedup": round(remember_s / import_s, 1),
        "budget": 20.0,
        "import_to_remember_ratio": round(import_s / remember_s, 3),
        "ratio_budget": 2.0,
        "rounds": rounds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.facts, args.sample, args.rounds, args.shape)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"import of {result['facts']} facts ({args.shape}): {result['import_seconds']} s "
          f"({result['import_entries_per_second']} entries/s, one commit)")  # fmt: skip
    print(f"remember: {result['remember_seconds_per_call'] * 1000:.2f} ms per call over "
          f"{args.sample} calls, scaled to {result['facts']}: "
          f"{result['remember_scaled_seconds']} s")  # fmt: skip
    print(f"speedup {result['speedup']}x (budget >= {result['budget']}), medians of "
          f"{args.rounds}")  # fmt: skip
    print(f"import with progress / remember in bulk: {result['import_to_remember_ratio']} "
          f"(budget <= {result['ratio_budget']})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
