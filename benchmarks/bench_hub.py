"""The Memory Hub's pages at 10k entries: server time per page against `memrepo entries`.

Every list page marks what stands in every prompt (L0) and the file page lists its
backlinks (issue #31); `knows_every_prompt` is the list narrowed to L0.

Budget (issue #19, "Speed"): on a repo of --files x --entries folder entries (10,000 by
default, the corpus of `_common.build_repo`) plus --items memory items, every page's
server time has p50 <= 150 ms and p95 <= 400 ms. The hub runs as `memrepo hub` does, a
process of its own on 127.0.0.1; an HTTP client signs in with the printed one-time URL
and asks each page --requests times (pages in rotating order, after one warm-up round).
Server time is the `Server-Timing` the hub's gate reports (request in to response start:
the repo calls and the template); the client's round trip is shown beside it.

Baseline, same run, same repo: `memrepo entries --json` as a person runs it (a process:
start-up, reading every entry, printing JSON), --baseline-runs times.

Also shown, not budgeted: the health check run by the Refresh button (the Health page
shows the last run), and the first context preview (which may build the search index).

Usage: python benchmarks/bench_hub.py [--files 50] [--entries 200] [--items 200]
       [--requests 30] [--baseline-runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx2
from _common import Timing, build_repo, timed, topic_path

from memrepo import MemoryRepo

BUDGET = {"page_p50_ms": 150.0, "page_p95_ms": 400.0}
PROJECT = Path(__file__).resolve().parent.parent
#: `memrepo hub`, registered the way memrepo.cli registers it.
LAUNCH = (
    "import argparse, sys\n"
    "from memrepo.cli import hub\n"
    "parser = argparse.ArgumentParser(prog='memrepo')\n"
    "parser.add_argument('--repo')\n"
    "hub.register(parser.add_subparsers())\n"
    "args = parser.parse_args(sys.argv[1:])\n"
    "sys.exit(args.handler(args))\n"
)
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def build(root: Path, files: int, entries: int, items: int) -> dict[str, str]:
    """The corpus, a few memory items, the index built; the refs the pages are asked for."""
    repo = build_repo(root, files, entries)
    with repo:
        for n in range(items):
            if n % 2:
                repo.remember(f"Contact {n} prefers mail in the morning", by="user",
                              contact_ref=f"mail:person{n}@example.com")  # fmt: skip
            else:
                repo.remember(f"Private note {n} about the budget", by="user", private=True)
        linked = topic_path(files // 2)
        for n in range(3):  # backlinks for the file page to list (issue #31)
            repo.remember(f"Component {n} is documented in [[{linked[:-3]}]]", by="user")
        repo.reindex()
        entry = repo.entries(topic_path(files // 2))[entries // 2]
        commit = repo.log(limit=1)[0].id
    return {"entry": entry.ref, "file": entry.path, "commit": commit}


def pages(refs: dict[str, str], entries: int) -> dict[str, tuple[str, dict[str, str]]]:
    """Every page of the hub, with the parameters a person would give it (the list's
    last page: the folder's entries; private items are hidden, contacts listed apart)."""
    last = max(1, -(-entries // 200))
    return {
        "knows": ("/", {}),
        "knows_text_filter": ("/", {"q": "component 7"}),
        "knows_file_filter": ("/", {"file": refs["file"]}),
        "knows_last_page": ("/", {"page": str(last)}),
        "knows_every_prompt": ("/", {"l0": "1"}),
        "memory": ("/memory", {"ref": refs["entry"]}),
        "file": ("/file", {"path": refs["file"]}),
        "history": ("/history", {}),
        "commit": ("/history/commit", {"id": refs["commit"]}),
        "review": ("/review", {}),
        "agent": ("/agent", {"show": "1", "query": "which version does component 7 use"}),
        "health": ("/health", {}),
        "sources": ("/sources", {}),
        "settings": ("/settings", {}),
    }


class Hub:
    """`memrepo hub --no-browser --port 0` in its own process, and a signed-in client."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(PROJECT)}
        command = [sys.executable, "-c", LAUNCH, "--repo", str(root), "hub", "--port", "0",
                   "--no-browser"]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
            start_new_session=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        url = self.process.stdout.readline().split(": ", 1)[1].strip()
        self.base = url.split("/login", 1)[0]
        self.client = httpx2.Client(base_url=self.base, timeout=300)
        opened = self.client.get(url.removeprefix(self.base))
        assert opened.status_code == 303, opened.text

    def get(self, path: str, params: dict[str, str]) -> tuple[float, float]:
        """(server ms from Server-Timing, client round trip ms) of one page."""
        started = time.perf_counter()
        response = self.client.get(path, params=params)
        took = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        server = float(response.headers["server-timing"].split("dur=", 1)[1])
        return server, took

    def post(self, path: str, data: dict[str, str]) -> float:
        token = CSRF.search(self.client.get("/").text)
        assert token is not None
        response = self.client.post(
            path, data={**data, "csrf": token.group(1)}, headers={"Origin": self.base}
        )
        assert response.status_code == 303, response.text[:500]
        return float(response.headers["server-timing"].split("dur=", 1)[1])

    def close(self) -> None:
        self.client.close()
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=60)
        assert self.process.stdout is not None
        self.process.stdout.close()


def baseline(root: Path, runs: int) -> Timing:
    command = [sys.executable, "-m", "memrepo", "--repo", str(root), "entries", "--json"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}

    def once() -> None:
        subprocess.run(command, check=True, capture_output=True, env=env)

    return Timing.of([timed(once) for _ in range(runs)])


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="memrepo-bench-hub-")) / "repo"
    refs = build(root, args.files, args.entries, args.items)
    with MemoryRepo.open(root) as repo:
        total = len(repo.entries())
    asked = pages(refs, total)
    hub = Hub(root)
    try:
        first_agent = hub.get(*asked["agent"])[0]
        for path, params in asked.values():  # warm-up round, not timed
            hub.get(path, params)
        server: dict[str, list[float]] = {name: [] for name in asked}
        client: dict[str, list[float]] = {name: [] for name in asked}
        names = list(asked)
        for n in range(args.requests):
            for name in names[n % len(names) :] + names[: n % len(names)]:
                s, c = hub.get(*asked[name])
                server[name].append(s / 1000)
                client[name].append(c / 1000)
        refresh = [hub.post("/health/refresh", {"back": "/health"}) for _ in range(3)]
    finally:
        hub.close()
    base = baseline(root, args.baseline_runs)
    result: dict[str, Any] = {"pages": {}}
    for name in asked:
        mine, trip = Timing.of(server[name]), Timing.of(client[name])
        result["pages"][name] = {
            "server": asdict(mine),
            "client": asdict(trip),
            "p50_vs_entries_cli": mine.p50_ms / base.p50_ms,
        }
    worst50 = max(p["server"]["p50_ms"] for p in result["pages"].values())
    worst95 = max(p["server"]["p95_ms"] for p in result["pages"].values())
    figures = {"page_p50_ms": worst50, "page_p95_ms": worst95}
    return {
        "entries": total,
        "items": args.items,
        "requests_per_page": args.requests,
        **result,
        "entries_cli": asdict(base),
        "health_refresh_ms": sorted(refresh)[len(refresh) // 2],
        "first_agent_preview_ms": first_agent,
        "figures": figures,
        "budget": BUDGET,
        "within_budget": {key: value <= BUDGET[key] for key, value in figures.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--entries", type=int, default=200, help="entries per file")
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--requests", type=int, default=30, help="requests per page")
    parser.add_argument("--baseline-runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    base = result["entries_cli"]
    print(
        f"{result['entries']} entries, {result['items']} items; `memrepo entries --json` "
        f"p50 {base['p50_ms']:.1f} p95 {base['p95_ms']:.1f} ms"
    )
    print(f"{'page':<20} {'server p50':>10} {'p95':>8} {'client p50':>11} {'p95':>8}  vs CLI")
    for name, page in result["pages"].items():
        s, c = page["server"], page["client"]
        print(
            f"{name:<20} {s['p50_ms']:>10.1f} {s['p95_ms']:>8.1f} {c['p50_ms']:>11.1f} "
            f"{c['p95_ms']:>8.1f}  {page['p50_vs_entries_cli']:.2f}x"
        )
    print(
        f"health refresh (POST) {result['health_refresh_ms']:.1f} ms; first context preview "
        f"{result['first_agent_preview_ms']:.1f} ms"
    )
    for key, value in result["figures"].items():
        verdict = "ok" if result["within_budget"][key] else "OVER"
        print(f"{key}: {value:.1f} (budget {BUDGET[key]}) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
