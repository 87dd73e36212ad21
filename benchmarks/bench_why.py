"""`why` on a long history: time and peak memory against baselines measured in the same run.

The history: one topic file of ~200 entries changed by every one of --commits commits (an
entry added, reworded or removed in turn; every 50th commit also touches another file),
with one followed entry (a `subject`) added at the start, changed every 100 commits,
moved to another file and back, removed and re-added. `why` must stream that history:
memory bounded by two versions of the file plus the events, under 1 s for 2,000 commits.

Baselines, same run, same repository:
- `git log --follow -p -- notes.md` (the git command a person would reach for);
- a full parse of the file at every commit (what keeping every version cost before).

A wide repository too (issue #28, "`why` proportional"): --wide entries (100,000) in
topic files of 100, one of them a `subject` entry added by the corpus commit and changed
by the next: a 2-commit history in a big repository. Its `why` must cost what that
history does, not what the repository does: <= 5x `git log --follow -p` of the entry's
file and <= 50 ms of CPU, medians of --rounds, CPU time beside wall time.

Usage: python benchmarks/bench_why.py [--commits 2000] [--entries 200] [--rounds 3]
       [--wide 100000] [--packed] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pygit2
from _common import build_repo, git, timed, topic_path

from memrepo import MemoryRepo
from memrepo.formats import parse

FILE = "notes.md"
SUBJECT = "deploy-window"
_SIG = pygit2.Signature("bench", "bench@example.com", 1_700_000_000, 0)


def _fact(n: int, version: int = 0) -> str:
    return (
        f"- Fact {n} about component {n * 7 % 13} uses version 1.{version}.{n} "
        f"[source: memrepo://tasks/{n}; added: 2026-01-{n % 28 + 1:02d}; by: agent]"
    )


def _followed(version: int) -> str:
    return f"- Deploys happen in window {version} [subject: {SUBJECT}; by: user]"


def _text(lines: list[str]) -> bytes:
    return ("# Notes\n\nWhat the team learned.\n\n" + "\n".join(lines) + "\n").encode()


class _Builder:
    """Commits written straight into the object database: a real history, built fast."""

    def __init__(self, root: Path) -> None:
        MemoryRepo.init(root)
        self.repo = pygit2.Repository(str(root))
        self.files: dict[str, bytes] = {
            "MEMORY.md": b"# Memory\n\n## Index\n- [[notes]]\n- [[ops]]\n",
            "ops.md": b"# Ops\n\n- Ops fact [by: user]\n",
        }
        self.time = _SIG.time

    def commit(self, message: str) -> None:
        builder = self.repo.TreeBuilder()
        for path, data in sorted(self.files.items()):
            builder.insert(path, self.repo.create_blob(data), pygit2.enums.FileMode.BLOB)
        self.time += 60
        sig = pygit2.Signature(_SIG.name, _SIG.email, self.time, 0)
        head = self.repo.head.target
        self.repo.create_commit("HEAD", sig, sig, message, builder.write(), [head])


def build_history(root: Path, commits: int, entries: int) -> None:
    """The history the module docstring describes, on main of a memory repo at `root`."""
    b = _Builder(root)
    facts = [_fact(n) for n in range(entries)]
    followed: str | None = None
    version = next_fact = entries
    for c in range(commits):
        step = c % 3
        if step == 0:
            facts.append(_fact(next_fact))
            next_fact += 1
        elif step == 1:
            k = c * 31 % len(facts)
            facts[k] = _fact(c, version=c)  # a reworded fact: a new id in its place
        else:
            facts.pop(c * 17 % (len(facts) - 1))
        if c == 1 or c == commits // 2 + 1:
            followed = _followed(version)  # added, and re-added after its removal
        elif c == commits // 4 and followed is not None:
            b.files["ops.md"] += (followed + "\n").encode()  # moved to ops.md ...
            followed = None
        elif c == commits // 4 + 1:
            text = b.files["ops.md"].decode()
            last = text.splitlines()[-1]
            b.files["ops.md"] = text.replace(last + "\n", "").encode()
            followed = last  # ... and back
        elif c == commits // 2:
            followed = None  # removed
        elif c % 100 == 0 and followed is not None:
            version += 1
            followed = _followed(version)
        if c % 50 == 49:
            b.files["ops.md"] += f"- Ops fact {c} [by: agent]\n".encode()
        lines = facts[:5] + ([followed] if followed else []) + facts[5:]
        b.files[FILE] = _text(lines)
        b.commit(f"Remember: step {c}\n\nMemrepo-Origin: remember\nMemrepo-By: agent\n")
    git(root, "reset", "-q", "--hard")


def _measure(fn: Any) -> tuple[float, float]:
    """Seconds and peak MiB that tracemalloc saw (time measured without tracing)."""
    seconds = timed(fn)
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return seconds, peak / 1024 / 1024


def _parse_every_version(root: Path) -> int:
    repo = pygit2.Repository(str(root))
    total = 0
    for commit in repo.walk(repo.head.target):
        if FILE in commit.tree:
            data = repo.odb.read(commit.tree[FILE].id)[1]
            total += len(parse(data, FILE).entries)
    return total


def build_wide(root: Path, entries: int) -> str:
    """The wide repository the module docstring describes; the followed entry's ref."""
    files = max(entries // 100, 1)
    build_repo(root, files, min(entries, 100)).close()
    path = topic_path(files // 2)
    with (root / path).open("a") as f:
        f.write(_followed(1) + "\n")
    git(root, "commit", "-q", "--amend", "-a", "--no-edit")  # added by the corpus commit
    text = (root / path).read_text().replace(_followed(1), _followed(2))
    (root / path).write_text(text)
    git(root, "commit", "-q", "-a", "-m", "Deploy window changed")
    return f"folder:{path}#{SUBJECT}"


def _cpu_and_wall(fn: Any) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def run_wide(entries: int, rounds: int) -> dict[str, Any]:
    """`why` of a 2-commit history among `entries` entries, against `git log --follow -p`
    of its file (the git side's CPU is its child process's, from getrusage)."""
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-why-wide-")) / "repo"
    ref = build_wide(root, entries)
    path = ref.removeprefix("folder:").split("#")[0]
    repo = MemoryRepo.open(root)
    report = repo.why(ref)
    why_cpu, why_wall, git_cpu, git_wall = [], [], [], []
    for _ in range(max(rounds, 1)):
        cpu, wall = _cpu_and_wall(lambda: repo.why(ref))
        why_cpu.append(cpu)
        why_wall.append(wall)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = timed(lambda: git(root, "log", "--follow", "-p", "--", path))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        git_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        git_wall.append(wall)
    repo.close()
    med = statistics.median
    return {
        "entries": entries,
        "events": [e.action for e in report.events],
        "why_cpu_ms": med(why_cpu) * 1000,
        "why_wall_ms": med(why_wall) * 1000,
        "git_log_follow_p_cpu_ms": med(git_cpu) * 1000,
        "git_log_follow_p_wall_ms": med(git_wall) * 1000,
        "ratio_wall_to_git_log": med(why_wall) / med(git_wall),
        "budget": {"ratio_wall_to_git_log": 5.0, "why_cpu_ms": 50.0},
    }


def run(commits: int, entries: int, rounds: int, packed: bool = False) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-why-"))
    root = work / "repo"
    start = time.perf_counter()
    build_history(root, commits, entries)
    built = time.perf_counter() - start
    if packed:
        git(root, "gc", "-q")
    repo = MemoryRepo.open(root)
    ref = f"folder:{FILE}#{SUBJECT}"
    report = repo.why(ref)
    measured = []
    for _ in range(rounds):
        why_s, why_mib = _measure(lambda: repo.why(ref))
        git_s = timed(lambda: git(root, "log", "--follow", "-p", "--", FILE))
        parse_s, parse_mib = _measure(lambda: _parse_every_version(root))
        measured.append((why_s, why_mib, git_s, parse_s, parse_mib))
    why_s, why_mib, git_s, parse_s, parse_mib = (
        statistics.median(m[i] for m in measured) for i in range(5)
    )
    return {
        "corpus": {"commits": commits, "entries": entries, "build_s": built, "packed": packed},
        "events": [e.action for e in report.events],
        "why_ms": why_s * 1000,
        "why_peak_mib": why_mib,
        "git_log_follow_p_ms": git_s * 1000,
        "parse_every_version_ms": parse_s * 1000,
        "parse_every_version_peak_mib": parse_mib,
        "ratio_to_git_log": why_s / git_s,
        "ratio_to_parse_every_version": why_s / parse_s,
        "budget": {"why_ms": 1000.0},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--wide", type=int, default=100_000, help="0: no wide repository")
    parser.add_argument("--packed", action="store_true", help="git gc the history first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.commits, args.entries, args.rounds, args.packed)
    if args.wide:
        result["wide"] = run_wide(args.wide, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    c = result["corpus"]
    print(f"history: {c['commits']} commits of {FILE} (~{c['entries']} entries), built in "
          f"{c['build_s']:.1f} s; events {' '.join(result['events'])}")  # fmt: skip
    print(
        f"why {result['why_ms']:.0f} ms, peak {result['why_peak_mib']:.1f} MiB "
        f"(budget {result['budget']['why_ms']:.0f} ms) | git log --follow -p "
        f"{result['git_log_follow_p_ms']:.0f} ms (ratio {result['ratio_to_git_log']:.2f}) | "
        f"parse every version {result['parse_every_version_ms']:.0f} ms, peak "
        f"{result['parse_every_version_peak_mib']:.1f} MiB "
        f"(ratio {result['ratio_to_parse_every_version']:.2f})"
    )
    if "wide" in result:
        w = result["wide"]
        print(
            f"wide: {w['entries']} entries, events {' '.join(w['events'])} | why CPU "
            f"{w['why_cpu_ms']:.1f} ms (budget 50), wall {w['why_wall_ms']:.1f} ms | git log "
            f"--follow -p CPU {w['git_log_follow_p_cpu_ms']:.1f} ms, wall "
            f"{w['git_log_follow_p_wall_ms']:.1f} ms | ratio (wall) "
            f"{w['ratio_wall_to_git_log']:.2f} (budget 5)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
