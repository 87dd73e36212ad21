"""Sync speed against the git command line, both against a real local `git daemon`.

Two machines each add --entries new entries (one commit each) across --touch files since
their last sync. One round is: machine A syncs (push), B syncs (fetch, merge, push), A
syncs (fetch, fast-forward). The baseline is the same round with plain git on an
identical pair of clones: `git pull --no-rebase` + `git push` on A, on B, then
`git pull --no-rebase` on A, where the two machines' changes touch different files (so
git's merge needs no help). memrepo is measured twice: with both machines writing to the
SAME files (the entry-aware merge does real work: the case plain git would conflict on)
and, like the baseline, to different files.

Budget (issue #7): the median round of memrepo (same files) <= 2 x the median git round.
Writes are not timed; every figure is the median over --rounds rounds after a warm-up.

Usage: python benchmarks/bench_sync.py [--entries 100] [--touch 20] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from _common import git, git_daemon, timed

from memrepo import MemoryRepo
from memrepo.sync import api

CORPUS_FILES = 40
CORPUS_ENTRIES = 20
BUDGET = 2.0


def topic(n: int) -> str:
    return f"topics/topic{n:02d}.md"


def write_corpus(root: Path) -> None:
    """The shared starting point: MEMORY.md linking CORPUS_FILES topic files."""
    for f in range(CORPUS_FILES):
        lines = [f"# Topic {f}", ""] + [
            f"- Fact {f}-{e} about part {e * 7 % 13} [added: 2026-01-01; by: agent]"
            for e in range(CORPUS_ENTRIES)
        ]
        (root / topic(f)).parent.mkdir(parents=True, exist_ok=True)
        (root / topic(f)).write_text("\n".join(lines) + "\n")
    links = "\n".join(f"- [[{topic(f)[:-3]}]]" for f in range(CORPUS_FILES))
    (root / "MEMORY.md").write_text(
        f"# Memory\n\n- Short answers [by: user]\n\n## Index\n{links}\n"
    )


def memrepo_pair(base: Path, port: int, work: Path) -> tuple[MemoryRepo, MemoryRepo]:
    git(base, "init", "-q", "--bare", "-b", "main", "mem.git")
    url = f"git://127.0.0.1:{port}/mem.git"
    a = MemoryRepo.init(work / "mem-a")
    write_corpus(a.root)
    api.set_remote(a.folder, url, confirm_private=True)
    api.sync(a.folder)  # commits the corpus as the user's edit, pushes it
    b = MemoryRepo(api.clone(url, work / "mem-b", confirm_private=True))
    return a, b


def git_pair(base: Path, port: int, work: Path) -> tuple[Path, Path]:
    git(base, "init", "-q", "--bare", "-b", "main", "plain.git")
    url = f"git://127.0.0.1:{port}/plain.git"
    a, b = work / "git-a", work / "git-b"
    git(work, "clone", "-q", url, str(a))
    git(a, "checkout", "-q", "-b", "main")
    write_corpus(a)
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "corpus")
    git(a, "push", "-q", "origin", "main")
    git(work, "clone", "-q", url, str(b))
    return a, b


def memrepo_writes(repo: MemoryRepo, who: str, rnd: int, entries: int, files: range) -> None:
    for n in range(entries):
        text = f"Machine {who} round {rnd} learned fact {n} about part {n * 5 % 17}"
        repo.remember(text, file=topic(files[n % len(files)]))


def git_writes(root: Path, who: str, rnd: int, entries: int, files: range) -> None:
    for n in range(entries):
        path = topic(files[n % len(files)])
        text = f"Machine {who} round {rnd} learned fact {n} about part {n * 5 % 17}"
        with open(root / path, "a", encoding="utf-8") as handle:
            handle.write(f"- {text} [added: 2026-03-01; by: agent]\n")
        git(root, "commit", "-q", "-m", f"Remember: {text}", "--", path)


def git_sync(root: Path, push: bool = True) -> None:
    git(root, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    if push:
        git(root, "push", "-q", "origin", "main")


def one_round(steps: Sequence[Callable[[], object]]) -> list[float]:
    return [timed(step) for step in steps]


def run(entries: int, touch: int, rounds: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-sync-"))
    base = work / "served"
    base.mkdir()
    same, other = range(touch), range(touch, 2 * touch)
    series: dict[str, list[list[float]]] = {"same": [], "different": [], "git": []}
    with git_daemon(base) as port:
        a, b = memrepo_pair(base, port, work)
        ga, gb = git_pair(base, port, work)
        for rnd in range(rounds + 1):  # round 0 warms caches and is not counted
            for variant, b_files in (("same", same), ("different", other)):
                memrepo_writes(a, f"A-{variant}", rnd, entries, same)
                memrepo_writes(b, f"B-{variant}", rnd, entries, b_files)
                steps = [lambda: api.sync(a.folder), lambda: api.sync(b.folder),
                         lambda: api.sync(a.folder)]  # fmt: skip
                times = one_round(steps)
                if rnd:
                    series[variant].append(times)
            git_writes(ga, "A", rnd, entries, same)
            git_writes(gb, "B", rnd, entries, other)
            times = one_round([lambda: git_sync(ga), lambda: git_sync(gb),
                               lambda: git_sync(ga, push=False)])  # fmt: skip
            if rnd:
                series["git"].append(times)
        assert {e.text for e in a.entries()} == {e.text for e in b.entries()}
        clean = (
            git(a.root, "status", "--porcelain") == ""
            and git(b.root, "status", "--porcelain") == ""
        )
    medians = {name: _medians(rows) for name, rows in series.items()}
    git_round = medians["git"]["round_ms"]
    return {
        "entries_per_machine": entries,
        "files_touched": touch,
        "rounds": rounds,
        "medians_ms": medians,
        "ratio_same_files": medians["same"]["round_ms"] / git_round,
        "ratio_different_files": medians["different"]["round_ms"] / git_round,
        "budget": BUDGET,
        "entries_total": len(a.entries()),
        "git_status_clean": clean,
    }


def _medians(rows: list[list[float]]) -> dict[str, float]:
    names = ("a_push_ms", "b_merge_push_ms", "a_fast_forward_ms")
    out = {name: statistics.median(r[i] for r in rows) * 1000 for i, name in enumerate(names)}
    out["round_ms"] = statistics.median(sum(r) for r in rows) * 1000
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--touch", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.entries, args.touch, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    med = result["medians_ms"]
    print(f"{args.entries} entries x 2 machines across {args.touch} files, {args.rounds} rounds")
    for name in ("same", "different", "git"):
        row = med[name]
        print(
            f"  {name:9} round {row['round_ms']:7.1f} ms  (A push {row['a_push_ms']:.1f}, "
            f"B merge+push {row['b_merge_push_ms']:.1f}, A ff {row['a_fast_forward_ms']:.1f})"
        )
    print(
        f"ratio same files {result['ratio_same_files']:.2f}, different files "
        f"{result['ratio_different_files']:.2f} (budget {BUDGET})"
    )


if __name__ == "__main__":
    main()
