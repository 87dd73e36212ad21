"""memory_items ingest speed against a bare sqlite3 INSERT + commit, measured in the same run.

Budgets (issue #3): ingest p50 <= 5 x the bare insert p50, into a store of 100,000 items;
peak RSS of the whole benchmark < 300 MB.

The store is bulk-loaded (one transaction, the store's own low-level insert) with
deterministic one-line facts across scopes and workspaces; the baseline file gets the same
schema and the same rows, so both sides write into B-trees of the same size. Then each
ingest (screen, policy, edit/dedupe/supersede lookups, insert, hot-version bump, commit)
is timed next to one bare `INSERT` + `commit` of an equivalent row, interleaved so
machine noise hits both alike. Ingests mix new facts, restatements and subject updates.

Usage: python benchmarks/bench_items.py [--items 100000] [--ingests 10000] [--seed 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import Timing, peak_rss_mb, timed

from memrepo.clock import FixedClock
from memrepo.items import ItemStore, ItemWriter
from memrepo.items._rows import INSERT, to_params
from memrepo.items.writer import content_hash, derived_subject
from memrepo.models.items import ItemCandidate, ItemWriteResult, MemoryItem, Scope, SourceRef

NOW = datetime(2026, 11, 30, tzinfo=UTC)
_PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun"]
_TOOLS = ["pytest", "ruff", "docker", "postgres", "redis", "nginx", "terraform", "helm"]
_VERBS = ["prefers", "uses", "avoids", "maintains", "reviews", "deploys", "documents"]
_PLACES = ["Berlin", "Lagos", "Osaka", "Lima", "Oslo", "Pune", "Quito", "Tunis"]


def fact(rng: random.Random, n: int) -> str:
    """A realistic one-line fact; `n` makes it unique."""
    shape = n % 4
    person, tool = rng.choice(_PEOPLE), rng.choice(_TOOLS)
    if shape == 0:
        return f"{person} {rng.choice(_VERBS)} {tool} for service {n} in the staging cluster"
    if shape == 1:
        return f"The {tool} config for project {n} lives in infra/{tool}/{n}.yaml"
    if shape == 2:
        return f"{person} of squad {n} works from {rng.choice(_PLACES)}, standup at {n % 12 + 7}:30"
    return f"Release {n // 100}.{n % 100} needs {tool} pinned before the Friday deploy"


def placement(n: int) -> dict[str, Any]:
    """Scope fields spread over global, 20 workspaces, 500 contacts and 2,000 tasks."""
    scope: Scope = ("global", "workspace", "contact", "task")[n % 4]
    workspace = f"ws{n % 20}" if scope != "global" else None
    ref = {"contact": f"contact:{n % 500}", "task": f"task-{n % 2000}"}.get(scope)
    return {"scope": scope, "workspace_id": workspace, "scope_ref": ref}


def seed_item(n: int) -> MemoryItem:
    """Seeded item n, built from its own Random so a restatement can rebuild its text."""
    text = fact(random.Random(n), n)
    digest = content_hash(text)
    where = placement(n)
    created = NOW - timedelta(minutes=n + 1)
    return MemoryItem(
        id=f"seed{n:07d}", kind="fact", content=text, content_hash=digest,
        subject_key=f"subject-{n}" if n % 10 == 0 else derived_subject("fact", digest),
        source="inferred", source_ref=SourceRef(store="task", id=f"seed-{n}"),
        confidence=0.7, pinned=False, privacy="normal",
        task_id=where["scope_ref"] if where["scope"] == "task" else None,
        status="active", supersedes_id=None, reinforced_count=0,
        created_at=created, updated_at=created, **where,
    )  # fmt: skip


def bulk_load(state_dir: Path, count: int) -> None:
    """The store's own bulk insert, one transaction, 10,000 rows per executemany."""
    with ItemStore.open(state_dir) as store, store.transaction() as tx:
        for start in range(0, count, 10_000):
            tx.insert_many(seed_item(n) for n in range(start, min(count, start + 10_000)))


