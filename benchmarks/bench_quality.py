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

``--meaning`` (issue #29) also recalls every question with the meaning lane plugged in,
in the same run, over vectors the package-shipped test model (all-MiniLM-L6-v2 int8,
`memrepo.meaning.packaged`) makes of the same documents the index holds
(`memrepo.meaning.embed.update_vectors`): its R@k beside memrepo's, its recall p50
against memrepo's (wall and CPU), and the embedding's CPU time. Its weight was tuned on
chats 1-5 only (``--meaning-weight`` tries another; ``--meaning-model FOLDER`` another
model, any folder `memrepo.meaning.model.load_embedder` loads); chats 6-10 only report. Goals:
R@5 >= 0.52, R@10 >= 0.60 on chats 6-10 and overall. ``--meaning-scale N`` instead
times recall with and without the lane on a synthetic repo of N entries (their vectors
random unit rows: what a search costs does not depend on them; the question is embedded
by the real model), medians of several rounds, CPU beside wall.

Usage: python benchmarks/bench_quality.py [--data DIR] [--chats 1-10] [--json]
       [--meaning [--meaning-weight W] [--meaning-model FOLDER]] [--meaning-scale N]
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

from _common import RawWhoosh, Timing, build_repo, git

from memrepo import MemoryRepo
from memrepo.errors import MemrepoError
from memrepo.index.query import STOPWORDS

GOALS = {"r5": 0.54, "r10": 0.62, "r10_over_fts5": 0.10}
MEANING_GOALS = {"r5": 0.52, "r10": 0.60}
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
    chat: Chat,
    work: Path,
    scores: dict[str, dict[str, Scores]],
    meaning: Meaning | None = None,
) -> dict[str, list[float]]:
    root = work / f"chat{chat.number}"
    write_repo(chat, root)
    conn, dias = fts5_index(chat)
    times: dict[str, list[float]] = {"memrepo": [], "fts5": [], "raw_whoosh": [], "own": []}
    with MemoryRepo.open(root) as repo:
        repo.recall("warm up the index")
        if meaning is not None:
            meaning.recall_both(repo, root, chat, scores, times)
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


@dataclass(slots=True)
class Meaning:
    """The meaning lane's side of the run (`--meaning`): the test model, the lane's
    weight, and the CPU seconds spent embedding the chats' documents."""

    embedder: Any
    weight: float
    embed_cpu: float = 0.0
    documents: int = 0

    @staticmethod
    def documents_of(root: Path) -> list[Any]:
        """The index documents of every file of `root` (`recall.documents.entry_docs`)."""
        from memrepo.recall.documents import entry_docs

        return [
            doc
            for path in sorted(root.rglob("*.md"))
            if ".git" not in path.relative_to(root).parts
            for doc in entry_docs(
                path.relative_to(root).as_posix(), path.read_bytes(), commit="", uncommitted=False
            )
        ]

    def lane(self, repo: MemoryRepo, root: Path) -> Any:
        """A meaning lane over vectors of every document of `root`'s files (the ones
        the index holds), embedded now."""
        from memrepo.meaning.embed import update_vectors
        from memrepo.meaning.lane import MeaningSearch
        from memrepo.meaning.vectors import VectorStore

        docs = self.documents_of(root)
        vectors = VectorStore(self.embedder.name, self.embedder.dim)
        cpu = time.process_time()
        update_vectors(vectors, docs, self.embedder, complete=True)
        self.embed_cpu += time.process_time() - cpu
        self.documents += len(docs)
        return MeaningSearch(repo._parts.searcher.store, vectors, self.embedder).lane(
            weight=self.weight
        )

    def recall_both(
        self,
        repo: MemoryRepo,
        root: Path,
        chat: Chat,
        scores: dict[str, dict[str, Scores]],
        times: dict[str, list[float]],
    ) -> None:
        """Every question recalled without and with the lane, one after the other (wall
        and CPU time of each): the same index, the same moment of the machine."""
        lane = self.lane(repo, root)
        for name in ("plain", "plain_cpu", "meaning", "meaning_cpu"):
            times.setdefault(name, [])
        for question in chat.questions:
            for system, plugged in (("plain", False), ("meaning", True)):
                unplug = repo.plug_lane(lane) if plugged else None
                wall, cpu = time.perf_counter(), time.process_time()
                result = repo.recall(question.text, limit=10)
                times[f"{system}_cpu"].append(time.process_time() - cpu)
                times[system].append(time.perf_counter() - wall)
                if unplug is not None:
                    unplug()
                found = [hit.provenance.source or "" for hit in result.hits]
                if plugged:
                    for group in _groups(question):
                        scores["meaning"].setdefault(group, Scores()).add(found, question.evidence)


