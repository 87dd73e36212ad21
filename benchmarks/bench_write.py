"""Write, parse and undo speed against the git command line, measured in the same run.

Budgets (issue #2):
- remember p50 <= 0.5 x (git add + git commit) p50, and p95 <= 1.0 x its p50;
- full parse of every file at HEAD <= 3 x a bare line-by-line bullet scan of the blobs;
- undo p50 <= 0.7 x `git revert --no-edit` p50.

Usage: python benchmarks/bench_write.py [--files 500] [--entries 20] [--writes 200]
       [--undos 30] [--parse-runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import build_repo, copy_repo, git, summary, timed

from memrepo.formats import parse


def bench_writes(repo_root: Path, baseline_root: Path, writes: int, files: int) -> dict:
    from memrepo import MemoryRepo

    repo = MemoryRepo.open(repo_root)
    ours: list[float] = []
    theirs: list[float] = []
    for n in range(writes):
        f = n * 7 % files
        topic = f"topics/t{f % 25:02d}/file{f:03d}.md"
        # Interleaved so machine noise hits both sides alike.
        ours.append(timed(lambda: repo.remember(f"bench write {n} about thing {n * 3}", file=topic)))

        def git_write() -> None:
            path = baseline_root / topic
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(f"- bench write {n} about thing {n * 3} [by: agent]\n")
            git(baseline_root, "add", topic)
            git(baseline_root, "commit", "-q", "-m", f"Remember: bench write {n}")

        theirs.append(timed(git_write))
    mine, base = summary("memrepo remember", ours), summary("git add + git commit", theirs)
    return {
        "memrepo": mine,
        "git_cli": base,
        "p50_ratio": mine["p50_ms"] / base["p50_ms"],
        "p95_ratio_to_git_p50": mine["p95_ms"] / base["p50_ms"],
        "budget": {"p50_ratio": 0.5, "p95_ratio_to_git_p50": 1.0},
    }


def bench_parse(repo_root: Path, runs: int) -> dict:
    import pygit2

    repository = pygit2.Repository(str(repo_root))
    commit = repository[repository.head.target]
    blobs: list[tuple[str, bytes]] = []

    def collect(tree: pygit2.Tree, prefix: str) -> None:
        for entry in tree:
            if entry.type_str == "tree":
                collect(repository[entry.id], prefix + entry.name + "/")
            elif entry.name.endswith(".md"):
                blobs.append((prefix + entry.name, repository[entry.id].data))

    collect(commit.tree, "")

    def bare_scan() -> int:
        count = 0
        for _path, data in blobs:
            for line in data.decode("utf-8").splitlines():
                if line.startswith("- "):
                    count += 1
        return count

    def full_parse() -> int:
        return sum(len(parse(data, path).entries) for path, data in blobs)

    scan_times, parse_times = [], []
    for _ in range(runs):
        scan_times.append(timed(bare_scan))
        parse_times.append(timed(full_parse))
    scan, full = statistics.median(scan_times), statistics.median(parse_times)
    return {
        "files": len(blobs),
        "entries": full_parse(),
        "bare_scan_ms": scan * 1000,
        "full_parse_ms": full * 1000,
        "ratio": full / scan,
        "budget": {"ratio": 3.0},
    }


def bench_undo(repo_root: Path, baseline_root: Path, undos: int) -> dict:
    from memrepo import MemoryRepo

    repo = MemoryRepo.open(repo_root)
    ours: list[float] = []
    theirs: list[float] = []
    for n in range(undos):
        repo.remember(f"undo bench fact {n}", file="topics/t00/file000.md")
        ours.append(timed(repo.undo))
        path = baseline_root / "topics/t00/file000.md"
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"- undo bench fact {n} [by: agent]\n")
        git(baseline_root, "add", "topics/t00/file000.md")
        git(baseline_root, "commit", "-q", "-m", f"undo bench {n}")
        theirs.append(timed(lambda: git(baseline_root, "revert", "--no-edit", "HEAD")))
    mine, base = summary("memrepo undo", ours), summary("git revert --no-edit", theirs)
    return {
        "memrepo": mine,
        "git_cli": base,
        "p50_ratio": mine["p50_ms"] / base["p50_ms"],
        "budget": {"p50_ratio": 0.7},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--undos", type=int, default=30)
    parser.add_argument("--parse-runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-"))
    started = time.perf_counter()
    build_repo(work / "repo", args.files, args.entries)
    baseline = copy_repo(work / "repo")
    results = {
        "corpus": {"files": args.files, "entries": args.files * args.entries},
        "parse": bench_parse(work / "repo", args.parse_runs),
        "write": bench_writes(work / "repo", baseline, args.writes, args.files),
        "undo": bench_undo(work / "repo", baseline, args.undos),
    }
    results["seconds"] = time.perf_counter() - started
    status = git(work / "repo", "status", "--porcelain")
    results["git_status_clean_after_writes"] = status == ""
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        w, p, u = results["write"], results["parse"], results["undo"]
        print(f"corpus: {args.files} files, {args.files * args.entries} entries")
        print(
            f"remember p50 {w['memrepo']['p50_ms']:.2f} ms, p95 {w['memrepo']['p95_ms']:.2f} ms; "
            f"git add+commit p50 {w['git_cli']['p50_ms']:.2f} ms -> p50 ratio "
            f"{w['p50_ratio']:.2f} (budget 0.5), p95/git-p50 {w['p95_ratio_to_git_p50']:.2f} "
            "(budget 1.0)"
        )
        print(
            f"parse {p['files']} files / {p['entries']} entries: {p['full_parse_ms']:.1f} ms vs "
            f"bare scan {p['bare_scan_ms']:.1f} ms -> ratio {p['ratio']:.2f} (budget 3.0)"
        )
        print(
            f"undo p50 {u['memrepo']['p50_ms']:.2f} ms vs git revert p50 "
            f"{u['git_cli']['p50_ms']:.2f} ms -> ratio {u['p50_ratio']:.2f} (budget 0.7)"
        )
        print(f"git status clean after writes: {results['git_status_clean_after_writes']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
