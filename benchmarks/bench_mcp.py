"""What MCP adds to a memory_recall: stdio and HTTP round trips against a direct call.

Budgets (issue #17, "Measure"), on the corpus of bench_recall.py (10,000 entries by
default), each figure the median over --rounds rounds:
- stdio: the p50 of (a `memory_recall` through the SDK's stdio client and `memrepo mcp`,
  minus a direct `MemoryTools.dispatch("memory_recall", ...)` of the same query in this
  process) <= 3 ms;
- HTTP: the same through the SDK's Streamable HTTP client and `memrepo mcp --http` on
  127.0.0.1, bearer token on, <= 5 ms. Measured in both protocol eras: `modern` (the
  2026 per-request era the SDK client picks by default) and `session` (the initialize
  handshake and an Mcp-Session-Id, as today's hosts speak it); the budget holds for both;
- 20 clients x 50 calls over HTTP at once (each its own session, all sessions open
  together): 0 errors; throughput and p95 latency reported, beside the direct call's
  sequential throughput for scale;
- the same 20 clients on a mixed load against one client doing the same mix, in turns
  in one run (issue #28): recall-only >= 3x one client's calls/s, 50/50
  recall/remember >= 2x, 0 errors, 0 lost writes (every remembered marker is in HEAD's
  tree or memory_items), `git fsck` clean; the median over --rounds rounds.

For where the overhead goes, not budgets: the same calls as hand-written JSON-RPC (stdio
lines, 2026-era POSTs) without the SDK's client, and the HTTP server's own time per call
from its log. Each query runs once per way per round, the ways in rotating order, so
warm caches and machine noise favour none of them. The servers are processes of their own
on the same repo and index, warmed up like the direct side before anything is timed.

Usage: python benchmarks/bench_mcp.py [--entries 10000] [--calls 200] [--rounds 3]
       [--clients 20] [--client-calls 50] [--seed 11] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any, Literal

import anyio
import httpx2
from _common import GIT_ENV, Timing, percentile
from anyio.streams.buffered import BufferedByteReceiveStream
from bench_recall import build, corpus, queries
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext

BUDGET = {
    "stdio_overhead_p50_ms": 3.0,
    "http_overhead_p50_ms": 5.0,
    "http_session_overhead_p50_ms": 5.0,
    "concurrent_errors": 0,
    "recall_only_speedup": -3.0,  # at least 3x: negated so every budget is an upper bound
    "mixed_speedup": -2.0,
    "mixed_errors": 0,
    "lost_writes": 0,
    "fsck_problems": 0,
}
#: Remember calls of the mixed load carry one of these, so a lost write can be found.
MARKER = "mixload"
PROJECT = Path(__file__).resolve().parent.parent
TASK = "bench-mcp"
TOKEN = "bench-mcp-token-0123456789abcdef"
WARMUP = 10
STARTUP_PATIENCE = 120.0
TOOL = "memory_recall"
#: Every way measured against the direct call, with its label in the table.
WAYS = {
    "stdio": "stdio",
    "http": "HTTP",
    "http_session": "HTTP session",
    "stdio_raw": "stdio, no SDK client",
    "http_raw": "HTTP, no SDK client",
}
HTTP_WAYS = ("http", "http_session", "http_raw")

Call = Callable[[str], Awaitable[Any]]


def server_env() -> dict[str, str]:
    env = dict(GIT_ENV)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH")]))
    env["MEMREPO_MCP_TOKEN"] = TOKEN
    return env


def memrepo(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memrepo.cli", "--repo", str(root), "mcp", "--task", TASK, *args]


# --- the servers --------------------------------------------------------------------------


@asynccontextmanager
async def http_server(root: Path, log: Path, *extra: str) -> AsyncIterator[str]:
    """`memrepo mcp --http` on a free loopback port; its URL. Stopped with Ctrl-C (and
    killed if that does not do) on the way out."""
    with open(log, "w", encoding="utf-8") as sink:
        process = subprocess.Popen(
            memrepo(root, "--http", "--port", "0", *extra),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=sink,
            env=server_env(), cwd=PROJECT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_PATIENCE
        while "serving http://" not in log.read_text(encoding="utf-8"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"memrepo mcp --http did not start:\n{log.read_text()}")
            await anyio.sleep(0.05)
        text = log.read_text(encoding="utf-8")
        yield text.split("serving ", 1)[1].split()[0]
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            await anyio.to_thread.run_sync(lambda: process.wait(timeout=30))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@asynccontextmanager
async def http_client(url: str, mode: Literal["auto", "legacy"]) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120.0)) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        yield client


def stdio_client(root: Path) -> Client:
    params = StdioServerParameters(
        command=sys.executable, args=memrepo(root)[1:], env=server_env(), cwd=str(PROJECT)
    )
    return Client(params)


def via(client: Client) -> Call:
    async def call(query: str) -> Any:
        result = await client.call_tool(TOOL, {"query": query})
        if result.is_error:
            raise RuntimeError(f"{TOOL} failed: {result.content}")
        return result.structured_content

    return call


# Without the SDK's client: the same calls as JSON-RPC written by hand, to tell what the
# server and the pipe cost from what the Python client adds (parsing into models,
# validating the result against the tool's output schema).
MODERN = MODERN_PROTOCOL_VERSIONS[-1]
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "bench-mcp", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _result(reply: dict[str, Any]) -> Any:
    result = reply.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        raise RuntimeError(f"{TOOL} failed: {reply}")
    return result["structuredContent"]


def _request(n: int, method: str, params: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": method, "params": params}).encode()


@asynccontextmanager
async def raw_http(url: str) -> AsyncIterator[Call]:
    """tools/call POSTs of the 2026 era (no session), keep-alive, no SDK client."""
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": TOOL,
    }
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120.0)) as http:

        async def call(query: str) -> Any:
            params = {"name": TOOL, "arguments": {"query": query}, "_meta": META}
            response = await http.post(url, content=_request(1, "tools/call", params))
            return _result(response.json())

        yield call


@asynccontextmanager
async def raw_stdio(root: Path) -> AsyncIterator[Call]:
    """`memrepo mcp` with JSON-RPC lines written to its stdin by hand: the handshake,
    then tools/call, one at a time."""
    process = await anyio.open_process(
        memrepo(root), env=server_env(), cwd=PROJECT, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, lines = process.stdin, BufferedByteReceiveStream(process.stdout)
    ids = itertools.count(1)

    async def rpc(method: str, params: dict[str, Any]) -> dict[str, Any]:
        n = next(ids)
        await stdin.send(_request(n, method, params) + b"\n")
        while True:  # skip notifications; answers come in order, one call at a time
            reply: dict[str, Any] = json.loads(await lines.receive_until(b"\n", 64 * 2**20))
            if reply.get("id") == n:
                return reply

    try:
        client = {"name": "bench-mcp", "version": "1"}
        opening = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
        await rpc("initialize", opening)
        await stdin.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')

        async def call(query: str) -> Any:
            return _result(await rpc("tools/call", {"name": TOOL, "arguments": {"query": query}}))

        yield call
    finally:
        await stdin.aclose()  # end of input: the server exits
        with anyio.move_on_after(30):
            await process.wait()
        if process.returncode is None:
            process.kill()
        await process.aclose()


# --- measurements -------------------------------------------------------------------------


async def timed_call(call: Call, query: str) -> float:
    started = time.perf_counter()
    await call(query)
    return time.perf_counter() - started


def overhead(round_trips: list[float], direct: list[float]) -> dict[str, Any]:
    """Per query: the round trip minus the direct call of the same query."""
    extra = [mcp - bare for mcp, bare in zip(round_trips, direct, strict=True)]
    return {"round_trip": asdict(Timing.of(round_trips)), "overhead": asdict(Timing.of(extra))}


async def one_round(ways: dict[str, Call], qs: list[str]) -> dict[str, Any]:
    series: dict[str, list[float]] = {name: [] for name in ways}
    names = list(ways)
    for n, query in enumerate(qs):
        shift = n % len(names)
        for name in names[shift:] + names[:shift]:
            series[name].append(await timed_call(ways[name], query))
    direct = series.pop("direct")
    return {"direct": asdict(Timing.of(direct))} | {
        name: overhead(values, direct) for name, values in series.items()
    }


async def concurrent(url: str, qs: list[str], clients: int, calls: int) -> dict[str, Any]:
    """`clients` sessions opened first, then all calling at once, `calls` each."""
    latencies: list[float] = []
    errors: list[str] = []
    async with AsyncExitStack() as stack:
        sessions = [
            await stack.enter_async_context(http_client(url, "legacy")) for _ in range(clients)
        ]

        async def drive(k: int, session: Client) -> None:
            call = via(session)
            for j in range(calls):
                query = qs[(k * calls + j) % len(qs)]
                try:
                    latencies.append(await timed_call(call, query))
                except Exception as exc:  # counted, never hidden: the figure is the count
                    errors.append(f"{type(exc).__name__}: {exc}")

        started = time.perf_counter()
        async with anyio.create_task_group() as group:
            for k, session in enumerate(sessions):
                group.start_soon(drive, k, session)
        wall = time.perf_counter() - started
    return {
        "clients": clients,
        "calls_per_client": calls,
        "calls": len(latencies) + len(errors),
        "errors": len(errors),
        "first_errors": errors[:5],
        "seconds": wall,
        "calls_per_second": len(latencies) / wall if wall else 0.0,
        "latency": asdict(Timing.of(latencies)) if latencies else None,
    }


async def mixed_load(
    url: str, qs: list[str], clients: int, calls: int, write_every: int, tag: str
) -> dict[str, Any]:
    """`clients` sessions at once, `calls` each; every `write_every`-th call of a client
    is a `memory_remember` of a unique marked fact (0: recalls only)."""
    latencies: list[float] = []
    errors: list[str] = []
    written: list[str] = []
    async with AsyncExitStack() as stack:
        sessions = [
            await stack.enter_async_context(http_client(url, "legacy")) for _ in range(clients)
        ]

        async def drive(k: int, session: Client) -> None:
            for j in range(calls):
                writes = write_every and j % write_every == write_every - 1
                marker = f"{MARKER}{tag}c{k}w{j}"
                name, arguments = (
                    ("memory_remember", {"text": f"Fact {marker} about deploys"})
                    if writes
                    else (TOOL, {"query": qs[(k * calls + j) % len(qs)]})
                )
                started = time.perf_counter()
                try:
                    result = await session.call_tool(name, arguments)
                    if result.is_error:
                        raise RuntimeError(str(result.content)[:200])
                except Exception as exc:  # counted, never hidden: the figure is the count
                    errors.append(f"{name}: {type(exc).__name__}: {exc}")
                    continue
                latencies.append(time.perf_counter() - started)
                if writes:
                    written.append(marker)

        started = time.perf_counter()
        async with anyio.create_task_group() as group:
            for k, session in enumerate(sessions):
                group.start_soon(drive, k, session)
        wall = time.perf_counter() - started
    return {
        "clients": clients,
        "calls": len(latencies) + len(errors),
        "errors": len(errors),
        "first_errors": errors[:5],
        "written": written,
        "calls_per_second": len(latencies) / wall if wall else 0.0,
        "latency": asdict(Timing.of(latencies)) if latencies else None,
    }


async def mixed_rounds(url: str, qs: list[str], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Per round and mix: one client, then `--clients` clients, the same calls each."""
    rounds = []
    for n in range(args.rounds):
        figures: dict[str, Any] = {}
        for mix, every in (("recall_only", 0), ("mixed", 2)):
            one = await mixed_load(url, qs, 1, args.client_calls, every, f"r{n}{mix}one")
            many = await mixed_load(
                url, qs, args.clients, args.client_calls, every, f"r{n}{mix}many"
            )
            speedup = many["calls_per_second"] / one["calls_per_second"]
            figures[mix] = {"one": one, "many": many, "speedup": speedup}
        rounds.append(figures)
    return rounds


