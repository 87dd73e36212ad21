"""Encrypted export + restore against `git bundle create` + `tar` of the same data.

Budget (issue #9): median(export + restore) <= 2 x median(baseline), where the baseline
is the command line doing the same job without encryption: `git bundle create --branches
--tags` plus `tar cf` of the items database and config, then `git clone` of the bundle
plus `tar xf` into it. Both sides are timed in the same run, interleaved.

Our side includes everything a user waits for: scrypt key derivation (twice: export and
restore, at the default cost N=2^17, r=8, p=1 unless --kdf-n is given), dumping and
loading every memory_items row, AES-256-GCM over the whole stream, and the verification
of the whole file before the restore writes anything. The key derivations are a fixed
cost (independent of the memory's size), so the ratio is also reported without them.

Usage: python benchmarks/bench_export.py [--files 100] [--entries 100] [--items 10000]
       [--commits 50] [--rounds 3] [--kdf-n 131072] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from _common import GIT_ENV, build_repo, git, timed
from bench_items import bulk_load

from memrepo import MemoryRepo
from memrepo.transfer.crypto import KdfParams

PASSPHRASE = "benchmark passphrase"


def build(root: Path, files: int, entries: int, items: int, commits: int) -> MemoryRepo:
    repo = build_repo(root, files, entries)
    for n in range(commits):  # some history on top of the corpus commit
        repo.remember(f"History fact {n} about release {n % 7}", file=f"history/h{n % 5}.md")
    repo.set_workspace("Bench", privacy="strict")
    repo.close()
    bulk_load(root / ".git" / "memrepo", items)
    return MemoryRepo.open(root)


def ours(repo: MemoryRepo, work: Path, n: int, kdf_n: int) -> tuple[float, float]:
    archive = work / f"ours-{n}.mrx"
    export = timed(
        lambda: repo.export(
            archive,
            encrypt=True,
            include_private=True,
            passphrase=PASSPHRASE,
            kdf=KdfParams.fresh(n=kdf_n),
        )
    )
    restore = timed(lambda: MemoryRepo.restore(archive, work / f"ours-{n}", passphrase=PASSPHRASE))
    return export, restore


def baseline(root: Path, work: Path, n: int) -> tuple[float, float]:
    bundle, tarball, target = work / f"git-{n}.bundle", work / f"git-{n}.tar", work / f"git-{n}"

    def export() -> None:
        git(root, "bundle", "create", str(bundle), "HEAD", "--branches", "--tags")
        subprocess.run(
            ["tar", "cf", str(tarball), "-C", str(root / ".git"), "memrepo/items.sqlite3",
             "memrepo/config.json"],
            check=True, env=GIT_ENV,
        )  # fmt: skip

    def restore() -> None:
        subprocess.run(["git", "clone", "-q", str(bundle), str(target)], check=True, env=GIT_ENV)
        subprocess.run(["tar", "xf", str(tarball), "-C", str(target / ".git")], check=True)

    return timed(export), timed(restore)


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-export-") as tmp:
        root, work = Path(tmp) / "mem", Path(tmp) / "work"
        work.mkdir()
        repo = build(root, args.files, args.entries, args.items, args.commits)
        entries = len(repo.entries())
        kdf_seconds = statistics.median(
            timed(lambda: KdfParams.fresh(n=args.kdf_n).derive(PASSPHRASE)) for _ in range(3)
        )
        rounds: list[dict[str, float]] = []
        for n in range(args.rounds):
            ours_export, ours_restore = ours(repo, work, n, args.kdf_n)
            base_export, base_restore = baseline(root, work, n)
            rounds.append(
                {"ours_export": ours_export, "ours_restore": ours_restore,
                 "git_tar_export": base_export, "git_tar_restore": base_restore}
            )  # fmt: skip
            for leftover in work.iterdir():
                if leftover.is_dir():
                    shutil.rmtree(leftover)
        archive_bytes = (work / "ours-0.mrx").stat().st_size
        baseline_bytes = (work / "git-0.bundle").stat().st_size + (
            work / "git-0.tar"
        ).stat().st_size
        repo.close()
    median = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    ours_total = statistics.median(r["ours_export"] + r["ours_restore"] for r in rounds)
    base_total = statistics.median(r["git_tar_export"] + r["git_tar_restore"] for r in rounds)
    return {
        "corpus": {"entries": entries, "items": args.items, "commits": args.commits + 2},
        "kdf": {"n": args.kdf_n, "r": 8, "p": 1, "seconds_per_derivation": round(kdf_seconds, 3)},
        "median_seconds": {k: round(v, 3) for k, v in median.items()},
        "ours_total_seconds": round(ours_total, 3),
        "baseline_total_seconds": round(base_total, 3),
        "ratio": round(ours_total / base_total, 2),
        # The two scrypt derivations are a fixed cost, whatever the size of the memory.
        "ratio_without_kdf": round((ours_total - 2 * kdf_seconds) / base_total, 2),
        "budget": 2.0,
        "bytes": {"ours": archive_bytes, "git_bundle_plus_tar": baseline_bytes},
        "rounds": args.rounds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kdf-n", type=int, default=KdfParams.fresh().n)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    corpus, med = result["corpus"], result["median_seconds"]
    print(f"corpus: {corpus['entries']} entries, {corpus['items']} items, "
          f"{corpus['commits']} commits; scrypt N={result['kdf']['n']} "
          f"{result['kdf']['seconds_per_derivation']} s per derivation")  # fmt: skip
    print(f"ours:    export {med['ours_export']} s + restore {med['ours_restore']} s")
    print(f"git+tar: export {med['git_tar_export']} s + restore {med['git_tar_restore']} s")
    print(f"ratio {result['ratio']} (budget <= {result['budget']}), medians of {args.rounds}; "
          f"without the two key derivations {result['ratio_without_kdf']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
