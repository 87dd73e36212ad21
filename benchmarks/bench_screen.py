"""Screening speed on 10 MB inputs, ordinary and hostile, against a bare whitespace split.

A catastrophic regex would show as a ratio in the thousands; the screen cuts to 1000
characters early, so its cost should stay within a small multiple of reading the text once.

Usage: python benchmarks/bench_screen.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics

from _common import timed

from memrepo.hygiene import screen

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
    args = parser.parse_args(argv)
    for name, text in INPUTS.items():
        ours = statistics.median(timed(lambda: screen(text)) for _ in range(args.runs))  # noqa: B023
        base = statistics.median(timed(text.split) for _ in range(args.runs))
        print(
            f"{name:20s} {len(text) / 1e6:5.1f} MB: screen {ours * 1000:8.1f} ms, "
            f"split {base * 1000:7.1f} ms, ratio {ours / base:6.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