def ingest_candidate(rng: random.Random, n: int, seeded: int) -> ItemCandidate:
    """70% new facts, 15% restatements of a seeded fact, 15% new values of a subject."""
    roll = rng.random()
    if roll < 0.15:
        k = rng.randrange(seeded)
        text, where = fact(random.Random(k), k), placement(k)
        return ItemCandidate(content=text, source_ref=SourceRef(store="chat", id=f"r{n}"), **where)
    where = placement(n)
    subject = f"subject-{rng.randrange(seeded) // 10 * 10}" if roll < 0.30 else None
    if subject is not None:
        where = placement(int(subject.split("-")[1]))
    return ItemCandidate(
        content=fact(rng, seeded + n), subject_key=subject, source="user_stated",
        source_ref=SourceRef(store="chat", id=f"m{n}"),
        task_id=where["scope_ref"] if where["scope"] == "task" else None, **where,
    )  # fmt: skip


def run(items: int, ingests: int, seed: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-items-"))
    load_started = time.perf_counter()
    bulk_load(work / "store", items)
    bulk_load(work / "baseline", items)  # same schema, same rows, same pragmas (WAL)
    load_seconds = time.perf_counter() - load_started
    base = sqlite3.connect(work / "baseline" / "items.sqlite3", isolation_level=None)

    store = ItemStore.open(work / "store")
    writer = ItemWriter(store, FixedClock(NOW))
    rng = random.Random(seed)
    ours: list[float] = []
    theirs: list[float] = []
    actions: dict[str, int] = {}
    for n in range(ingests):
        candidate = ingest_candidate(rng, n, items)
        box: list[ItemWriteResult] = []
        ours.append(timed(lambda: box.append(writer.ingest(candidate))))  # noqa: B023
        result = box[0]
        key = result.action or result.reason or "?"
        actions[key] = actions.get(key, 0) + 1
        row = _baseline_row(candidate, n)
        theirs.append(timed(lambda: _bare_insert(base, row)))  # noqa: B023
    writer.close()
    store.close()
    base.close()
    mine, bare = Timing.of(ours), Timing.of(theirs)
    rss_mb = peak_rss_mb()
    ratio = mine.p50_ms / bare.p50_ms
    return {
        "items": items, "ingests": ingests, "seed": seed,
        "bulk_load_seconds": round(load_seconds, 2),
        "ingest": asdict(mine), "bare_insert": asdict(bare),
        "p50_ratio": round(ratio, 2), "p95_ratio": round(mine.p95_ms / bare.p95_ms, 2),
        "actions": actions, "peak_rss_mb": round(rss_mb, 1),
        "budgets": {"p50_ratio_le_5": ratio <= 5.0, "peak_rss_lt_300mb": rss_mb < 300},
    }  # fmt: skip


def _baseline_row(candidate: ItemCandidate, n: int) -> tuple[Any, ...]:
    digest = content_hash(candidate.content)
    item = MemoryItem(
        id=f"bare{n:07d}", kind=candidate.kind, content=candidate.content,
        content_hash=digest, subject_key=f"bare-{n}", source=candidate.source,
        source_ref=candidate.source_ref, confidence=candidate.confidence, pinned=False,
        privacy="normal", task_id=candidate.task_id, status="active", supersedes_id=None,
        reinforced_count=0, created_at=NOW, updated_at=NOW, workspace_id=candidate.workspace_id,
        scope=candidate.scope, scope_ref=candidate.scope_ref,
    )  # fmt: skip
    params = list(to_params(item))
    params[7] = f"{digest}:{n}"  # restatements must not collide with the hash index
    return tuple(params)


def _bare_insert(conn: sqlite3.Connection, row: tuple[Any, ...]) -> None:
    conn.execute("BEGIN")
    conn.execute(INSERT, row)
    conn.execute("COMMIT")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--ingests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.items, args.ingests, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        ing, bare = result["ingest"], result["bare_insert"]
        print(f"store: {result['items']} items (bulk load {result['bulk_load_seconds']} s)")
        print(f"ingest      p50 {ing['p50_ms']:.3f} ms  p95 {ing['p95_ms']:.3f} ms")
        print(f"bare insert p50 {bare['p50_ms']:.3f} ms  p95 {bare['p95_ms']:.3f} ms")
        print(f"p50 ratio {result['p50_ratio']} (budget <= 5)  actions {result['actions']}")
        print(f"peak RSS {result['peak_rss_mb']} MB (budget < 300)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
