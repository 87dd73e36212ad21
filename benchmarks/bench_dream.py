"""Dreaming on a seeded fixture repo: what the passes find, and how long a dream takes.

The repo comes from fixtures/dream/generate.py (>= 2,000 entries by default) with exact
duplicates, expired entries, contradictions, traps (the same or similar text under
different subjects), renamed link targets and unlisted files planted. Budgets (issue #8):
- 100% of the planted exact duplicates and expired entries are found;
- zero false merges (a merge whose lines carry different subjects, or a trap pair);
- dream time <= 3 x a full parse of the repo (read every file from git, parse, decode
  every entry), medians of --rounds runs, both measured in this run. Each timed dream is
  a real one (commit and review branch) on a fresh clone of the fixture.

`--corpus templated` dreams over facts filled into one template instead ("Ana reviews
the billing service in staging on Mondays": five slots, no numbers, no rare word), the
corpus on which comparing every pair of near-duplicate candidates once took 19 x a
parse at 10,000 entries; every 50th fact is planted again reworded ("On Mondays Ana
reviews the billing services in staging"), and all of those must merge, with nothing
else (budgets: near_recall 1.0, false_merges 0, the same ratio).

Also reported (information): a dry-run dream on another fresh clone, which reads, parses
and runs every pass, screen and classification but writes nothing, so the share of the
two writes (the safe commit and the review branch) can be told from the analysis.

`--settled` flushes each clone to disk (`sync`) before timing, as a folder in use is:
replacing a file whose blocks are allocated costs the filesystem more than replacing
one just written, so this shows the writes at their slower, everyday cost.

Usage: python benchmarks/bench_dream.py [--entries 2000] [--corpus seeded|templated]
       [--seed 7] [--rounds 5] [--settled] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import copy_repo, git, timed

from memrepo import MemoryRepo
from memrepo.formats import parse, split_metadata
from memrepo.models.dream import DreamReport, Op

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "dream" / "generate.py"


def load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("dream_fixture", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dream_fixture"] = module
    spec.loader.exec_module(module)
    return module


def full_parse(repo: MemoryRepo) -> int:
    return sum(
        len(parse(data, path).entries)
        for path, data in repo.folder.store.iter_files()
        if path.endswith(".md")
    )


def _subject(raw: str) -> str:
    return split_metadata(raw.lstrip()[1:])[1].get("subject", "")


def score(report: DreamReport, planted: dict[str, Any]) -> dict[str, Any]:
    ops: list[Op] = [*report.safe, *report.pending_review]
    merges = [op for op in ops if op.kind == "merge"]
    merged_sets = [{t.raw for t in op.targets} for op in merges]
    expired = {t.raw for op in ops if op.found_by == "expiry" for t in op.targets}
    groups = planted["exact_groups"]
    found_groups = sum(1 for g in groups if any(set(g) <= s for s in merged_sets))
    traps = [set(pair) for pair in planted["traps"]]
    false_merges = sum(
        1
        for s in merged_sets
        if len({_subject(raw) for raw in s} - {""}) > 1 or any(t <= s for t in traps)
    )
    fixed = {op.text for op in ops if op.found_by == "links"}
    return {
        "exact_groups_planted": len(groups),
        "exact_groups_found": found_groups,
        "exact_recall": found_groups / len(groups),
        "expired_planted": len(planted["expired"]),
        "expired_found": sum(1 for raw in planted["expired"] if raw in expired),
        "expired_recall": sum(1 for raw in planted["expired"] if raw in expired)
        / len(planted["expired"]),
        "false_merges": false_merges,
        "contradictions_found": sum(1 for op in ops if op.found_by == "subjects"),
        "contradictions_planted": len(planted["contradictions"]),
        "links_fixed": len(fixed),
        "links_reported": len(report.broken_links),
        "unlisted_linked": sum(1 for op in ops if op.found_by == "unlisted"),
    }


#: The template's slots: 24 x 8 x 24 x 6 x 5 = 138,240 distinct facts.
PEOPLE = ["Ana", "Bob", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai",
          "Lin", "Mo", "Ned", "Ola", "Pia", "Raj", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia",
          "Yan"]  # fmt: skip
VERBS = ["owns", "reviews", "maintains", "deploys", "monitors", "tests", "documents", "designs"]
SERVICES = ["billing", "search", "auth", "payments", "gateway", "frontend", "backend",
            "reports", "queue", "cache", "mailer", "scheduler", "indexer", "uploader",
            "notifier", "ledger", "catalog", "checkout", "profile", "inventory", "pricing",
            "shipping", "tax", "support"]  # fmt: skip
PLACES = ["staging", "production", "the sandbox", "the lab", "the edge cluster", "the main region"]
DAYS = ["Mondays", "Tuesdays", "Thursdays", "Fridays", "weekends"]
REWORDED_EVERY = 50


def build_templated(root: Path, entries: int, seed: int) -> dict[str, Any]:
    """A memory repo of `entries` distinct template facts (plus the rewordings planted),
    25 to a topic file, all linked from MEMORY.md; committed with the git CLI."""
    rng = random.Random(seed)
    slots = list(itertools.product(PEOPLE, VERBS, SERVICES, PLACES, DAYS))
    lines: list[str] = []
    reworded: list[list[str]] = []
    for n, (who, verb, service, where, day) in enumerate(rng.sample(slots, entries)):
        meta = f"[source: memrepo://tasks/{n}; added: 2025-{n % 12 + 1:02d}-01; by: agent]"
        line = f"- {who} {verb} the {service} service in {where} on {day} {meta}"
        lines.append(line)
        if n % REWORDED_EVERY == 0:
            again = f"- On {day} {who} {verb} the {service} services in {where} [by: agent]"
            lines.append(again)
            reworded.append([line, again])
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    index = []
    for f in range(0, len(lines), 25):
        path = f"topics/t{f // 25:05d}.md"
        (root / "topics").mkdir(exist_ok=True)
        (root / path).write_text(f"# {path}\n\n" + "\n".join(lines[f : f + 25]) + "\n")
        index.append(f"- [[{path[:-3]}]]")
    memory = "# Memory\n\n- The user prefers short answers\n\n## Index\n" + "\n".join(index)
    (root / "MEMORY.md").write_text(memory + "\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "templated facts")
    return {"entries": len(lines) + 1, "reworded": reworded}


def score_templated(report: DreamReport, planted: dict[str, Any]) -> dict[str, Any]:
    """Every planted rewording merged with its fact, and no merge of two different facts
    (two lines are one fact when they hold the same slot values)."""
    merged = [[t.raw for t in op.targets] for op in report.pending_review if op.kind == "merge"]
    sets = [set(raws) for raws in merged]
    found = sum(1 for pair in planted["reworded"] if any(set(pair) <= s for s in sets))
    slot_sets = [{_slots(raw) for raw in raws} for raws in merged]
    return {
        "reworded_planted": len(planted["reworded"]),
        "reworded_found": found,
        "near_recall": found / len(planted["reworded"]),
        "false_merges": sum(1 for slots in slot_sets if len(slots) > 1),
    }


def _slots(raw: str) -> frozenset[str]:
    """The slot values a template line holds (the words its template does not)."""
    fixed = {"-", "on", "the", "service", "services", "in"}
    text = raw.split(" [")[0].casefold().replace("services", "service")
    return frozenset(w for w in text.split() if w not in fixed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--corpus", choices=("seeded", "templated"), default="seeded")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--settled", action="store_true", help="sync each clone first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-dream-"))
    if args.corpus == "templated":
        planted = build_templated(work / "fixture", args.entries, args.seed)
    else:
        planted = load_generator().build(work / "fixture", args.entries, args.seed)
    parse_times: list[float] = []
    dream_times: list[float] = []
    dry_times: list[float] = []
    report: DreamReport | None = None
    for _ in range(args.rounds):
        clone = copy_repo(work / "fixture")
        if args.settled:
            os.sync()
        with MemoryRepo.open(clone) as repo:
            parse_times.append(timed(lambda: full_parse(repo)))
            start_report: list[DreamReport] = []
            dream_times.append(timed(lambda: start_report.append(repo.dream())))  # noqa: B023
            report = start_report[0]
        with MemoryRepo.open(copy_repo(work / "fixture")) as repo:
            full_parse(repo)  # the same warm-up the timed dream had
            dry_times.append(timed(lambda: repo.dream(dry_run=True)))
    assert report is not None
    templated = args.corpus == "templated"
    quality = score_templated(report, planted) if templated else score(report, planted)
    budget: dict[str, float] = (
        {"near_recall": 1.0, "false_merges": 0, "ratio": 3.0}
        if templated
        else {"exact_recall": 1.0, "expired_recall": 1.0, "false_merges": 0, "ratio": 3.0}
    )
    parse_ms = statistics.median(parse_times) * 1000
    dream_ms = statistics.median(dream_times) * 1000
    dry_ms = statistics.median(dry_times) * 1000
    result: dict[str, Any] = {
        "corpus": {
            "kind": args.corpus,
            "entries": planted["entries"],
            "seed": args.seed,
            "rounds": args.rounds,
        },
        "settled": args.settled,
        "quality": quality,
        "timing": {
            "full_parse_ms": parse_ms,
            "dream_ms": dream_ms,
            "ratio": dream_ms / parse_ms,
            "dry_run_ms": dry_ms,
            "dry_run_ratio": dry_ms / parse_ms,
        },
        "budget": budget,
        "safe_ops": len(report.safe),
        "review_ops": len(report.pending_review),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    settled = ", settled clones" if args.settled else ""
    print(
        f"corpus: {args.corpus}, {planted['entries']} entries, seed {args.seed}, "
        f"{args.rounds} rounds{settled}"
    )
    for key, value in quality.items():
        print(f"  {key}: {value}")
    print(
        f"dream median {dream_ms:.1f} ms vs full parse {parse_ms:.1f} ms: ratio "
        f"{dream_ms / parse_ms:.2f} (budget 3.0); without its writes (dry run) "
        f"{dry_ms:.1f} ms: {dry_ms / parse_ms:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
