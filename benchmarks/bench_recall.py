"""Recall, rebuild and one-shot CLI speed against bare baselines, measured in the same run.

Budgets (issues #4 and #16, "Speed"), at every corpus size asked for:
- recall p50 and p95 <= 1.3 x a raw Whoosh query (`RawWhoosh`: the same query object over
  memrepo's own index directory, the same schema and documents, top 10, no filters);
- recall p50 <= 4 x the p50 and recall p95 <= 4 x the p95 of a raw SQLite FTS5 table
  (tokenize='porter unicode61') over the same texts, queried with an OR of the query's
  words, ORDER BY bm25, LIMIT 10 (recall: default visibility plus a workspace, every lane,
  fusion included);
- full rebuild (`MemoryRepo.reindex()`) at the largest size <= 1.5 x bulk-adding the same
  documents to a bare Whoosh index of the same schema (one writer, one commit);
- incremental: after one edit committed with plain git to one file of the smallest repo,
  the next sync <= 0.02 x that repo's full rebuild;
- catch-up: after one line is appended to every file of the smallest repo (one commit),
  the next sync <= 0.25 x a full rebuild (only the new entries and the neighbours whose
  context they change are rewritten, issue #16);
- peak RSS of a process that rebuilds and recalls at the largest size < 400 MB;
- a one-shot `memrepo --repo R recall "..."` in a fresh process at every size, index
  built, interpreter start included: median of 5 < 0.5 s (`cli_seconds_<size>`). Beside
  it, the same one-shot recall split by a fresh interpreter that times its own phases
  (median of 5): importing the CLI, opening the index, the first and a second search.

"Raw Whoosh" is stock Whoosh: its own BM25F with memrepo's parameters
(`memrepo.index.store.WEIGHTING`), over memrepo's index directory, memory-mapped. memrepo
searches with `FastBM25F` (the same scores, bit for bit, cheaper to compute) and reads the
index by piece (`memrepo.index._storage`), so part of what it saves is the engine's own
time; the per-call cost beside the search (freshness check, lanes, fusion, hits) is what
`bench_quality.py` reports on the REALTALK repos.

The corpus is deterministic from --seed: one-line facts about people, services, tools,
infra, schedules and preferences over a vocabulary of a few thousand words drawn with
Zipf-like frequencies; ~80% are folder entries (topic and workspace files, written
directly and committed once with the git CLI) and ~20% memory items (bulk-inserted through
the item store, a mix of global, workspace, private and contact items). Queries are made
from the corpus: 2-6 words, some with function words, some with a half-typed last word.

Usage: python benchmarks/bench_recall.py [--sizes 10000,100000] [--queries 200]
       [--seed 11] [--rebuild-runs 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import GIT_ENV, RawWhoosh, Timing, git, peak_rss_mb, timed

from memrepo import MemoryRepo
from memrepo.items import ItemStore
from memrepo.items.writer import content_hash, derived_subject
from memrepo.models.items import MemoryItem, Scope, SourceRef

BUDGET = {
    "recall_p50_ratio": 4.0,
    "recall_p95_ratio": 4.0,
    "whoosh_p50_ratio": 1.3,
    "whoosh_p95_ratio": 1.3,
    "rebuild_ratio": 1.5,
    "incremental_ratio": 0.02,
    "catchup_ratio": 0.25,
    "peak_rss_mb": 400.0,
    "cli_seconds": 0.5,
}
ENTRIES_PER_FILE = 80
WORKSPACES = 12
NOW = datetime(2026, 11, 30, tzinfo=UTC)

# --- the corpus ---------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return text.split()


_ONSETS = _words("b c d f g h j k l m n p r s t v w z br ch cl dr fl gr kr pl sh st tr")
_VOWELS = _words("a e i o u ai ea io ou")
_CODAS = ["", "", "n", "r", "s", "l", "x", "nd", "rk", "st", "m"]
_TOOLS = _words(
    "postgres redis nginx docker kubernetes terraform helm ansible grafana prometheus kafka "
    "rabbitmq elasticsearch pytest ruff mypy jenkins github gitlab vault consul envoy "
    "istio celery airflow spark flink clickhouse mongodb mysql sqlite memcached haproxy "
    "traefik sentry datadog pagerduty jira confluence slack zoom figma notion linear"
)
_WORDS = _words(
    "deploy release rollout migration backup restore cluster node replica shard index "
    "cache queue worker cron job pipeline build test lint review merge branch tag version "
    "config secret token certificate domain dns proxy gateway endpoint api schema table "
    "column query latency throughput error timeout retry alert dashboard metric log trace "
    "incident postmortem runbook oncall rotation standup retro planning demo sprint "
    "roadmap budget invoice contract customer vendor partner meeting lunch coffee tea "
    "flight hotel train office desk laptop monitor keyboard headphones chair garden "
    "birthday anniversary vacation holiday weekend morning evening night report summary "
    "draft document spreadsheet slide diagram ticket bug feature request priority owner "
    "team squad guild chapter manager lead engineer designer analyst intern contractor"
)
_DAYS = _words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
_MONTHS = _words("January February March April May June July August September October")
_REGIONS = _words("eu-west-1 us-east-1 ap-south-1 eu-central-1 us-west-2")
_LIKES = _words("prefers likes avoids dislikes recommends distrusts")
_FUNCTION = _words("the a of in on at for to is with when where what who do we our by")


class Vocabulary:
    """Generated names and words with Zipf-like frequencies (rank r weighs 1 / r^1.05)."""

    def __init__(self, rng: random.Random) -> None:
        self.people = self._make(rng, 400, 2, capital=True)
        self.services = self._make(rng, 600, 3, capital=False)
        self.places = self._make(rng, 300, 2, capital=True)
        self.words = _WORDS + self._make(rng, 2600, 2, capital=False)
        self.tools = list(_TOOLS)
        self._cum: dict[int, list[float]] = {}

    @staticmethod
    def _make(rng: random.Random, count: int, syllables: int, *, capital: bool) -> list[str]:
        made: dict[str, None] = {}
        while len(made) < count:
            word = "".join(
                rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                for _ in range(rng.randint(1, syllables))
            )
            if len(word) >= 3:
                made.setdefault(word.capitalize() if capital else word, None)
        return list(made)

    def pick(self, rng: random.Random, pool: list[str]) -> str:
        cum = self._cum.get(id(pool))
        if cum is None:
            total = 0.0
            cum = []
            for rank in range(1, len(pool) + 1):
                total += 1.0 / rank**1.05
                cum.append(total)
            self._cum[id(pool)] = cum
        return rng.choices(pool, cum_weights=cum)[0]


def fact(v: Vocabulary, rng: random.Random, n: int) -> str:
    """One realistic one-line fact (n breaks ties so texts rarely repeat)."""
    p, s, t, w = v.pick(rng, v.people), v.pick(rng, v.services), v.pick(rng, v.tools), v.words
    shape = n % 8
    if shape == 0:
        return f"{p} {rng.choice(_LIKES)} {t} over {v.pick(rng, v.tools)} for {v.pick(rng, w)} work"
    if shape == 1:
        return f"The {s} service runs on {t} in {rng.choice(_REGIONS)} behind {v.pick(rng, w)}"
    if shape == 2:
        hour = f"{rng.randint(7, 18)}:{rng.choice(['00', '15', '30', '45'])}"
        return f"{p} hosts the {v.pick(rng, w)} sync every {rng.choice(_DAYS)} at {hour}"
    if shape == 3:
        day = f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}"
        return f"Deploys of {s} are frozen on {rng.choice(_DAYS)}s until {day}"
    if shape == 4:
        return f"{p} lives in {v.pick(rng, v.places)} and works on the {s} {v.pick(rng, w)}"
    if shape == 5:
        version = f"{rng.randint(1, 17)}.{rng.randint(0, 12)}"
        return f"{s} uses {t} {version} with {v.pick(rng, w)} and {v.pick(rng, w)} enabled"
    if shape == 6:
        return f"{p} owns the {v.pick(rng, w)} {v.pick(rng, w)} runbook for {s}"
    return f"{p} asked for {v.pick(rng, w)} {v.pick(rng, w)} reports about {s} by {n % 31 + 1}"


def corpus(size: int, seed: int) -> list[str]:
    """`size` distinct facts, deterministic from `seed`."""
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    texts: dict[str, None] = {}
    n = 0
    while len(texts) < size:
        texts.setdefault(fact(vocab, rng, n), None)
        n += 1
    return list(texts)


def queries(texts: list[str], count: int, seed: int) -> list[str]:
    """Queries from the corpus: 2-6 words, some function words, some half-typed last words."""
    rng = random.Random(seed + 1)
    made: list[str] = []
    while len(made) < count:
        words = re.findall(r"[\w.:-]+", rng.choice(texts))
        take = min(len(words), rng.randint(2, 6))
        start = rng.randrange(len(words) - take + 1)
        chosen = words[start : start + take]
        if rng.random() < 0.3:
            chosen = [rng.choice(["when", "who", "what", "where"]), rng.choice(_FUNCTION), *chosen]
        last = chosen[-1]
        if rng.random() < 0.3 and len(last) >= 5:
            chosen[-1] = last[: rng.randint(3, len(last) - 1)]
        made.append(" ".join(chosen))
    return made


def item_row(text: str, n: int) -> MemoryItem:
    """Memory item n: global, workspace, private or contact (half of them hidden by default)."""
    digest = content_hash(text)
    kind = n % 4
    scope: Scope = ("global", "workspace", "global", "contact")[kind]
    workspace = f"ws{n % WORKSPACES:02d}" if kind == 1 else None
    created = NOW - timedelta(minutes=n + 1)
    return MemoryItem(
        id=f"bench{n:07d}", kind="fact", content=text, content_hash=digest,
        subject_key=derived_subject("fact", digest), source="inferred",
        source_ref=SourceRef(store="task", id=f"bench-{n}"), confidence=0.7, pinned=False,
        privacy="private" if kind == 2 else "normal", task_id=None, status="active",
        supersedes_id=None, reinforced_count=0, created_at=created, updated_at=created,
        workspace_id=workspace, scope=scope, scope_ref=f"contact:{n % 300}" if kind == 3 else None,
    )  # fmt: skip


def file_path(f: int) -> str:
    """File f: every fifth of the first files is a workspace file, the rest topic files."""
    if f % 5 == 4 and f // 5 < WORKSPACES:
        return f"workspaces/ws{f // 5:02d}.md"
    return f"topics/t{f % 25:02d}/file{f:04d}.md"


def build(root: Path, texts: list[str]) -> None:
    """Folder files (80%) committed once with the git CLI, items (20%) bulk-inserted."""
    MemoryRepo.init(root)
    folder_count = len(texts) * 4 // 5
    index_lines = []
    for f, start in enumerate(range(0, folder_count, ENTRIES_PER_FILE)):
        path = root / file_path(f)
        path.parent.mkdir(parents=True, exist_ok=True)
        chunk = texts[start : min(folder_count, start + ENTRIES_PER_FILE)]
        lines = [f"# Notes {f}", ""] + [
            f"- {text} [added: 2026-{e % 12 + 1:02d}-{e % 28 + 1:02d}; by: agent]"
            for e, text in enumerate(chunk)
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        if not file_path(f).startswith("workspaces/"):
            index_lines.append(f"- [[{file_path(f)[:-3]}]]")
    (root / "MEMORY.md").write_text(
        "# Memory\n\n- The user prefers short answers [by: user]\n\n## Index\n"
        + "\n".join(index_lines)
        + "\n",
        encoding="utf-8",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench corpus")
    repo = MemoryRepo.open(root)
    state_dir = repo.folder.state_dir
    repo.close()
    with ItemStore.open(state_dir) as store, store.transaction() as tx:
        tx.insert_many(item_row(text, n) for n, text in enumerate(texts[folder_count:]))


# --- baselines ------------------------------------------------------------------------------


def fts5(texts: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize='porter unicode61')")
    conn.executemany("INSERT INTO docs(text) VALUES (?)", ((t,) for t in texts))
    conn.commit()
    return conn


def fts5_search(conn: sqlite3.Connection, query: str) -> list[tuple[int, str]]:
    words = re.findall(r"\w+", query)
    match = " OR ".join(f'"{word}"' for word in words)
    sql = "SELECT rowid, text FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 10"
    return conn.execute(sql, (match,)).fetchall()


class Tantivy:
    """A reference line, not a budget: tantivy-py (a Rust engine) over the same texts,
    English stemming, an OR of the query's words, top 10 with their stored text. It shows
    what a faster engine behind the index protocol would give. Absent when tantivy is
    not installed (`pip install tantivy`; memrepo does not depend on it)."""

    def __init__(self, texts: list[str]) -> None:
        import tantivy

        builder = tantivy.SchemaBuilder()
        builder.add_text_field("text", stored=True, tokenizer_name="en_stem")
        self.index = tantivy.Index(builder.build())
        writer = self.index.writer()
        for text in texts:
            writer.add_document(tantivy.Document(text=text))
        writer.commit()
        self.index.reload()
        self.searcher = self.index.searcher()

    def search(self, query: str) -> list[str]:
        words = re.findall(r"\w+", query)
        if not words:
            return []
        parsed = self.index.parse_query(" OR ".join(f'"{w}"' for w in words), ["text"])
        hits = self.searcher.search(parsed, 10).hits
        return [self.searcher.doc(address)["text"][0] for _score, address in hits]


def tantivy_for(texts: list[str]) -> Tantivy | None:
    try:
        return Tantivy(texts)
    except ImportError:
        return None


def bare_whoosh(root: Path) -> float:
    """Seconds to add the repo's documents to a fresh Whoosh index of the same schema."""
    from whoosh import index as whoosh_index

    from memrepo.index.schema import build_schema
    from memrepo.index.store import BULK_LIMIT_MB
    from memrepo.models.items import ItemFilters
    from memrepo.recall.projection import entry_docs, item_doc

    repo = MemoryRepo.open(root)
    head = repo.folder.store.main_id()
    docs = [
        doc
        for path, data in repo.folder.store.iter_files()
        if path.endswith(".md")
        for doc in entry_docs(path, data, commit=head, uncommitted=False)
    ]
    docs += [item_doc(i) for i in repo._parts.items.store.list(ItemFilters(include_private=True))]
    fields = [doc.to_fields() for doc in docs]
    repo.close()
    target = Path(tempfile.mkdtemp(prefix="memrepo-bench-whoosh-"))
    started = time.perf_counter()
    ix = whoosh_index.create_in(str(target), build_schema())
    writer = ix.writer(limitmb=BULK_LIMIT_MB)  # the buffer IndexStore.bulk_load uses
    for values in fields:
        writer.add_document(**values)
    writer.commit()
    return time.perf_counter() - started


