"""A huge MEMORY.md: the first recall's time and peak memory, past and under the limit.

A tester committed a MEMORY.md of one million one-line entries (36 MB) with plain git;
the first `recall` did not finish in 600 s and took 1.57 GB. memrepo now leaves a file
over `MAX_FILE_BYTES` (5 MiB) out of the index and says so. This measures, each in a
fresh interpreter (its own VmHWM, `_common.peak_rss_mb`):

- the first recall of a repo whose MEMORY.md has `--lines` entries (past the limit: it
  is skipped; a topic file beside it is found), against the same repo without it;
- the first recall of a repo whose MEMORY.md is just under the limit (`--under-bytes`),
  which is parsed and indexed in full;
- parsing alone (`formats.parse` and every entry) of both files, per line, so a
  superlinear parser shows as a per-line cost that grows with the file.

Budgets: peak RSS of each first recall < 500 MB; the skipped file's first recall at most
`skip_ratio` x the same repo's without it; parsing the big file costs at most
`parse_linearity` x per line what the file under the limit costs.

    python benchmarks/bench_big_file.py [--lines 1000000] [--under-bytes 5241856] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from _common import GIT_ENV, git, peak_rss_mb

from memrepo import MemoryRepo
from memrepo.folder.limits import MAX_FILE_BYTES

BUDGET = {"peak_rss_mb": 500.0, "skip_ratio": 3.0, "parse_linearity": 2.0}
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
]
OTHER = "topics/other.md"
OTHER_TEXT = "- the zebra rota changes on fridays\n"


def entry_line(n: int) -> str:
    """One bullet as a script writes them (about 36 bytes at a million lines)."""
    return f"- fact {n} about {WORDS[n % 12]} and {WORDS[n * 7 % 12]} x{n % 997}\n"


def memory_md(*, lines: int | None = None, max_bytes: int | None = None) -> str:
    """`memrepo init`'s MEMORY.md with its Index, then `lines` entries (or as many as fit in
    `max_bytes`) appended as a script does (`>> MEMORY.md`): below the Index, where they
    are still entries (`Document.index_entries`, which was quadratic in them)."""
    head = f"# Memory\n\n## Index\n\n- [[{OTHER.removesuffix('.md')}]]\n"
    parts, size, n = [head], len(head), 0
    while (lines is None or n < lines) and (max_bytes is None or size < max_bytes):
        line = entry_line(n)
        if max_bytes is not None and size + len(line) > max_bytes:
            break
        parts.append(line)
        size += len(line)
        n += 1
    return "".join(parts)


def build(root: Path, text: str | None) -> Path:
    """A repo with the topic file and, unless None, `text` as MEMORY.md: committed by git."""
    MemoryRepo.init(root).close()
    (root / "topics").mkdir()
    (root / OTHER).write_text(OTHER_TEXT)
    if text is not None:
        (root / "MEMORY.md").write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a memory made by hand")
    return root


def first_recall(root: Path) -> dict[str, Any]:
    """Open, first recall (builds the index), in this process: the child's job."""
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        repo = MemoryRepo.open(root)
        hits = repo.recall("zebra rota").hits
        repo.close()
    return {
        "seconds": time.perf_counter() - started,
        "rss_mb": peak_rss_mb(),
        "found_other": any(hit.provenance.path == OTHER for hit in hits),
        "notices": [str(w.message) for w in told if "split it" in str(w.message)],
    }


def parse_cost(path: Path) -> dict[str, Any]:
    """Parse a file and decode every entry, in this process: the child's job."""
    from memrepo.formats import parse

    data = path.read_bytes()
    started = time.perf_counter()
    doc = parse(data, "MEMORY.md")
    entries = len(doc.entries)
    moved = len(doc.index_entries)  # what `lint --fix` moves above the Index
    found = sum(doc.entry_at(n) is not None for n in doc.entry_line_numbers)
    assert moved == found == entries
    seconds = time.perf_counter() - started
    lines = data.count(b"\n")
    return {
        "seconds": seconds,
        "lines": lines,
        "entries": entries,
        "us_per_line": seconds / lines * 1e6,
        "rss_mb": peak_rss_mb(),
    }


def child(mode: str, path: Path) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter (its own peak RSS, no shared caches)."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--child-path", str(path)],
        check=True, capture_output=True, text=True, env=GIT_ENV,
    ).stdout  # fmt: skip
    result: dict[str, Any] = json.loads(out)
    return result


def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-big-"))
    huge = memory_md(lines=args.lines)
    under = memory_md(max_bytes=args.under_bytes)
    repos = {
        "huge": build(work / "huge", huge),
        "under": build(work / "under", under),
        "baseline": build(work / "baseline", None),
    }
    recalls = {name: child("recall", root) for name, root in repos.items()}
    parses = {name: child("parse", repos[name] / "MEMORY.md") for name in ("huge", "under")}
    figures = {
        "huge_first_recall_s": recalls["huge"]["seconds"],
        "huge_peak_rss_mb": recalls["huge"]["rss_mb"],
        "under_first_recall_s": recalls["under"]["seconds"],
        "under_peak_rss_mb": recalls["under"]["rss_mb"],
        "skip_ratio": recalls["huge"]["seconds"] / recalls["baseline"]["seconds"],
        "parse_linearity": parses["huge"]["us_per_line"] / parses["under"]["us_per_line"],
    }
    within = {
        key: value < BUDGET["peak_rss_mb"] if key.endswith("rss_mb") else value <= BUDGET[key]
        for key, value in figures.items()
        if key.endswith("rss_mb") or key in BUDGET
    }
    return {
        "limit_bytes": MAX_FILE_BYTES,
        "files": {
            "huge": {"bytes": len(huge.encode()), "lines": args.lines},
            "under": {"bytes": len(under.encode()), "lines": under.count("\n")},
        },
        "recall": recalls,
        "parse": parses,
        "figures": figures,
        "budget": BUDGET,
        "within_budget": within,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--under-bytes", type=int, default=MAX_FILE_BYTES - 1024)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=["recall", "parse"], help=argparse.SUPPRESS)
    parser.add_argument("--child-path", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        work = first_recall if args.child == "recall" else parse_cost
        print(json.dumps(work(args.child_path)))
        return 0
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for name, file in result["files"].items():
        recall, parse = result["recall"][name], result["parse"][name]
        print(
            f"{name}: {file['bytes'] / 1024 / 1024:.1f} MiB, {file['lines']} lines | first "
            f"recall {recall['seconds']:.1f} s, peak {recall['rss_mb']:.0f} MB, topic file "
            f"found: {recall['found_other']}, notices {len(recall['notices'])} | parse "
            f"{parse['seconds']:.2f} s ({parse['us_per_line']:.2f} us/line)"
        )
    baseline = result["recall"]["baseline"]
    print(f"baseline (no big file): first recall {baseline['seconds']:.1f} s")
    for key, value in result["figures"].items():
        verdict = "ok" if result["within_budget"].get(key, True) else "OVER"
        print(f"{key}: {value:.3f} {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
