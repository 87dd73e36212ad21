"""Recall quality on real conversations: REALTALK written as memory repos (issue #16).

REALTALK (Lee et al., "REALTALK: A 21-Day Real-World Dataset for Long-Term Conversation",
arXiv 2502.13270, 2025) holds ten chats between real people over about 21 days, with
memory questions and the turns that answer them. Each chat becomes a memory repo the way
a person or an importer would write it, committed with plain git: one file per session
(``sessions/session_N.md``, a heading with the session date), one entry per turn
(``- Speaker: text [source: D1:3; added: 2023-12-29]``), MEMORY.md linking the sessions.
Every question is recalled through the public API (``MemoryRepo.recall``, limit 10) and
scored by evidence recall: R@k = |evidence in the top k| / |evidence|, averaged over the
questions, overall, per category (1 multi-hop, 2 temporal, 3 commonsense) and per half
(chats 1-5, where settings are tuned, and 6-10, which only reports them). Evidence is read
as `evidence_ids` says; a question whose evidence names no existing turn is left out
(705 of the 728 questions are kept).

The baseline runs in the same process over the same lines: SQLite FTS5 (``porter
unicode61``), an OR of the question's non-stopword words (memrepo's stopword list),
``ORDER BY bm25``, LIMIT 10. Latency p50/p95 of both are the recall calls alone, with a
raw Whoosh query (the same query object over memrepo's own index, top 10) beside them,
their ratio (budget 1.3), and memrepo's own per-call cost: each recall's time less the
time spent inside the index search it made (`IndexStore.search`: Whoosh, its filters
and the hits read), so the freshness check, query building, lanes, fusion and result
building (budget 1 ms p50).

Goals (issue #16): R@5 >= 0.54, R@10 >= 0.62, R@10 at least 10 points over FTS5.

Usage: python benchmarks/bench_quality.py [--data DIR] [--chats 1-10] [--json]
The data defaults to ``$MEMREPO_REALTALK`` or ``../shared/datasets/realtalk`` beside the
checkout; without it the benchmark says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from _common import RawWhoosh, Timing, git

from memrepo import MemoryRepo
from memrepo.index.query import STOPWORDS

GOALS = {"r5": 0.54, "r10": 0.62, "r10_over_fts5": 0.10}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "commonsense"}
TUNE_HALF = range(1, 6)
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "realtalk"
_SESSION = re.compile(r"session_(\d+)$")
_RANGE = re.compile(r"D(\d+):(\d+)-D(\d+):(\d+)")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Question:
    chat: int
    text: str
    evidence: frozenset[str]
    category: int


@dataclass(slots=True)
class Chat:
    """One conversation: its number, its turns as (dia_id, entry text, date), questions."""

    number: int
    sessions: dict[int, tuple[str, list[tuple[str, str]]]] = field(default_factory=dict)
    questions: list[Question] = field(default_factory=list)

    def lines(self) -> Iterable[tuple[str, str]]:
        for _date, turns in self.sessions.values():
            yield from turns


def _one_line(text: str) -> str:
    """A turn as one bullet's text: whitespace collapsed, brackets that would read as a
    metadata group or a link made plain (a person pasting a chat would do the same)."""
    text = " ".join(text.split())
    return text.replace("[", "(").replace("]", ")")


def _session_date(raw: str) -> str:
    return datetime.strptime(raw.split(",")[0].strip(), "%d.%m.%Y").date().isoformat()


def evidence_ids(raw: Iterable[str], turns: set[str]) -> frozenset[str]:
    """The turns a question's evidence names. The data writes some lists loosely
    ("D5:12;D5:16", "D12:3-D12:5", "D5:3."): parts are split, ranges within a session
    expanded, ids of turns that do not exist dropped (nothing could ever find them)."""
    found: set[str] = set()
    for item in raw:
        for part in re.split(r"[;,\s]+", str(item)):
            part = part.strip().rstrip(".")
            span = _RANGE.fullmatch(part)
            if span and span.group(1) == span.group(3):
                session, low, high = span.group(1), int(span.group(2)), int(span.group(4))
                found.update(f"D{session}:{n}" for n in range(low, high + 1))
            elif part:
                found.add(part)
    return frozenset(found & turns)


def load_chat(path: Path) -> Chat:
    data = json.loads(path.read_text(encoding="utf-8"))
    number = int(path.name.split("_")[1])
    chat = Chat(number)
    for key, turns in data.items():
        match = _SESSION.match(key)
        if match is None or not isinstance(turns, list):
            continue
        session = int(match.group(1))
        date = _session_date(data[f"{key}_date_time"])
        lines = []
        for turn in turns:
            text = _one_line(str(turn.get("clean_text") or ""))
            if text:
                lines.append((str(turn["dia_id"]), f"{turn['speaker']}: {text}"))
        chat.sessions[session] = (date, lines)
    turns = {dia for dia, _text in chat.lines()}
    for qa in data.get("qa", []):
        evidence = evidence_ids(qa.get("evidence") or (), turns)
        if evidence:  # a question whose evidence names no turn cannot be scored
            category = int(qa.get("category", 0))
            chat.questions.append(Question(number, str(qa["question"]), evidence, category))
    return chat


def write_repo(chat: Chat, root: Path) -> None:
    """The chat as a memory repo, written as files and committed with the git CLI."""
    MemoryRepo.init(root).close()
    index = []
    for session, (date, turns) in sorted(chat.sessions.items()):
        rel = f"sessions/session_{session}.md"
        lines = [f"# Session {session}, {date}", ""]
        lines += [f"- {text} [source: {dia}; added: {date}]" for dia, text in turns]
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        index.append(f"- [[{rel[:-3]}]]")
    memory = ["# Memory", "", f"Chat {chat.number} of REALTALK.", "", "## Index", *index]
    (root / "MEMORY.md").write_text("\n".join(memory) + "\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"REALTALK chat {chat.number}")


# --- the baseline ---------------------------------------------------------------------------


def fts5_index(chat: Chat) -> tuple[sqlite3.Connection, list[str]]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE turns USING fts5(text, tokenize='porter unicode61')")
    dias: list[str] = []
    for dia, text in chat.lines():
        conn.execute("INSERT INTO turns(rowid, text) VALUES (?, ?)", (len(dias) + 1, text))
        dias.append(dia)
    conn.commit()
    return conn, dias


def fts5_recall(conn: sqlite3.Connection, dias: Sequence[str], question: str) -> list[str]:
    words = [w for w in _WORD.findall(question) if w.casefold() not in STOPWORDS]
    if not words:
        return []
    match = " OR ".join(f'"{word}"' for word in words)
    sql = "SELECT rowid FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT 10"
    return [dias[rowid - 1] for (rowid,) in conn.execute(sql, (match,))]


# --- scoring ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Scores:
    """Evidence recall sums of one system over a set of questions."""

    n: int = 0
    r5: float = 0.0
    r10: float = 0.0

    def add(self, found: Sequence[str], evidence: frozenset[str]) -> None:
        self.n += 1
        self.r5 += len(evidence.intersection(found[:5])) / len(evidence)
        self.r10 += len(evidence.intersection(found[:10])) / len(evidence)

    def means(self) -> dict[str, float]:
        n = max(1, self.n)
        return {"n": self.n, "r5": round(self.r5 / n, 4), "r10": round(self.r10 / n, 4)}


def _groups(question: Question) -> list[str]:
    half = "chats 1-5" if question.chat in TUNE_HALF else "chats 6-10"
    return ["all", half, CATEGORIES.get(question.category, f"category {question.category}")]


def bench_chat(
    chat: Chat, work: Path, scores: dict[str, dict[str, Scores]]
) -> dict[str, list[float]]:
    root = work / f"chat{chat.number}"
    write_repo(chat, root)
    conn, dias = fts5_index(chat)
    times: dict[str, list[float]] = {"memrepo": [], "fts5": [], "raw_whoosh": [], "own": []}
    with MemoryRepo.open(root) as repo:
        repo.recall("warm up the index")
        raw = RawWhoosh(repo)
        searching = _time_searches(repo)
        for question in chat.questions:
            searching.clear()
            start = time.perf_counter()
            result = repo.recall(question.text, limit=10)
            times["memrepo"].append(time.perf_counter() - start)
            times["own"].append(times["memrepo"][-1] - sum(searching))
            ours = [hit.provenance.source or "" for hit in result.hits]
            start = time.perf_counter()
            theirs = fts5_recall(conn, dias, question.text)
            times["fts5"].append(time.perf_counter() - start)
            start = time.perf_counter()
            raw.search(question.text)
            times["raw_whoosh"].append(time.perf_counter() - start)
            for group in _groups(question):
                scores["memrepo"].setdefault(group, Scores()).add(ours, question.evidence)
                scores["fts5"].setdefault(group, Scores()).add(theirs, question.evidence)
        raw.close()
    return times


def _time_searches(repo: MemoryRepo) -> list[float]:
    """Wrap this repo's index store (the instance, not the class) so each search adds
    its seconds to the list returned: what `own` subtracts from a recall."""
    store = repo.searcher.store()
    search = store.search
    spent: list[float] = []

    def timed_search(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return search(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    store.search = timed_search  # type: ignore[method-assign]
    return spent


def _chat_numbers(spec: str) -> list[int]:
    chosen: list[int] = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        chosen.extend(range(int(low), int(high or low) + 1))
    return chosen


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(args.data)
    wanted = set(_chat_numbers(args.chats))
    paths = sorted(data.glob("Chat_*.json"), key=lambda p: int(p.name.split("_")[1]))
    chats = [load_chat(p) for p in paths if int(p.name.split("_")[1]) in wanted]
    scores: dict[str, dict[str, Scores]] = {"memrepo": {}, "fts5": {}}
    times: dict[str, list[float]] = {"memrepo": [], "fts5": [], "raw_whoosh": [], "own": []}
    with tempfile.TemporaryDirectory(prefix="memrepo-quality-") as tmp:
        for chat in chats:
            for system, series in bench_chat(chat, Path(tmp), scores).items():
                times[system].extend(series)
    table = {
        system: {group: s.means() for group, s in sorted(groups.items())}
        for system, groups in scores.items()
    }
    latency = {system: asdict(Timing.of(series)) for system, series in times.items()}
    ours, base = table["memrepo"].get("all", {}), table["fts5"].get("all", {})
    gap = round(ours.get("r10", 0.0) - base.get("r10", 0.0), 4)
    return {
        "chats": sorted(wanted & {c.number for c in chats}),
        "questions": sum(len(c.questions) for c in chats),
        "entries": sum(sum(1 for _ in c.lines()) for c in chats),
        "recall": table,
        "latency": latency,
        "whoosh_ratio": {
            f"{q}_ratio": latency["memrepo"][f"{q}_ms"] / latency["raw_whoosh"][f"{q}_ms"]
            for q in ("p50", "p95")
        },
        "r10_over_fts5": gap,
        "goals": GOALS,
        "met": {
            "r5": ours.get("r5", 0.0) >= GOALS["r5"],
            "r10": ours.get("r10", 0.0) >= GOALS["r10"],
            "r10_over_fts5": gap >= GOALS["r10_over_fts5"],
        },
    }


def render(report: dict[str, Any]) -> str:
    """The report as the table the README quotes."""
    rows = [
        f"REALTALK chats {report['chats'][0]}-{report['chats'][-1]}: {report['questions']} "
        f"questions, {report['entries']} entries",
        "",
        "| questions | n | memrepo R@5 | R@10 | FTS5 R@5 | R@10 |",
        "|---|---|---|---|---|---|",
    ]
    ours, base = report["recall"]["memrepo"], report["recall"]["fts5"]
    order = ["all", "chats 1-5", "chats 6-10", *CATEGORIES.values()]
    for group in [g for g in order if g in ours] + [g for g in ours if g not in order]:
        a, b = ours[group], base[group]
        rows.append(
            f"| {group} | {a['n']} | {a['r5']:.3f} | {a['r10']:.3f} | "
            f"{b['r5']:.3f} | {b['r10']:.3f} |"
        )
    lat = report["latency"]
    rows += [
        "",
        f"latency: memrepo p50 {lat['memrepo']['p50_ms']:.2f} ms, p95 "
        f"{lat['memrepo']['p95_ms']:.2f} ms | FTS5 p50 {lat['fts5']['p50_ms']:.2f} ms, p95 "
        f"{lat['fts5']['p95_ms']:.2f} ms | raw Whoosh (the same query, no filters or fusion) "
        f"p50 {lat['raw_whoosh']['p50_ms']:.2f} ms, p95 {lat['raw_whoosh']['p95_ms']:.2f} ms",
        f"vs raw Whoosh: p50 {report['whoosh_ratio']['p50_ratio']:.2f}, p95 "
        f"{report['whoosh_ratio']['p95_ratio']:.2f} (budget 1.3) | memrepo's own per-call cost "
        f"(recall less its index search): p50 {lat['own']['p50_ms']:.2f} ms, p95 "
        f"{lat['own']['p95_ms']:.2f} ms (budget 1 ms p50)",
        f"R@10 over FTS5: {report['r10_over_fts5']:+.3f}; goals met: "
        + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in report["met"].items()),
    ]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("MEMREPO_REALTALK", str(DEFAULT_DATA)))
    parser.add_argument("--chats", default="1-10", help="which chats, e.g. 1-5 or 1,3,6-10")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if not any(Path(args.data).glob("Chat_*.json")):
        print(f"bench_quality: no REALTALK chats in {args.data} (set --data)", file=sys.stderr)
        return 2
    report = run(args)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