# --- measurements ---------------------------------------------------------------------------


def bench_queries(
    repo: MemoryRepo, conn: sqlite3.Connection, qs: list[str], rust: Tantivy | None = None
) -> dict[str, Any]:
    repo.recall("warm up the index", workspace="ws01")
    fts5_search(conn, "warm up")
    raw = RawWhoosh(repo)
    raw.search("warm up")
    ours: list[float] = []
    theirs: list[float] = []
    engine: list[float] = []
    reference: list[float] = []
    hits = 0
    for q in qs:
        # Interleaved so machine noise hits all sides alike.
        found: list[int] = []
        ours.append(timed(lambda: found.append(len(repo.recall(q, workspace="ws01").hits))))  # noqa: B023
        theirs.append(timed(lambda: fts5_search(conn, q)))  # noqa: B023
        engine.append(timed(lambda: raw.search(q)))  # noqa: B023
        if rust is not None:
            reference.append(timed(lambda: rust.search(q)))  # noqa: B023
        hits += bool(found[0])
    raw.close()
    mine, base, bare = Timing.of(ours), Timing.of(theirs), Timing.of(engine)
    return {
        "memrepo": asdict(mine),
        "fts5": asdict(base),
        "raw_whoosh": asdict(bare),
        "p50_ratio": mine.p50_ms / base.p50_ms,
        "p95_ratio": mine.p95_ms / base.p95_ms,
        "whoosh_p50_ratio": mine.p50_ms / bare.p50_ms,
        "whoosh_p95_ratio": mine.p95_ms / bare.p95_ms,
        "tantivy": asdict(Timing.of(reference)) if reference else None,
        "queries_with_hits": hits,
    }