def lost_writes(root: Path, rounds: list[dict[str, Any]]) -> list[str]:
    """Markers of remembers that answered written but are in neither HEAD nor the items."""
    markers = {
        marker
        for one in rounds
        for mix in one.values()
        for side in ("one", "many")
        for marker in mix[side]["written"]
    }
    tree = subprocess.run(
        ["git", "-C", str(root), "grep", "-h", "-o", "-E", f"{MARKER}[a-z0-9_]+", "HEAD"],
        capture_output=True, text=True, env=GIT_ENV,
    ).stdout  # fmt: skip
    found = {line.split(":", 1)[-1] for line in tree.splitlines()}
    missing = markers - found
    if missing:  # an item of memory_items is not in git: ask the store itself
        with MemoryRepo.open(root) as repo:
            tools = MemoryTools(repo, ToolContext(task_id=TASK))
            for marker in list(missing):
                hits = tools.dispatch(TOOL, {"query": marker, "limit": 3})["hits"]
                if any(marker in hit["text"] for hit in hits):
                    missing.discard(marker)
    return sorted(missing)


def fsck_problems(root: Path) -> int:
    check = subprocess.run(
        ["git", "-C", str(root), "fsck", "--strict"], capture_output=True, text=True, env=GIT_ENV
    )
    return 0 if check.returncode == 0 else max(1, len(check.stdout.splitlines()))


