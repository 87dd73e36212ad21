"""The meaning lane's engine: embedding cost, vector size, search time, import, install.

What issue #29 budgets ("Budgets"), each beside a baseline measured in the same run:
- embedding <= 15 CPU-s per 1,000 entries (`update_vectors`: each distinct line once,
  the entry mixed from its own and its neighbours' line vectors), beside the model alone
  on the entries' own texts; and what one new entry costs afterwards (one line);
- vectors <= 50 MB per 100,000 entries on disk (the file `VectorStore.save` writes, with
  dialogue-shaped recipes: own line, four neighbours, heading, label);
- top-10 search over 100,000 entries, target about 9 ms, beside the bare float32
  product (in the same 1,024-row pieces) and argpartition over a matrix of that shape;
  with a mask hiding half the rows; one product over the whole matrix on every core,
  apart; and the one-time cost of loading the file and composing the entry vectors;
- the lane's own search as a recall runs it (top 10, the nearest 1,000 kept for fusion);
  and the head start: the rows multiplied on a worker thread while the main thread runs
  pure Python as Whoosh does (when the product is done, against BLAS in 1,024-row
  pieces, each of which takes the GIL back);
- importing the lane <= 0.6 s, in a fresh interpreter (alone, and on top of recall,
  which a process with the lane on has loaded anyway);
- installed size of the `meaning` extra <= 250 MB (the files of every distribution it
  brings that memrepo itself does not need).

Entries are REALTALK's turns (``$MEMREPO_REALTALK`` or ``../shared/datasets/realtalk``)
parsed as bench_quality writes them, or bench_recall's one-line facts where the data is
missing. The model is the packaged all-MiniLM-L6-v2 int8 (`memrepo.meaning.packaged`).
CPU time is `time.process_time`; figures are medians of --rounds.

Usage: python benchmarks/bench_meaning.py [--entries 1000] [--rows 100000] [--rounds 3]
       [--queries 50] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from packaging.requirements import Requirement

from memrepo.index import IndexDoc
from memrepo.meaning.embed import update_vectors
from memrepo.meaning.lane import SCORE_DEPTH, SWITCH_INTERVAL
from memrepo.meaning.matrix import CHUNK
from memrepo.meaning.model import Embedder, load_embedder
from memrepo.meaning.packaged import packaged_model_folder
from memrepo.meaning.vectors import VectorStore
from memrepo.recall.documents import entry_docs

BUDGETS = {
    "embed_cpu_s_per_1000": 15.0,
    "vector_mb_per_100000": 50.0,
    "search_ms_100000_target": 9.0,
    "import_s": 0.6,
    "installed_mb": 250.0,
}


def realtalk_docs(limit: int) -> list[IndexDoc]:
    """REALTALK's turns as bench_quality's session files, parsed into index documents."""
    from bench_quality import DEFAULT_DATA, load_chat

    data = Path(os.environ.get("MEMREPO_REALTALK") or DEFAULT_DATA)
    docs: list[IndexDoc] = []
    for path in sorted(data.glob("Chat_*.json")):
        chat = load_chat(path)
        for session, (date, turns) in sorted(chat.sessions.items()):
            lines = [f"# Session {session}, {date}", ""]
            lines += [f"- {text} [source: {dia}; added: {date}]" for dia, text in turns]
            raw = ("\n".join(lines) + "\n").encode()
            name = f"chat{chat.number}/session_{session}.md"
            docs += entry_docs(name, raw, commit="", uncommitted=False)
            if len(docs) >= limit:
                return docs[:limit]
    if len(docs) < limit:
        from bench_recall import corpus

        facts = corpus(limit - len(docs), 11)
        raw = ("# Facts\n\n" + "".join(f"- {fact}\n" for fact in facts)).encode()
        docs += entry_docs("facts.md", raw, commit="", uncommitted=False)
    return docs[:limit]


def cpu_wall(fn: Callable[[], object]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - cpu, time.perf_counter() - wall


def bench_embedding(embedder: Embedder, docs: list[IndexDoc], rounds: int) -> dict[str, Any]:
    """A first embed of `docs` against the model alone on their own texts, in turns."""
    lane: list[tuple[float, float]] = []
    model: list[tuple[float, float]] = []
    texts = [doc.text for doc in docs]
    store = VectorStore(embedder.name, embedder.dim)
    for _ in range(rounds):
        store = VectorStore(embedder.name, embedder.dim)
        lane.append(cpu_wall(partial(update_vectors, store, docs, embedder, complete=True)))
        model.append(cpu_wall(lambda: embedder.embed(texts)))
    per = 1000 / len(docs)
    new = entry_docs("chat99/new.md", b"# New\n\n- Kate: I booked the ski trip\n",
                     commit="", uncommitted=False)  # fmt: skip
    one_cpu, _wall = cpu_wall(lambda: update_vectors(store, new, embedder))
    lines = len(store)
    return {
        "entries": len(docs),
        "lines_embedded": lines,
        "cpu_s_per_1000": statistics.median(c for c, _w in lane) * per,
        "wall_s_per_1000": statistics.median(w for _c, w in lane) * per,
        "model_alone_cpu_s_per_1000": statistics.median(c for c, _w in model) * per,
        "model_alone_wall_s_per_1000": statistics.median(w for _c, w in model) * per,
        "ratio_cpu": statistics.median(c for c, _w in lane)
        / statistics.median(c for c, _w in model),
        "one_new_entry_cpu_ms": one_cpu * 1000,
    }


def synthetic_store(rows: int, dim: int, seed: int) -> VectorStore:
    """`rows` dialogue-shaped entries: own line, four neighbours, a heading, a label."""
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(rows + 200, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1)[:, None]
    keys = [f"{i:016x}" for i in range(rows + 200)]
    store = VectorStore("bench", dim)
    store.add_lines(keys, vectors)
    weights = ((-2, 0.35), (-1, 0.5), (1, 0.4), (2, 0.28))
    for i in range(rows):
        parts = [(keys[i], 1.0)] + [(keys[(i + d) % rows], w) for d, w in weights]
        parts += [(keys[rows + i // 25 % 100], 0.4), (keys[rows + 100 + i % 3], 0.25)]
        store.set_entry(f"folder:chats/chat{i // 900:03d}/session_{i // 25:05d}.md#{i:010x}",
                        tuple(parts))  # fmt: skip
    return store


def bench_vectors(rows: int, dim: int, queries: int, rounds: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-meaning-"))
    store = synthetic_store(rows, dim, 5)
    path = work / "vectors.bin"
    store.save(path)
    size = path.stat().st_size
    loads = [cpu_wall(lambda: VectorStore.load(path, model="bench", dim=dim).rows())
             for _ in range(rounds)]  # fmt: skip
    store = VectorStore.load(path, model="bench", dim=dim)
    store.rows()
    rng = np.random.default_rng(9)
    qs = rng.normal(size=(queries, dim)).astype(np.float32)
    qs /= np.linalg.norm(qs, axis=1)[:, None]
    half = store.mask_for(store.rows()[::2])
    # The bare product reads a float32 matrix of the same shape: its values do not matter.
    dense = rng.normal(size=(rows, dim)).astype(np.float32)
    timings: dict[str, list[tuple[float, float]]] = {
        "lane": [], "deep": [], "masked": [], "numpy": []
    }  # fmt: skip
    for q in qs:  # in turns, so each side meets the same moment of the machine
        timings["lane"].append(cpu_wall(partial(store.search, q, 10)))
        timings["deep"].append(cpu_wall(partial(store.nearest, q, 10, SCORE_DEPTH)))
        timings["masked"].append(cpu_wall(partial(store.search, q, 10, half)))
        timings["numpy"].append(cpu_wall(partial(_bare_top10, dense, q, CHUNK)))
    # One product over the whole matrix lets OpenBLAS use every core: less wall time on
    # an idle machine, more CPU (and its threads keep spinning after it returns, which
    # would be counted against whatever runs next: so it runs last, on its own).
    timings["one_call"] = [cpu_wall(partial(_bare_top10, dense, q, rows)) for q in qs]
    figures = {
        f"{name}_{kind}_ms": statistics.median(t[i] for t in series) * 1000
        for name, series in timings.items()
        for i, kind in ((0, "cpu"), (1, "wall"))
    }
    return {
        "rows": rows,
        "file_bytes": size,
        "mb_per_100000": size / rows * 100_000 / 1e6,
        "load_compose_cpu_s": statistics.median(c for c, _w in loads),
        "load_compose_wall_s": statistics.median(w for _c, w in loads),
        **{f"search_{key}": value for key, value in figures.items()},
        "search_ratio_cpu": figures["lane_cpu_ms"] / figures["numpy_cpu_ms"],
        **bench_beside_python(store, dense, qs[: max(3, queries // 5)]),
    }


BUSY_MS = 60.0
"""How long the main thread runs pure Python beside the head start: Whoosh's search of
100,000 entries takes about that long (`bench_quality.py --meaning-scale 100000`)."""


def bench_beside_python(
    store: VectorStore, dense: np.ndarray[Any, Any], qs: np.ndarray[Any, Any]
) -> dict[str, float]:
    """When the rows' products are done on a worker thread, started as the main thread
    begins `BUSY_MS` of pure Python (the lane's head start beside Whoosh), with the
    lane's switch interval: the lane's `products`, and BLAS in `CHUNK`-row pieces."""
    view = store.view()

    def busy() -> None:
        end = time.perf_counter() + BUSY_MS / 1000
        while time.perf_counter() < end:
            pass

    def done_after(job: Callable[[], object]) -> float:
        start = time.perf_counter()
        future = pool.submit(lambda: (job(), time.perf_counter())[1])
        busy()
        return (future.result() - start) * 1000

    saved = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with ThreadPoolExecutor(1) as pool:
            lane, blas = [], []
            for q in qs:
                lane.append(done_after(partial(view.products, q)))
                blas.append(done_after(partial(_bare_top10, dense, q, CHUNK)))
    finally:
        sys.setswitchinterval(saved)
    return {
        "beside_python_busy_ms": BUSY_MS,
        "beside_python_products_done_ms": statistics.median(lane),
        "beside_python_blas_chunks_done_ms": statistics.median(blas),
    }


def _bare_top10(matrix: np.ndarray[Any, Any], query: np.ndarray[Any, Any], chunk: int) -> list[int]:
    """The floor: the product in `chunk`-row pieces and the top 10, nothing else."""
    scores = np.empty(len(matrix), np.float32)
    for start in range(0, len(matrix), chunk):
        np.matmul(matrix[start : start + chunk], query, out=scores[start : start + chunk])
    top = np.argpartition(scores, len(scores) - 10)[-10:]
    return [int(i) for i in top[np.argsort(-scores[top])]]


_IMPORT_PROBE = """
import sys, time
{before}
cpu, wall = time.process_time(), time.perf_counter()
import memrepo.meaning.embed, memrepo.meaning.model, memrepo.meaning.vectors
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


def bench_import(rounds: int) -> dict[str, float]:
    """Importing the lane in a fresh interpreter: alone, and with recall loaded first."""
    figures: dict[str, float] = {}
    for name, before in (("cold", ""), ("after_recall", "import memrepo.recall.service")):
        runs = []
        for _ in range(rounds):
            out = subprocess.run([sys.executable, "-c", _IMPORT_PROBE.format(before=before)],
                                 capture_output=True, text=True, check=True).stdout  # fmt: skip
            runs.append([float(x) for x in out.split()])
        figures[f"{name}_cpu_s"] = statistics.median(r[0] for r in runs)
        figures[f"{name}_wall_s"] = statistics.median(r[1] for r in runs)
    return figures


def _closure(names: list[str]) -> set[str]:
    """Every distribution `names` need, by normalised name, markers evaluated here."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for line in requires:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def _meaning_extra() -> list[str]:
    """The names pyproject's `meaning` extra lists (the benchmarks run from a checkout,
    whose pyproject is the definition; an installed memrepo's metadata may be older)."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return [Requirement(line).name for line in extras["optional-dependencies"]["meaning"]]


def installed_mb() -> dict[str, Any]:
    """The files of the distributions the extra brings and memrepo itself does not."""
    base = _closure([Requirement(r).name for r in metadata.requires("memrepo") or []
                     if "extra ==" not in r])  # fmt: skip
    extra = _closure(_meaning_extra()) - base
    sizes = {}
    for name in sorted(extra):
        dist = metadata.distribution(name)
        sizes[name] = sum(
            path.stat().st_size
            for path in (Path(str(dist.locate_file(f))) for f in dist.files or ())
            if path.is_file()
        )
    mb = {name: size / 1e6 for name, size in sizes.items()}
    return {"mb": sum(mb.values()), "distributions": mb}


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = packaged_model_folder(Path(tempfile.mkdtemp(prefix="memrepo-model-")) / "m")
    load_cpu, load_wall = cpu_wall(lambda: load_embedder(str(folder)))
    embedder = load_embedder(str(folder))
    query = ["What does Kate do for fun on weekends?"]
    embed_one = [cpu_wall(lambda: embedder.embed(query)) for _ in range(args.queries)]
    return {
        "model": embedder.name,
        "model_load_cpu_s": load_cpu,
        "model_load_wall_s": load_wall,
        "query_embed_cpu_ms": statistics.median(c for c, _w in embed_one) * 1000,
        "query_embed_wall_ms": statistics.median(w for _c, w in embed_one) * 1000,
        "embedding": bench_embedding(embedder, realtalk_docs(args.entries), args.rounds),
        "vectors": bench_vectors(args.rows, embedder.dim, args.queries, args.rounds),
        "import": bench_import(max(args.rounds, 3)),
        "installed": installed_mb(),
        "budgets": BUDGETS,
    }


def render(report: dict[str, Any]) -> str:
    e, v, i = report["embedding"], report["vectors"], report["import"]
    return "\n".join([
        f"model {report['model']}: load {report['model_load_cpu_s']:.2f} CPU-s "
        f"({report['model_load_wall_s']:.2f} s wall); one query "
        f"{report['query_embed_cpu_ms']:.1f} ms CPU ({report['query_embed_wall_ms']:.1f} wall)",
        f"embedding {e['entries']} entries ({e['lines_embedded']} lines): "
        f"{e['cpu_s_per_1000']:.1f} CPU-s per 1,000 ({e['wall_s_per_1000']:.1f} wall), "
        f"model alone on own texts {e['model_alone_cpu_s_per_1000']:.1f} "
        f"(x{e['ratio_cpu']:.2f}); budget {BUDGETS['embed_cpu_s_per_1000']}; "
        f"one new entry {e['one_new_entry_cpu_ms']:.0f} ms CPU",
        f"vectors: {v['mb_per_100000']:.1f} MB per 100,000 entries "
        f"(budget {BUDGETS['vector_mb_per_100000']}); load + compose {v['rows']} rows "
        f"{v['load_compose_cpu_s']:.2f} CPU-s ({v['load_compose_wall_s']:.2f} wall)",
        f"top-10 over {v['rows']}: {v['search_lane_cpu_ms']:.1f} ms CPU "
        f"({v['search_lane_wall_ms']:.1f} wall), half masked {v['search_masked_cpu_ms']:.1f}, "
        f"bare numpy {v['search_numpy_cpu_ms']:.1f} (x{v['search_ratio_cpu']:.2f}); one "
        f"product on every core {v['search_one_call_wall_ms']:.1f} ms wall "
        f"({v['search_one_call_cpu_ms']:.1f} CPU); as recall asks (nearest "
        f"{SCORE_DEPTH} kept) {v['search_deep_cpu_ms']:.1f} ms CPU",
        f"head start beside {v['beside_python_busy_ms']:.0f} ms of Python: products done "
        f"after {v['beside_python_products_done_ms']:.1f} ms (BLAS in {CHUNK}-row pieces "
        f"{v['beside_python_blas_chunks_done_ms']:.1f})",
        f"import: {i['cold_wall_s']:.2f} s cold ({i['cold_cpu_s']:.2f} CPU), "
        f"{i['after_recall_wall_s']:.3f} s with recall loaded "
        f"({i['after_recall_cpu_s']:.3f} CPU); budget {BUDGETS['import_s']}",
        f"installed: {report['installed']['mb']:.0f} MB (budget {BUDGETS['installed_mb']})",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