def child(mode: str, root: Path, qs: list[str]) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter (own peak RSS, no shared caches)."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--child-repo", str(root)],
        input=json.dumps(qs), check=True, capture_output=True, text=True, env=GIT_ENV,
    ).stdout  # fmt: skip
    result: dict[str, Any] = json.loads(out)
    return result


COLD_PHASES = """
import json, sys, time
started = time.perf_counter()
import memrepo.cli  # what `memrepo recall` imports before it runs
from memrepo import MemoryRepo
imported = time.perf_counter()
import memrepo.recall.searcher  # the search stack (Whoosh), imported on first use
stack = time.perf_counter()
repo = MemoryRepo.open(sys.argv[1])
repo._parts.searcher.store()
opened = time.perf_counter()
repo.recall(sys.argv[2])
first = time.perf_counter()
repo.recall(sys.argv[2] + " again")
second = time.perf_counter()
repo.close()
print(json.dumps({"import_s": imported - started, "search_import_s": stack - imported,
                  "open_s": opened - stack,
                  "first_search_s": first - opened, "second_search_s": second - first}))
"""
"""A one-shot recall timed from inside a fresh interpreter that imports nothing else first:
the CLI's import, the search stack's (Whoosh, imported on first use), opening the repo and
its index (with the probe), the first and a second search."""