async def measure(root: Path, args: argparse.Namespace, qs: list[str], log: Path) -> Any:
    repo = MemoryRepo.open(root)
    tools = MemoryTools(repo, ToolContext(task_id=TASK))

    async def direct(query: str) -> Any:
        return tools.dispatch(TOOL, {"query": query})

    try:
        async with (
            stdio_client(root) as stdio,
            http_server(root, log, *server_options(args)) as url,
            http_client(url, "auto") as modern,
            http_client(url, "legacy") as session,
            raw_stdio(root) as stdio_raw,
            raw_http(url) as http_raw,
        ):
            ways = {
                "direct": direct,
                "stdio": via(stdio),
                "http": via(modern),
                "http_session": via(session),
                "stdio_raw": stdio_raw,
                "http_raw": http_raw,
            }
            for query in qs[:WARMUP]:
                for call in ways.values():
                    await call(query)
            rounds = [await one_round(ways, qs) for _ in range(args.rounds)]
            sequential = [await timed_call(direct, q) for q in qs]
            load = await concurrent(url, qs, args.clients, args.client_calls)
            mixes = await mixed_rounds(url, qs, args)
    finally:
        repo.close()
    return rounds, sequential, load, mixes


def server_side(lines: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """What the HTTP server itself spent on the timed calls, from its own log (request in
    to response out, the recall included): the rest of a round trip is the client and
    the loopback."""
    spent = [
        float(match.group(1))
        for line in lines
        if (match := re.search(r"tools/call memory_recall -> 200 in ([\d.]+) ms", line))
    ]
    ways = len(HTTP_WAYS)
    timed_calls = spent[ways * WARMUP : ways * (WARMUP + args.rounds * args.calls)]
    return {
        "lines": len(lines),
        "tools_call_200": len(spent),
        "timed_calls": len(timed_calls),
        "timed_p50_ms": statistics.median(timed_calls) if timed_calls else None,
        "stopped_cleanly": bool(lines) and lines[-1].endswith("stopped"),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    load_before = os.getloadavg()
    texts = corpus(args.entries, args.seed)
    work = Path(tempfile.mkdtemp(prefix="memrepo-bench-mcp-"))
    root = work / "repo"
    build(root, texts)
    with MemoryRepo.open(root) as repo:
        repo.reindex()
    qs = queries(texts, args.calls, args.seed)
    log = work / "http-server.log"
    rounds, sequential, load, mixes = anyio.run(measure, root, args, qs, log)
    speedup = {
        mix: statistics.median(one[mix]["speedup"] for one in mixes)
        for mix in ("recall_only", "mixed")
    }
    median = {
        f"{way}_overhead_{q}_ms": statistics.median(r[way]["overhead"][f"{q}_ms"] for r in rounds)
        for way in WAYS
        for q in ("p50", "p95")
    }
    figures = {
        "stdio_overhead_p50_ms": median["stdio_overhead_p50_ms"],
        "http_overhead_p50_ms": median["http_overhead_p50_ms"],
        "http_session_overhead_p50_ms": median["http_session_overhead_p50_ms"],
        "concurrent_errors": load["errors"],
        "recall_only_speedup": -speedup["recall_only"],
        "mixed_speedup": -speedup["mixed"],
        "mixed_errors": sum(
            one[mix][side]["errors"] for one in mixes for mix in one for side in ("one", "many")
        ),
        "lost_writes": len(lost_writes(root, mixes)),
        "fsck_problems": fsck_problems(root),
    }
    server_lines = log.read_text(encoding="utf-8").splitlines()
    return {
        "entries": args.entries,
        "calls": args.calls,
        "rounds": rounds,
        "median": median,
        "direct_calls_per_second": len(sequential) / sum(sequential),
        "direct_p50_ms": percentile(sequential, 0.5) * 1000,
        "concurrent": load,
        "mixed_load": mixes,
        "http_server_log": server_side(server_lines, args),
        # Other work on the machine delays every process wake-up a round trip needs.
        "load_average": {"before": load_before[0], "after": os.getloadavg()[0]},
        "figures": figures,
        "budget": BUDGET,
        "within_budget": {key: value <= BUDGET[key] for key, value in figures.items()},
    }


def describe(result: dict[str, Any]) -> str:
    med, load = result["median"], result["concurrent"]
    lines = [
        f"{result['entries']} entries, {result['calls']} calls per way per round, "
        f"{len(result['rounds'])} rounds (medians of the rounds)",
        "",
        "| way | round trip p50 | round trip p95 | overhead p50 | overhead p95 |",
        "|---|---|---|---|---|",
    ]
    direct_p50 = statistics.median(r["direct"]["p50_ms"] for r in result["rounds"])
    direct_p95 = statistics.median(r["direct"]["p95_ms"] for r in result["rounds"])
    lines.append(f"| direct dispatch | {direct_p50:.2f} ms | {direct_p95:.2f} ms | - | - |")
    for way, label in WAYS.items():
        p50 = statistics.median(r[way]["round_trip"]["p50_ms"] for r in result["rounds"])
        p95 = statistics.median(r[way]["round_trip"]["p95_ms"] for r in result["rounds"])
        lines.append(
            f"| {label} | {p50:.2f} ms | {p95:.2f} ms | {med[f'{way}_overhead_p50_ms']:.2f} ms "
            f"| {med[f'{way}_overhead_p95_ms']:.2f} ms |"
        )
    latency = load["latency"] or {"p50_ms": 0.0, "p95_ms": 0.0}
    server, machine = result["http_server_log"], result["load_average"]
    if server["timed_p50_ms"] is not None:
        lines.append(
            f"HTTP server side (its own log, recall included): p50 {server['timed_p50_ms']:.2f} ms"
            f" against {direct_p50:.2f} ms direct"
        )
    lines.append(f"load average: {machine['before']:.2f} before, {machine['after']:.2f} after")
    lines += [
        "",
        f"{load['clients']} clients x {load['calls_per_client']} calls over HTTP: "
        f"{load['calls_per_second']:.0f} calls/s, p50 {latency['p50_ms']:.1f} ms, "
        f"p95 {latency['p95_ms']:.1f} ms, {load['errors']} errors "
        f"(direct calls one after another: {result['direct_calls_per_second']:.0f} calls/s)",
        "",
    ]
    lines += [*mixed_table(result["mixed_load"]), ""]
    for key, value in result["figures"].items():
        verdict = "ok" if result["within_budget"][key] else "OVER"
        lines.append(f"{key}: {value:.2f} (budget {BUDGET[key]}) {verdict}")
    return "\n".join(lines)


def server_options(args: argparse.Namespace) -> list[str]:
    """The HTTP server's options this run sets (`--read-processes` to compare with threads)."""
    if args.read_processes is None:
        return []
    return ["--read-processes", str(args.read_processes)]


def mixed_table(mixes: list[dict[str, Any]]) -> list[str]:
    lines = [
        "",
        "| mix | 1 client calls/s | N clients calls/s | speedup | N clients p95 | errors |",
        "|---|---|---|---|---|---|",
    ]
    for mix in ("recall_only", "mixed"):
        rows = [one[mix] for one in mixes]
        p95 = statistics.median((r["many"]["latency"] or {}).get("p95_ms", 0) for r in rows)
        lines.append(
            f"| {mix} | {statistics.median(r['one']['calls_per_second'] for r in rows):.1f} "
            f"| {statistics.median(r['many']['calls_per_second'] for r in rows):.1f} "
            f"| {statistics.median(r['speedup'] for r in rows):.2f}x "
            f"| {p95:.0f} ms "
            f"| {sum(r['one']['errors'] + r['many']['errors'] for r in rows)} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=200, help="queries per way per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--client-calls", type=int, default=50)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--read-processes", type=int, help="the HTTP server's (default: its own default)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    print(json.dumps(result, indent=2) if args.json else describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
