"""Screening speed: per memory line and per 2,000 characters of prose (the hot path of
remember, import and dreams), and on 10 MB inputs, ordinary and hostile, against a bare
whitespace split.

A catastrophic regex would show as a ratio in the thousands; the screen cuts to 1000
characters early, so its cost should stay within a small multiple of reading the text once.
The small inputs are timed in CPU time (process_time), the best of --runs batches, so a
busy machine moves them less.

Usage: python benchmarks/bench_screen.py [--runs 3] [--small-only] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from _common import timed

from memrepo.hygiene import screen

#: Small inputs, timed per call: what screening costs each write.
SMALL = {
    "memory line": (
        "Fact 72: session invoice release review plugin [sources: memrepo://tasks/72, "
        "memrepo://tasks/99; added: 2025-01-17; by: agent]"
    ),
    "prose 2000": (
        "The team met on Tuesday to discuss the roadmap for the next quarter and agreed that "
        "the migration to the new storage layer should happen before any further feature "
        "work. " * 12
    )[:2000],
    "notes 2000": (
        "Deploy notes: the key for staging rotates monthly; token refresh happens at 02:00, "
        "build 2024.1.3 uses https://example.com/api?id=42 and the password policy says 12 "
        "chars. " * 12
    )[:2000],
}

INPUTS = {
    "prose with secrets": (
        "The build uses token=abc123XYZ789 and https://u:p4ss@h.io and 4111 1111 1111 1111. "
        "Lorem ipsum dolor sit amet; secret: keep it. "
    )
    * 80_000,
    "pem without end": "-----BEGIN RSA PRIVATE KEY----- " + "QUJD " * 2_000_000,
    "base64 run": "eyJ" * 3_400_000,
    "digit groups": "4111 " * 2_000_000,
    "keywords": "password=" * 1_100_000,
    "brackets": "[" * 5_000_000 + "]" * 5_000_000,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--small-only", action="store_true", help="skip the 10 MB inputs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    small = {name: _per_call_us(text, args.runs) for name, text in SMALL.items()}
    if args.json:
        print(json.dumps({"per_call_us": small}))
    else:
        for name, micros in small.items():
            print(f"{name:20s} {len(SMALL[name]):5d} chars: screen {micros:8.1f} us per call")
    if args.small_only:
        return 0
    for name, text in INPUTS.items():
        ours = statistics.median(timed(lambda: screen(text)) for _ in range(args.runs))  # noqa: B023
        base = statistics.median(timed(text.split) for _ in range(args.runs))
        print(
            f"{name:20s} {len(text) / 1e6:5.1f} MB: screen {ours * 1000:8.1f} ms, "
            f"split {base * 1000:7.1f} ms, ratio {ours / base:6.2f}"
        )
    return 0


def _per_call_us(text: str, runs: int, calls: int = 500) -> float:
    """Best of ``runs`` batches of ``calls`` screens, in CPU microseconds per call."""
    best = float("inf")
    for _ in range(max(1, runs)):
        start = time.process_time()
        for _ in range(calls):
            screen(text)
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


if __name__ == "__main__":
    raise SystemExit(main())