def cold_phases(root: Path, query: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", COLD_PHASES, str(root), query], check=True,
                         capture_output=True, text=True, env=GIT_ENV).stdout  # fmt: skip
    phases: dict[str, float] = json.loads(out)
    return phases


def run_child(mode: str, root: Path) -> dict[str, Any]:
    if mode == "bare":
        return {"seconds": bare_whoosh(root)}
    qs: list[str] = json.loads(sys.stdin.read())
    repo = MemoryRepo.open(root)
    report = repo.reindex()
    for q in qs:
        repo.recall(q, workspace="ws01")
    return {"seconds": report.seconds, "documents": report.documents, "rss_mb": peak_rss_mb()}


def bench_incremental(repo: MemoryRepo, root: Path, rebuild_seconds: float) -> dict[str, Any]:
    store = repo._parts.searcher.store()
    repo._parts.searcher.projection.sync(store)
    syncs: list[float] = []
    files = sorted((root / "topics").rglob("*.md"))
    for n in range(5):
        with open(files[n * 7 % len(files)], "a", encoding="utf-8") as handle:
            handle.write(f"- Incremental bench fact {n} about the standup [by: user]\n")
        git(root, "commit", "-q", "-am", f"edit {n}")
        syncs.append(timed(lambda: repo._parts.searcher.projection.sync(store)))
    assert repo.recall("Incremental bench fact 4").hits, "the edit must be searchable"
    sync = statistics.median(syncs)
    # Catch-up: one line appended to every file, committed, then one sync (the first
    # recall after a burst of writes spread over the whole repo).
    for n, path in enumerate(files):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"- Catch-up fact {n} about the rollout [by: user]\n")
    git(root, "commit", "-q", "-am", "one line in every file")
    catchup = timed(lambda: repo._parts.searcher.projection.sync(store))
    assert repo.recall(f"Catch-up fact {len(files) - 1}").hits, "the burst must be searchable"
    return {
        "sync_ms": sync * 1000,
        "rebuild_ms": rebuild_seconds * 1000,
        "ratio": sync / rebuild_seconds,
        "catchup_files": len(files),
        "catchup_ms": catchup * 1000,
        "catchup_ratio": catchup / rebuild_seconds,
    }


