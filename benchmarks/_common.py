"""Shared helpers for the benchmarks: a realistic repo, timing, and the git CLI baseline.

Budgets are ratios against a baseline measured in the same run on the same machine, so
they mean the same thing on a laptop and on CI.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memrepo import MemoryRepo

GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=GIT_ENV
    ).stdout


def topic_path(f: int) -> str:
    return f"topics/t{f % 25:02d}/file{f:03d}.md"


def build_repo(root: Path, files: int, entries_per_file: int) -> MemoryRepo:
    """A memory repo with `files` topic files of `entries_per_file` entries, all linked."""
    MemoryRepo.init(root)
    index_lines = []
    for f in range(files):
        path = root / topic_path(f)
        path.parent.mkdir(parents=True, exist_ok=True)
        # The shapes people write: frontmatter, a title, a paragraph, bullets, a section.
        lines = ["---", f"description: topic {f}", "---", f"# Topic {f}", "", "Intro text.", ""]
        lines += [
            f"- Fact {f}-{e} about component {e * 7 % 13} uses version 1.{e}.{f} "
            f"[source: memrepo://tasks/{f * 100 + e}; added: 2026-01-{e % 28 + 1:02d}; by: agent]"
            for e in range(entries_per_file)
        ]
        lines += ["", "## Notes", "", "More text about this topic."]
        path.write_text("\n".join(lines) + "\n")
        index_lines.append(f"- [[{topic_path(f)[:-3]}]]")
    (root / "MEMORY.md").write_text(
        "# Memory\n\n- The user prefers short answers [by: user]\n\n## Index\n"
        + "\n".join(index_lines)
        + "\n"
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench corpus")
    return MemoryRepo.open(root)


def copy_repo(source: Path) -> Path:
    """A full clone with a checked-out worktree (same files, same size)."""
    target = Path(tempfile.mkdtemp(prefix="memrepo-bench-copy-")) / "repo"
    subprocess.run(["git", "clone", "-q", str(source), str(target)], check=True, env=GIT_ENV)
    return target


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def peak_rss_mb() -> float:
    """This process's own peak resident memory, in MB.

    On Linux it is the address space's high-water mark (``VmHWM``), not ``ru_maxrss``:
    getrusage(2) keeps resource usage across ``execve``, and Python starts a child with
    ``vfork``, so a child's ``ru_maxrss`` starts at its parent's peak (a benchmark child
    started by a parent holding 420 MB reported 426 MB; the same child started from a
    shell, 211 MB). Elsewhere ``ru_maxrss`` is all there is.
    """
    try:
        # The Name line is the process name as the kernel keeps it: any bytes.
        with open("/proc/self/status", encoding="utf-8", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


@dataclass(frozen=True, slots=True)
class Timing:
    """p50 and p95 of one series, in milliseconds."""

    n: int
    p50_ms: float
    p95_ms: float

    @classmethod
    def of(cls, seconds: list[float]) -> Timing:
        return cls(len(seconds), percentile(seconds, 0.5) * 1000, percentile(seconds, 0.95) * 1000)


@contextmanager
def git_daemon(base: Path) -> Iterator[int]:
    """A real `git daemon` on a free loopback port serving `base`, pushes allowed (as
    tests/sync/conftest starts one); killed with its process group on exit."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    command = [
        "git", "daemon", "--reuseaddr", f"--base-path={base}", "--export-all",
        "--enable=receive-pack", f"--port={port}", "--listen=127.0.0.1", str(base),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, start_new_session=True, env=GIT_ENV,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class RawWhoosh:
    """The engine alone: memrepo's own index directory opened with plain Whoosh, the same
    query clauses searched (no visibility, lanes, fusion or freshness check), the stored
    text of the top 10 read. What recall costs beyond this is memrepo's own code.

    Stock Whoosh throughout: its BM25F (memrepo scores with `FastBM25F`) and its own
    ``Or`` over the clauses, which on an index of under 5,000 documents preloads every
    match (memrepo's `AnyWord` matches them as a tree of unions, as Whoosh does on larger
    indexes). What memrepo saves in the engine counts for it, as it would for a person
    choosing between the two.
    """

    def __init__(self, repo: MemoryRepo) -> None:
        from whoosh import index as whoosh_index

        from memrepo.index.store import WEIGHTING

        self.ix = whoosh_index.open_dir(str(repo.folder.state_dir / "index"))
        self.searcher = self.ix.searcher(weighting=WEIGHTING)

    def search(self, query: str) -> list[str]:
        from whoosh.query import Or

        from memrepo.index import build_query

        words = build_query(query).words
        if isinstance(words, Or):
            words = Or(list(words.subqueries))  # stock Whoosh: its own choice of matcher
        hits = self.searcher.search(words, limit=10)
        return [hit["text"] for hit in hits]

    def close(self) -> None:
        self.searcher.close()
        self.ix.close()
