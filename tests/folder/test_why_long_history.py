"""`why` over a long history: the right events, in bounded memory and in linear time.

The histories are real commits written with pygit2 (one file of 200 entries changed by
every commit, as a busy memory file is), checked against what the builder did.
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import pygit2
import pytest

from memrepo import MemoryRepo
from memrepo.formats import parse

pytestmark = pytest.mark.slow

FILE = "notes.md"


def _fact(n: int, version: int = 0) -> str:
    return f"- Fact {n} about part {n % 13} is at version {version} [by: agent; added: 2026-01-01]"


@dataclass
class History:
    """A memory repo whose main the test writes commit by commit, keeping every file."""

    root: Path
    repo: pygit2.Repository
    files: dict[str, bytes] = field(default_factory=dict)
    clock: int = 1_700_000_000

    def commit(self, message: str) -> str:
        builder = self.repo.TreeBuilder()
        for path, data in sorted(self.files.items()):
            builder.insert(path, self.repo.create_blob(data), pygit2.enums.FileMode.BLOB)
        self.clock += 60
        sig = pygit2.Signature("Test User", "test@example.com", self.clock, 0)
        head = self.repo.head.target
        trailers = "\n\nMemrepo-Origin: remember\nMemrepo-By: agent\n"
        return str(self.repo.create_commit("HEAD", sig, sig, message + trailers,
                                           builder.write(), [head]))  # fmt: skip


def _open(history: History) -> MemoryRepo:
    """The repo with its files checked out as main has them (the commits above were made
    without touching the work tree, which would otherwise read as a person's edits)."""
    history.repo.checkout_head(strategy=pygit2.enums.CheckoutStrategy.FORCE)  # type: ignore[no-untyped-call]
    return MemoryRepo.open(history.root)


def _start(tmp_path: Path) -> History:
    root = tmp_path / "mem"
    MemoryRepo.init(root)
    history = History(root, pygit2.Repository(str(root)))
    history.files = {
        "MEMORY.md": b"# Memory\n\n- The user likes short answers [by: user]\n\n## Index\n"
        b"- [[notes]]\n- [[ops]]\n",
        "ops.md": b"# Ops\n\n- Ops fact [by: user]\n",
    }
    return history


def _notes(lines: list[str]) -> bytes:
    return ("# Notes\n\nWhat we learned.\n\n" + "\n".join(lines) + "\n\n## Later\n").encode()


def _busy_history(history: History, commits: int) -> list[tuple[str, str, str | None, str]]:
    """Every commit changes notes.md; the followed entry (subject `deploy`) is added,
    changed, moved to ops.md and back, removed and re-added, and reworded. Returns the
    expected events as (action, commit, from_path, path)."""
    facts = [_fact(n) for n in range(200)]
    expected: list[tuple[str, str, str | None, str]] = []
    followed: str | None = None
    where = FILE
    for c in range(commits):
        facts[c * 31 % len(facts)] = _fact(c * 31 % len(facts), version=c)  # noise
        event: tuple[str, str | None, str] | None = None
        if c in (3, commits // 2 + 7):
            followed, event = (
                f"- Deploy on Tuesdays, take {c} [subject: deploy]",
                ("added", None, FILE),
            )
        elif c == commits // 4:
            event, where = ("moved", FILE, "ops.md"), "ops.md"
        elif c == commits // 4 + 5:
            event, where = ("moved", "ops.md", FILE), FILE
        elif c == commits // 2:
            followed, event = None, ("removed", None, where)
        elif followed is not None and c % 40 == 0:
            followed, event = (
                f"- Deploy on Tuesdays, take {c} [subject: deploy]",
                ("changed", None, where),
            )
        in_notes = [followed] if followed is not None and where == FILE else []
        history.files[FILE] = _notes(facts[:7] + in_notes + facts[7:])
        ops = b"# Ops\n\n- Ops fact [by: user]\n"
        if followed is not None and where == "ops.md":
            ops += (followed + "\n").encode()
        history.files["ops.md"] = ops
        commit = history.commit(f"step {c}")
        if event is not None:
            expected.append((event[0], commit, event[1], event[2]))
    return expected


def test_every_event_of_a_300_commit_history_is_found(tmp_path: Path) -> None:
    history = _start(tmp_path)
    expected = _busy_history(history, 300)
    memory = _open(history)

    report = memory.why("folder:notes.md#deploy")

    got = [(e.action, e.commit, e.from_path, e.path) for e in report.events]
    assert got == expected
    assert [a for a, *_ in expected] == [
        "added", "changed", "moved", "moved", "changed", "removed",
        "added", "changed", "changed", "changed", "changed",
    ]  # fmt: skip
    assert report.present and report.text.startswith("Deploy on Tuesdays, take 280")


def test_a_reworded_fact_in_a_long_history_reaches_its_first_version(tmp_path: Path) -> None:
    history = _start(tmp_path)
    facts = [_fact(n) for n in range(200)]
    commits = []
    for c in range(150):
        facts[c % 90] = _fact(c % 90, version=c)  # a change at another line each time
        if c == 10:
            facts.insert(100, "- Standup is at 9:30 [by: user]")
        if c == 90:
            facts[100] = "- Standup is at 10:00 [by: user]"
        history.files[FILE] = _notes(facts)
        commits.append(history.commit(f"step {c}"))
    memory = _open(history)
    [now] = [e for e in memory.entries(FILE) if "10:00" in e.text]

    report = memory.why(now.ref)

    assert [(e.action, e.commit) for e in report.events] == [
        ("added", commits[10]),
        ("changed", commits[90]),
    ]
    assert report.events[-1].previous_text == "Standup is at 9:30"


def test_commits_to_other_files_are_skipped_and_a_block_change_is_still_seen(
    tmp_path: Path,
) -> None:
    """A change elsewhere in the file that turns the entry into code is a removal, though
    the entry's own line never changed."""
    history = _start(tmp_path)
    facts = [_fact(n) for n in range(50)]
    history.files[FILE] = _notes(["- Keep the fence test [subject: fence]", *facts])
    added = history.commit("add")
    for c in range(40):
        history.files["ops.md"] += f"- ops {c} [by: agent]\n".encode()
        history.commit(f"ops {c}")
    history.files[FILE] = _notes(["```", "- Keep the fence test [subject: fence]", "```", *facts])
    fenced = history.commit("fence it")
    memory = _open(history)

    report = memory.why("folder:notes.md#fence")

    assert [(e.action, e.commit) for e in report.events] == [
        ("added", added),
        ("removed", fenced),
    ]


def _history_cost(tmp_path: Path, commits: int) -> tuple[float, float, float]:
    """why's seconds and peak MiB on a busy history, and the seconds a full parse of
    the file at every commit takes (the baseline: what holding every version costs)."""
    history = _start(tmp_path)
    _busy_history(history, commits)
    memory = _open(history)
    ref = "folder:notes.md#deploy"
    memory.why(ref)  # warm: imports, the first parse
    start = time.perf_counter()
    memory.why(ref)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    try:
        memory.why(ref)
        peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
    finally:
        tracemalloc.stop()
    repo = history.repo
    start = time.perf_counter()
    for commit in repo.walk(repo.head.target):
        if FILE in commit.tree:
            parse(repo.odb.read(commit.tree[FILE].id)[1], FILE).entries  # noqa: B018
    baseline = time.perf_counter() - start
    return seconds, peak, baseline


@pytest.mark.slow
def test_why_streams_a_long_history(tmp_path: Path) -> None:
    """Peak memory does not grow with the history (two versions of a 20 KB file and the
    events), and why costs less than parsing every version once."""
    _, short_peak, _ = _history_cost(tmp_path / "short", 100)
    long_s, long_peak, parse_all_s = _history_cost(tmp_path / "long", 600)

    assert long_peak < 4.0, f"peak {long_peak:.1f} MiB for 600 commits"
    assert long_peak < short_peak * 2 + 1.0
    assert long_s < parse_all_s, f"why {long_s:.3f} s, parsing every version {parse_all_s:.3f} s"