def bench_cli(root: Path, qs: list[str], runs: int = 5) -> dict[str, Any]:
    exe = Path(sys.executable).with_name("memrepo")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "memrepo.cli"]
    walls = []
    phases: list[dict[str, float]] = []
    for q in qs[:runs]:
        started = time.perf_counter()
        subprocess.run([*command, "--repo", str(root), "recall", q], check=True,
                       capture_output=True, env=GIT_ENV)  # fmt: skip
        walls.append(time.perf_counter() - started)
        phases.append(cold_phases(root, q))
    split = {key: statistics.median(p[key] for p in phases) for key in phases[0]}
    return {"median_seconds": statistics.median(walls), "runs": walls, "split": split}


def bench_size(size: int, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    texts = corpus(size, args.seed)
    root = work / f"repo{size}"
    started = time.perf_counter()
    build(root, texts)
    build_seconds = time.perf_counter() - started
    qs = queries(texts, args.queries, args.seed)
    repo = MemoryRepo.open(root)
    rebuilds = [repo.reindex().seconds for _ in range(args.rebuild_runs)]
    conn = fts5(texts)
    rust = tantivy_for(texts)
    result: dict[str, Any] = {
        "entries": size,
        "corpus_build_seconds": build_seconds,
        "reindex_seconds": statistics.median(rebuilds),
        "recall": bench_queries(repo, conn, qs, rust),
    }
    conn.close()
    return result | {"repo": repo, "root": root, "queries": qs}


def run(args: argparse.Namespace) -> dict[str, Any]:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-recall-"))
    per_size = {size: bench_size(size, args, work) for size in sizes}
    small, large = per_size[sizes[0]], per_size[sizes[-1]]
    for size in sizes:
        per_size[size]["repo"].close()
    big = child("reindex", large["root"], large["queries"][:50])
    bare = statistics.median(
        child("bare", large["root"], [])["seconds"] for _ in range(args.rebuild_runs)
    )
    # Before the incremental bench edits the smallest repo: each CLI run sees the index
    # the size's bench built, already synced.
    clis = {size: bench_cli(per_size[size]["root"], per_size[size]["queries"]) for size in sizes}
    repo = MemoryRepo.open(small["root"])
    incremental = bench_incremental(repo, small["root"], small["reindex_seconds"])
    repo.close()
    sizes_out = {
        str(size): {k: v for k, v in x.items() if k not in ("repo", "root", "queries")}
        for size, x in per_size.items()
    }
    figures = {
        **{f"recall_p50_ratio_{s}": x["recall"]["p50_ratio"] for s, x in sizes_out.items()},
        **{f"recall_p95_ratio_{s}": x["recall"]["p95_ratio"] for s, x in sizes_out.items()},
        **{f"whoosh_p50_ratio_{s}": x["recall"]["whoosh_p50_ratio"] for s, x in sizes_out.items()},
        **{f"whoosh_p95_ratio_{s}": x["recall"]["whoosh_p95_ratio"] for s, x in sizes_out.items()},
        "rebuild_ratio": big["seconds"] / bare,
        "incremental_ratio": incremental["ratio"],
        "catchup_ratio": incremental["catchup_ratio"],
        "peak_rss_mb": big["rss_mb"],
        **{f"cli_seconds_{size}": x["median_seconds"] for size, x in clis.items()},
    }
    return {
        "seed": args.seed,
        "queries": args.queries,
        "sizes": sizes_out,
        "rebuild": {
            "entries": sizes[-1],
            "reindex_seconds": big["seconds"],
            "bare_whoosh_seconds": bare,
            "documents": big["documents"],
        },
        "incremental": incremental,
        "cli": {str(size): x for size, x in clis.items()},
        "figures": figures,
        "budget": BUDGET,
        "within_budget": {key: value <= BUDGET[_budget_key(key)] for key, value in figures.items()},
    }


def _budget_key(figure: str) -> str:
    return re.sub(r"_\d+$", "", figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rebuild-runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=["reindex", "bare"], help=argparse.SUPPRESS)
    parser.add_argument("--child-repo", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run_child(args.child, args.child_repo)))
        return 0
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for size, x in result["sizes"].items():
        r = x["recall"]
        print(
            f"{size} entries: recall p50 {r['memrepo']['p50_ms']:.2f} p95 "
            f"{r['memrepo']['p95_ms']:.2f} ms | FTS5 p50 {r['fts5']['p50_ms']:.2f} p95 "
            f"{r['fts5']['p95_ms']:.2f} ms | raw Whoosh p50 {r['raw_whoosh']['p50_ms']:.2f} "
            f"p95 {r['raw_whoosh']['p95_ms']:.2f} ms | "
            + (
                f"tantivy p50 {r['tantivy']['p50_ms']:.2f} p95 {r['tantivy']['p95_ms']:.2f} ms | "
                if r["tantivy"]
                else ""
            )
            + f"reindex {x['reindex_seconds']:.1f} s | "
            f"{r['queries_with_hits']}/{r['memrepo']['n']} queries with hits"
        )
    rb, inc = result["rebuild"], result["incremental"]
    print(
        f"rebuild {rb['entries']}: reindex {rb['reindex_seconds']:.1f} s vs bare Whoosh "
        f"{rb['bare_whoosh_seconds']:.1f} s | incremental sync {inc['sync_ms']:.1f} ms vs "
        f"rebuild {inc['rebuild_ms']:.0f} ms"
    )
    for size, cli in result["cli"].items():
        split = " | ".join(f"{key[:-2]} {value:.3f} s" for key, value in cli["split"].items())
        runs = ", ".join(f"{wall:.2f}" for wall in cli["runs"])
        print(f"one-shot CLI recall at {size}: runs {runs} s | inside: {split}")
    for key, value in result["figures"].items():
        budget = BUDGET[_budget_key(key)]
        verdict = "ok" if result["within_budget"][key] else "OVER"
        print(f"{key}: {value:.3f} (budget {budget}) {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
