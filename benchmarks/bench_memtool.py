"""The memory tool's commands against `remember` of the same text (issue #30, Budgets).

Budget: one memory-tool command <= 1.5x a `remember` of the same text, p50, in a memory
repo of 10,000 entries. Each round interleaves, on the same repo, a `remember` of one
line into a topic file and the memory tool's `insert` of the same line into a file of
the tool's folder of the same size, so machine noise hits both alike; `create` of a new
small file and `str_replace` of one line are timed beside them (information). Ratios are
medians over --rounds rounds, each side's p50 in the round.

Usage: python benchmarks/bench_memtool.py [--files 500] [--entries 20] [--writes 60]
       [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

from _common import build_repo, timed, topic_path

from memrepo import MemoryRepo

BUDGET = 1.5


def one_round(
    repo: MemoryRepo, files: int, writes: int, entries: int, start: int
) -> dict[str, float]:
    tool = repo.memory_tool(task_id="bench")
    body = "".join(f"- Tool fact {e} about component {e * 7 % 13}\n" for e in range(entries))
    tool.call({"command": "create", "path": f"/memories/r{start}.md", "file_text": body})
    remember: list[float] = []
    insert: list[float] = []
    create: list[float] = []
    replace: list[float] = []
    for n in range(start, start + writes):
        text = f"bench write {n} about thing {n * 3}"
        topic = topic_path(n * 7 % files)
        remember.append(timed(lambda: repo.remember(text, file=topic)))  # noqa: B023
        call = {
            "command": "insert",
            "path": f"/memories/r{start}.md",
            "insert_line": 0,
            "insert_text": f"- {text}\n",
        }
        insert.append(timed(lambda: tool.call(call)))  # noqa: B023
        new = {"command": "create", "path": f"/memories/n{n}.md", "file_text": f"- {text} new\n"}
        create.append(timed(lambda: tool.call(new)))  # noqa: B023
        edit = {
            "command": "str_replace",
            "path": f"/memories/n{n}.md",
            "old_str": " new",
            "new_str": " renewed",
        }
        replace.append(timed(lambda: tool.call(edit)))  # noqa: B023
    sides = {"remember_ms": remember, "insert_ms": insert, "create_ms": create}
    sides["str_replace_ms"] = replace
    p50 = {name: statistics.median(values) * 1000 for name, values in sides.items()}
    p50["insert_ratio"] = p50["insert_ms"] / p50["remember_ms"]
    p50["create_ratio"] = p50["create_ms"] / p50["remember_ms"]
    p50["str_replace_ratio"] = p50["str_replace_ms"] / p50["remember_ms"]
    return p50


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-memtool-")) / "repo"
    repo = build_repo(root, args.files, args.entries)
    repo.recall("warm the index")
    rounds = [
        one_round(repo, args.files, args.writes, args.entries, r * args.writes)
        for r in range(args.rounds)
    ]
    repo.close()
    keys = rounds[0].keys()
    report: dict[str, Any] = {k: statistics.median(r[k] for r in rounds) for k in keys}
    report.update(entries=args.files * args.entries, rounds=rounds, budget=BUDGET)
    report["within_budget"] = report["insert_ratio"] <= BUDGET
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report))
        return
    print(f"{report['entries']:,} entries, {args.rounds} rounds of {args.writes} writes (p50 ms)")
    print(
        f"remember {report['remember_ms']:.2f}  insert {report['insert_ms']:.2f} "
        f"({report['insert_ratio']:.2f}x, budget {BUDGET}x)"
    )
    print(
        f"create {report['create_ms']:.2f} ({report['create_ratio']:.2f}x)  "
        f"str_replace {report['str_replace_ms']:.2f} ({report['str_replace_ratio']:.2f}x)"
    )


if __name__ == "__main__":
    main()