def _time_searches(repo: MemoryRepo) -> list[float]:
    """Wrap this repo's index store (the instance, not the class) so each search adds
    its seconds to the list returned: what `own` subtracts from a recall."""
    store = repo._parts.searcher.store()
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
    meaning = _meaning(args)
    if meaning is not None:
        scores["meaning"] = {}
    with tempfile.TemporaryDirectory(prefix="memrepo-quality-") as tmp:
        for chat in chats:
            for system, series in bench_chat(chat, Path(tmp), scores, meaning).items():
                times.setdefault(system, []).extend(series)
    table = {
        system: {group: s.means() for group, s in sorted(groups.items())}
        for system, groups in scores.items()
    }
    latency = {system: asdict(Timing.of(series)) for system, series in times.items()}
    ours, base = table["memrepo"].get("all", {}), table["fts5"].get("all", {})
    gap = round(ours.get("r10", 0.0) - base.get("r10", 0.0), 4)
    report = {
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
    if meaning is not None:
        report["meaning"] = _meaning_report(meaning, table["meaning"], latency)
    return report


def _meaning(args: argparse.Namespace) -> Meaning | None:
    if not args.meaning:
        return None
    from memrepo.meaning.lane import MEANING_WEIGHT
    from memrepo.meaning.model import load_embedder
    from memrepo.meaning.packaged import packaged_model_folder

    weight = MEANING_WEIGHT if args.meaning_weight is None else args.meaning_weight
    folder = args.meaning_model or str(packaged_model_folder())
    return Meaning(load_embedder(folder), weight)


def _meaning_report(
    meaning: Meaning, table: dict[str, dict[str, float]], latency: dict[str, dict[str, float]]
) -> dict[str, Any]:
    groups = [g for g in ("all", "chats 6-10") if g in table]
    return {
        "model": meaning.embedder.name,
        "weight": meaning.weight,
        "documents": meaning.documents,
        "embed_cpu_s_per_1000": round(1000 * meaning.embed_cpu / max(1, meaning.documents), 2),
        "p50_ratio": latency["meaning"]["p50_ms"] / latency["plain"]["p50_ms"],
        "p50_cpu_ratio": latency["meaning_cpu"]["p50_ms"] / latency["plain_cpu"]["p50_ms"],
        "goals": MEANING_GOALS,
        "met": {
            f"{group} {k}": table[group][k] >= goal
            for group in groups
            for k, goal in MEANING_GOALS.items()
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
    if "meaning" in report:
        rows += _meaning_rows(report)
    return "\n".join(rows)


def _meaning_rows(report: dict[str, Any]) -> list[str]:
    info, lat = report["meaning"], report["latency"]
    ours, theirs = report["recall"]["memrepo"], report["recall"]["meaning"]
    rows = [
        "",
        f"meaning lane ({info['model']}, weight {info['weight']}): "
        f"{info['embed_cpu_s_per_1000']:.1f} CPU-s per 1,000 documents embedded",
        "",
        "| questions | memrepo R@5 | R@10 | with meaning R@5 | R@10 |",
        "|---|---|---|---|---|",
    ]
    for group in [g for g in ("all", "chats 1-5", "chats 6-10") if g in theirs]:
        a, b = ours[group], theirs[group]
        rows.append(
            f"| {group} | {a['r5']:.3f} | {a['r10']:.3f} | {b['r5']:.3f} | {b['r10']:.3f} |"
        )
    rows += [
        "",
        f"recall p50 without / with the lane: {lat['plain']['p50_ms']:.2f} / "
        f"{lat['meaning']['p50_ms']:.2f} ms wall ({info['p50_ratio']:.2f}x), "
        f"{lat['plain_cpu']['p50_ms']:.2f} / {lat['meaning_cpu']['p50_ms']:.2f} ms CPU "
        f"({info['p50_cpu_ratio']:.2f}x)",
        "meaning goals met: "
        + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in info["met"].items()),
    ]
    return rows


# --- the lane's cost at scale (--meaning-scale) --------------------------------------------

SCALE_QUESTIONS = [
    "which version does component 7 use", "what does the user prefer", "fact about topic 12",
    "when was component 3 added", "what changed in January", "notes about this topic",
]  # fmt: skip


class _RandomLines:
    """Unit vectors for lines, seeded by their text: a search over them costs what one
    over real vectors does, without embedding N lines first."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        rng = np.random.default_rng(abs(hash(tuple(texts))) % 2**32)
        rows = rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def scale_report(entries: int, rounds: int = 5) -> dict[str, Any]:
    """Recall p50 without and with the lane at `entries` entries (medians of `rounds`
    rounds of every question, each asked without and with it, which first alternating),
    wall and CPU."""
    from memrepo.meaning.embed import update_vectors
    from memrepo.meaning.lane import MeaningSearch
    from memrepo.meaning.model import load_embedder
    from memrepo.meaning.packaged import packaged_model_folder
    from memrepo.meaning.vectors import VectorStore

    model = load_embedder(str(packaged_model_folder()))
    with tempfile.TemporaryDirectory(prefix="memrepo-meaning-scale-") as tmp:
        root = Path(tmp) / "repo"
        with build_repo(root, max(1, entries // 100), 100) as repo:
            repo.recall("warm up the index")
            docs = Meaning(model, 0.0).documents_of(root)
            vectors = VectorStore(model.name, model.dim)
            update_vectors(vectors, docs, _RandomLines(model.name, model.dim), complete=True)
            lane = MeaningSearch(repo._parts.searcher.store, vectors, model).lane()
            series: dict[str, list[float]] = {}
            for _round in range(rounds):
                timed: dict[str, list[float]] = {}
                for number, question in enumerate(SCALE_QUESTIONS):
                    # Which goes first alternates: the second search of a question reads
                    # index pieces the first one loaded.
                    for system in ("plain", "meaning")[:: 1 if number % 2 else -1]:
                        unplug = repo.plug_lane(lane) if system == "meaning" else None
                        wall, cpu = time.perf_counter(), time.process_time()
                        repo.recall(question, limit=10)
                        timed.setdefault(f"{system}_cpu", []).append(time.process_time() - cpu)
                        timed.setdefault(system, []).append(time.perf_counter() - wall)
                        if unplug is not None:
                            unplug()
                for name, values in timed.items():
                    series.setdefault(name, []).append(Timing.of(values).p50_ms)
    p50 = {name: sorted(values)[len(values) // 2] for name, values in series.items()}
    return {
        "entries": len(docs),
        "p50_ms": p50,
        "ratio": p50["meaning"] / p50["plain"],
        "cpu_ratio": p50["meaning_cpu"] / p50["plain_cpu"],
        "added_ms": p50["meaning"] - p50["plain"],
        "added_cpu_ms": p50["meaning_cpu"] - p50["plain_cpu"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("MEMREPO_REALTALK", str(DEFAULT_DATA)))
    parser.add_argument("--chats", default="1-10", help="which chats, e.g. 1-5 or 1,3,6-10")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--meaning", action="store_true", help="also recall with the lane")
    parser.add_argument("--meaning-weight", type=float, help="the lane's weight in the blend")
    parser.add_argument(
        "--meaning-model", help="a model folder to load instead of the packaged test model"
    )
    parser.add_argument("--meaning-scale", type=int, help="time the lane at N entries")
    args = parser.parse_args(argv)
    if args.meaning_scale:
        print(json.dumps(scale_report(args.meaning_scale), indent=2))
        return 0
    if not any(Path(args.data).glob("Chat_*.json")):
        print(f"bench_quality: no REALTALK chats in {args.data} (set --data)", file=sys.stderr)
        return 2
    try:
        report = run(args)
    except MemrepoError as exc:  # a model that does not load: its one line, no traceback
        print(f"bench_quality: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
