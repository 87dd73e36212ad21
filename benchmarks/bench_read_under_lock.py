"""Recall while another process holds the write lock, against recall when idle (issue #28).

Budget: for each way a client reads (MCP over stdio, MCP over Streamable HTTP, the CLI's
`memrepo recall`), recall p95 while another process holds the write lock (and, for the
servers, a `memory_remember` of the same client waits for it) <= 2x recall p95 when
idle. Each round times both phases of every way in turns in one run, on one repo; the
figure is the median over rounds of the per-round ratio, so machine noise between
rounds cancels. CPU time of this process and every process under it (the servers, the
CLI, the lock holder: read from /proc) is reported beside wall time, per phase.

Usage: python benchmarks/bench_read_under_lock.py [--entries 10000] [--calls 40]
       [--cli-calls 8] [--rounds 3] [--seed 11] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from _common import percentile
from bench_mcp import PROJECT, http_client, http_server, server_env, stdio_client, via
from bench_recall import build, corpus, queries
from mcp import Client

from memrepo import MemoryRepo

BUDGET = {"stdio_ratio": 2.0, "http_ratio": 2.0, "cli_ratio": 2.0}
HOLD = (
    "import fcntl, sys\n"
    "f = open(sys.argv[1], 'a')\n"
    "fcntl.flock(f, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)
Call = Callable[[str], Awaitable[Any]]


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process, every live process under it and
    every child already waited for (a CLI call that ended)."""
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    mine, total = {os.getpid()}, 0.0
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    for pid in mine:
        total += used.get(pid, 0.0)
    return total + ended.ru_utime + ended.ru_stime


@asynccontextmanager
async def lock_held(root: Path) -> AsyncIterator[None]:
    """Another process holding the repo's write lock for the block."""
    lock = root / ".git" / "memrepo" / "write.lock"
    holder = await anyio.open_process([sys.executable, "-c", HOLD, str(lock)])
    assert holder.stdout is not None and holder.stdin is not None
    assert (await holder.stdout.receive()).startswith(b"held")
    try:
        yield
    finally:
        await holder.stdin.aclose()
        await holder.wait()
        await holder.aclose()


def cli(root: Path) -> Call:
    async def call(query: str) -> Any:
        command = [sys.executable, "-m", "memrepo.cli", "--repo", str(root), "recall", query]
        done = await anyio.run_process(command, env=server_env(), cwd=PROJECT, check=True)
        return done.stdout

    return call


async def phase(call: Call, qs: list[str]) -> dict[str, float]:
    latencies: list[float] = []
    wall, cpu = time.perf_counter(), tree_cpu()
    for query in qs:
        started = time.perf_counter()
        await call(query)
        latencies.append(time.perf_counter() - started)
    return {
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
        "wall_s": time.perf_counter() - wall,
        "cpu_s": tree_cpu() - cpu,
    }


async def locked_phase(
    root: Path, call: Call, qs: list[str], writer: Client | None, n: str
) -> dict[str, float]:
    """`qs` recalled while the lock is held and (for a server) a remember waits for it;
    the remember lands once the lock is released."""
    async with anyio.create_task_group() as group, lock_held(root):
        if writer is not None:

            async def remember() -> None:
                result = await writer.call_tool("memory_remember", {"text": f"Held write {n}"})
                if result.is_error:
                    raise RuntimeError(f"memory_remember failed: {result.content}")

            group.start_soon(remember)
            await anyio.sleep(0.2)  # the remember reaches the lock before the reads
        timing = await phase(call, qs)
    return timing


async def measure(root: Path, args: argparse.Namespace, qs: list[str], log: Path) -> Any:
    rounds: list[dict[str, Any]] = []
    async with (
        stdio_client(root) as stdio,
        http_server(root, log) as url,
        http_client(url, "legacy") as http,
        http_client(url, "legacy") as http_writer,
    ):
        ways: dict[str, tuple[Call, Client | None, list[str]]] = {
            "stdio": (via(stdio), stdio, qs),
            "http": (via(http), http_writer, qs),
            "cli": (cli(root), None, qs[: args.cli_calls]),
        }
        for call, _, some in ways.values():  # warm: index open, caches, imports
            for query in some[:3]:
                await call(query)
        for n in range(args.rounds):
            figures: dict[str, Any] = {}
            for name, (call, writer, some) in ways.items():
                idle = await phase(call, some)
                held = await locked_phase(root, call, some, writer, f"{n} over {name}")
                figures[name] = {
                    "idle": idle,
                    "locked": held,
                    "ratio": held["p95_ms"] / idle["p95_ms"],
                }
            rounds.append(figures)
    return rounds


def commits(root: Path) -> int:
    log = subprocess.run(
        ["git", "-C", str(root), "rev-list", "--count", "HEAD"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(log.stdout)


def run(args: argparse.Namespace) -> dict[str, Any]:
    texts = corpus(args.entries, args.seed)
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-lock-"))
    root = work / "repo"
    build(root, texts)
    with MemoryRepo.open(root) as repo:
        repo.reindex()
    qs = queries(texts, args.calls, args.seed)
    before = commits(root)
    rounds = anyio.run(measure, root, args, qs, work / "http-server.log")
    figures = {
        f"{way}_ratio": statistics.median(r[way]["ratio"] for r in rounds)
        for way in ("stdio", "http", "cli")
    }
    return {
        "entries": args.entries,
        "calls": args.calls,
        "cli_calls": args.cli_calls,
        "rounds": rounds,
        # One remember per server per round waited for the lock; each must land whole.
        "held_writes_landed": commits(root) - before,
        "figures": figures,
        "budget": BUDGET,
        "within_budget": {key: value <= BUDGET[key] for key, value in figures.items()},
    }


def describe(result: dict[str, Any]) -> str:
    lines = [
        f"{result['entries']} entries, {result['calls']} recalls per phase "
        f"({result['cli_calls']} for the CLI), {len(result['rounds'])} rounds (medians)",
        "",
        "| way | idle p95 | locked p95 | ratio | idle CPU / wall | locked CPU / wall |",
        "|---|---|---|---|---|---|",
    ]
    for way in ("stdio", "http", "cli"):
        rows = [r[way] for r in result["rounds"]]

        def med(phase: str, key: str, rows: list[dict[str, Any]] = rows) -> float:
            return float(statistics.median(row[phase][key] for row in rows))

        lines.append(
            f"| {way} | {med('idle', 'p95_ms'):.1f} ms | {med('locked', 'p95_ms'):.1f} ms "
            f"| {result['figures'][f'{way}_ratio']:.2f}x "
            f"| {med('idle', 'cpu_s'):.2f} s / {med('idle', 'wall_s'):.2f} s "
            f"| {med('locked', 'cpu_s'):.2f} s / {med('locked', 'wall_s'):.2f} s |"
        )
    lines.append("")
    for key, value in result["figures"].items():
        verdict = "ok" if result["within_budget"][key] else "OVER"
        lines.append(f"{key}: {value:.2f} (budget {BUDGET[key]}) {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=40, help="recalls per phase (servers)")
    parser.add_argument("--cli-calls", type=int, default=8, help="recalls per phase (CLI)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    print(json.dumps(result, indent=2) if args.json else describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
