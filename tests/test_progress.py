"""Progress of long work (issue #18): library loops report to `memrepo.progress`, and the
CLI draws one self-overwriting line on stderr only when stderr is a terminal.

The CLI runs as its own process, stdout on a pipe and stderr on a real pseudo-terminal
(or a pipe), over a repo that imported a few hundred generated facts."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from memrepo import MemoryRepo, progress
from memrepo.cli.progress import INTERVAL, TerminalProgress, wants_progress
from memrepo.evals import run_evals

FACTS = 400
CONTACT_EVERY = 5  # every fifth fact names a contact: a memory item, not a folder entry
ITEMS = FACTS // CONTACT_EVERY
WIDTH = 120


# --- the seam ----------------------------------------------------------------------------


@dataclass
class Recorder:
    """A sink that keeps what it heard."""

    events: list[tuple[object, ...]] = field(default_factory=list)

    def start(self, label: str, total: int | None) -> None:
        self.events.append(("start", label, total))

    def advance(self, n: int = 1) -> None:
        self.events.append(("advance", n))

    def done(self) -> None:
        self.events.append(("done",))

    def steps(self, label: str) -> int:
        """The steps counted while the task `label` was the innermost one."""
        stack: list[str] = []
        counted = 0
        for event in self.events:
            if event[0] == "start":
                stack.append(str(event[1]))
            elif event[0] == "done":
                stack.pop()
            elif stack and stack[-1] == label:
                counted += int(str(event[1]))
        return counted


def test_tasks_nest_and_end_however_the_block_ends() -> None:
    heard = Recorder()
    with (
        progress.listening(heard),
        pytest.raises(RuntimeError),
        progress.task("outer", 2) as bar,
    ):
        bar.advance()
        with progress.task("inner"):
            progress.advance(3)
            raise RuntimeError("interrupted")
    assert heard.events == [
        ("start", "outer", 2),
        ("advance", 1),
        ("start", "inner", None),
        ("advance", 3),
        ("done",),
        ("done",),
    ]
    assert progress.current() is not heard  # the block put the previous sink back


def test_the_default_sink_and_other_threads_hear_nothing() -> None:
    heard = Recorder()
    seen_by_thread: list[object] = []
    with progress.listening(heard):
        worker = threading.Thread(target=lambda: seen_by_thread.append(progress.current()))
        worker.start()
        worker.join()
    assert seen_by_thread and seen_by_thread[0] is not heard
    with progress.task("nobody listens", 1) as bar:
        bar.advance()
    assert heard.events == []


@pytest.mark.slow
def test_a_rebuild_counts_every_document_it_indexes(memory_repo: MemoryRepo) -> None:
    for n in range(12):
        memory_repo.remember(f"Service number {n} deploys from the blue pipeline")
    memory_repo.remember("Ana prefers calls after noon", contact_ref="mail:ana@example.com")
    heard = Recorder()
    with progress.listening(heard):
        report = memory_repo.reindex()
    assert report.documents == 13
    assert heard.steps("indexing documents") == report.documents
    assert ("start", "writing the index", None) in heard.events
    assert heard.events.count(("done",)) == sum(1 for e in heard.events if e[0] == "start")


@pytest.mark.slow
def test_eval_counts_each_case_against_the_total(tmp_path: Path) -> None:
    fixtures = _eval_fixtures(tmp_path)
    heard = Recorder()
    with progress.listening(heard):
        report = run_evals(fixtures)
    assert report.overall.cases == 3
    assert heard.events[0] == ("start", "eval cases", 3)
    assert heard.steps("eval cases") == 3


# --- the terminal line -------------------------------------------------------------------


@dataclass
class Clock:
    now: float = 100.0

    def __call__(self) -> float:
        return self.now


def _frames(text: str) -> list[str]:
    """What each redraw left on the line."""
    return [part.strip() for part in text.replace("\r\n", "\n").split("\r") if part.strip()]


def _ends_wiped(text: str) -> bool:
    """The last thing written over the line is blank, and the cursor is back at column 0."""
    return text.endswith("\r") and text.rstrip("\r").rsplit("\r", 1)[-1].strip() == ""


def test_counting_redraws_at_most_every_interval() -> None:
    clock, out = Clock(), io.StringIO()
    sink = TerminalProgress(out, clock=clock, width=lambda: 80)
    sink.start("items", 1000)
    for _ in range(500):
        sink.advance()  # the same instant: no redraw
    clock.now += INTERVAL
    sink.advance()
    sink.advance()
    sink.done()
    assert _frames(out.getvalue()) == ["items 0/1,000 (0%)", "items 501/1,000 (50%)"]
    assert _ends_wiped(out.getvalue())
    assert "\x1b" not in out.getvalue()  # plain text: NO_COLOR and ANSI-less terminals


def test_stages_show_at_once_nested_and_cut_to_the_width() -> None:
    clock, out = Clock(), io.StringIO()
    sink = TerminalProgress(out, clock=clock, width=lambda: 30)
    sink.start("indexing documents", None)
    sink.advance(2000)
    sink.start("writing the index", None)  # counts nothing, still shown at once
    sink.done()
    sink.done()
    frames = _frames(out.getvalue())
    assert frames[:2] == ["indexing documents", "indexing documents 2,000 | wr"]
    assert all(len(frame) <= 29 for frame in frames)  # never the last column
    assert frames[-1] == "indexing documents 2,000"  # the outer task again, then the wipe
    assert _ends_wiped(out.getvalue())


def test_a_shorter_line_covers_the_longer_one() -> None:
    out = io.StringIO()
    sink = TerminalProgress(out, clock=Clock(), width=lambda: 80)
    sink.start("outer", None)
    sink.start("a long label for one stage", None)
    sink.done()
    longest, last = out.getvalue().split("\r")[-2:]
    assert longest == "outer | a long label for one stage"
    assert last.rstrip() == "outer" and len(last) == len(longest)


def test_progress_is_wanted_on_a_terminal_only() -> None:
    master, slave = pty.openpty()
    try:
        with open(slave, "w", closefd=False) as terminal:
            assert wants_progress(terminal, {"TERM": "xterm"})
            assert not wants_progress(terminal, {"TERM": "dumb"})
    finally:
        os.close(master)
        os.close(slave)
    assert not wants_progress(io.StringIO(), {"TERM": "xterm"})


# --- the real CLI --------------------------------------------------------------------------


@dataclass
class Ran:
    code: int
    out: str
    err: str

    def json(self) -> object:
        return json.loads(self.out)


def _env(term: str) -> dict[str, str]:
    return {**os.environ, "TERM": term, "NO_COLOR": "1"}


def _memrepo(
    root: Path, *argv: str, tty: bool, term: str = "xterm-256color", stop_at: str | None = None
) -> Ran:
    """Run `memrepo --repo ROOT ARGV` with stdout on a pipe and stderr on a terminal
    (`tty`) or a pipe. With `stop_at` (a pattern), Ctrl-C is sent once stderr shows it."""
    command = [sys.executable, "-m", "memrepo", "--repo", str(root), *argv]
    if not tty:
        done = subprocess.run(command, capture_output=True, text=True, env=_env(term), timeout=300)
        return Ran(done.returncode, done.stdout, done.stderr)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, WIDTH, 0, 0))
    heard = bytearray()
    with subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=_env(term)
    ) as proc:
        os.close(slave)
        interrupted = False

        def pump() -> None:
            nonlocal interrupted
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed its end
                    return
                if not data:
                    return
                heard.extend(data)
                shown = heard.decode("utf-8", errors="replace")
                if stop_at and not interrupted and re.search(stop_at, shown):
                    interrupted = True  # once: a second Ctrl-C would cut the clean exit short
                    proc.send_signal(signal.SIGINT)

        reader = threading.Thread(target=pump)
        reader.start()
        assert proc.stdout is not None
        out = proc.stdout.read().decode("utf-8")
        code = proc.wait(timeout=300)
        reader.join(timeout=60)
    os.close(master)
    return Ran(code, out, heard.decode("utf-8"))


def _eval_fixtures(tmp_path: Path) -> Path:
    folder = tmp_path / "evals"
    folder.mkdir()
    fixture = {
        "category": "progress",
        "description": "A small category for the progress line.",
        "setup": {"files": {"MEMORY.md": ["# Memory", "", "- Deploys run on Tuesdays"]}},
        "cases": [
            {"id": "p1", "query": "when do deploys run", "expect": ["Tuesdays"]},
            {"id": "p2", "query": "deploys", "expect": ["Deploys run"]},
            {"id": "p3", "query": "tuesday deploy", "expect": ["Tuesdays"]},
        ],
    }
    (folder / "progress.json").write_text(json.dumps(fixture), encoding="utf-8")
    return folder


def _facts(tmp_path: Path, count: int = FACTS) -> Path:
    dump = tmp_path / "facts.jsonl"
    with dump.open("w", encoding="utf-8") as out:
        for n in range(count):
            row: dict[str, str] = {"text": f"Service s{n} is built with tool t{n % 37} nightly"}
            if n % CONTACT_EVERY == 0:
                row["contact"] = f"mail:person{n}@example.com"
            out.write(json.dumps(row) + "\n")
    return dump


@pytest.fixture
def fresh_root(tmp_path: Path) -> Iterator[Path]:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.close()
    yield repo.root


def _each_command(root: Path, tmp_path: Path, *, tty: bool) -> dict[str, Ran]:
    """Import, the first recall (builds the index), reindex, both exports and eval."""
    dump, evals = _facts(tmp_path), _eval_fixtures(tmp_path)
    return {
        "import": _memrepo(root, "import", "--from", "jsonl", str(dump), "--json", tty=tty),
        "recall": _memrepo(root, "recall", "tool t5", "--json", tty=tty),
        "reindex": _memrepo(root, "reindex", "--json", tty=tty),
        "export": _memrepo(root, "export", str(tmp_path / "all.mrx"), "--json", tty=tty),
        "jsonl": _memrepo(
            root, "export", str(tmp_path / "f.jsonl"), "--format", "jsonl", "--json", tty=tty
        ),
        "eval": _memrepo(root, "eval", "--path", str(evals), "--json", tty=tty),
    }


EXPECTED_FRAMES = {
    "import": [
        r"^importing from JSONL \| reading facts",
        rf"^importing from JSONL \| writing memory items \d+/{ITEMS} \(\d+%\)$",
    ],
    "recall": [r"^indexing documents", r"\| writing the index$"],
    "reindex": [r"^indexing documents \d", r"\| writing the index$"],
    "export": [rf"^exporting \| memory items \d+/{ITEMS}", r"^exporting \| packing the git"],
    "jsonl": [rf"^exporting facts \d+/{FACTS:,} \(\d+%\)$"],
    "eval": [r"^eval cases \d/3 \(\d+%\)"],
}


@pytest.mark.slow
@pytest.mark.integration
def test_each_long_command_draws_progress_on_a_terminal(fresh_root: Path, tmp_path: Path) -> None:
    ran = _each_command(fresh_root, tmp_path, tty=True)
    for name, result in ran.items():
        assert result.code == 0, (name, result.err)
        result.json()  # stdout stays one JSON document
        frames = _frames(result.err)
        for pattern in EXPECTED_FRAMES[name]:
            assert any(re.search(pattern, frame) for frame in frames), (name, pattern, frames)
        assert all(len(frame) < WIDTH for frame in frames), name
        assert _ends_wiped(result.err), (name, result.err[-200:])
    imported = ran["import"].json()
    assert isinstance(imported, dict) and imported["facts"] == FACTS
    assert imported["items_written"] == ITEMS


@pytest.mark.slow
@pytest.mark.integration
def test_a_pipe_or_a_dumb_terminal_gets_no_progress(fresh_root: Path, tmp_path: Path) -> None:
    ran = _each_command(fresh_root, tmp_path, tty=False)
    for name, result in ran.items():
        assert (result.code, result.err) == (0, ""), name
        result.json()
    dumb = _memrepo(fresh_root, "reindex", "--json", tty=True, term="dumb")
    assert (dumb.code, dumb.err) == (0, "")
    reindexed = dumb.json()
    assert isinstance(reindexed, dict) and reindexed["documents"] == FACTS


@pytest.mark.integration
@pytest.mark.slow
def test_ctrl_c_leaves_the_terminal_line_clean(fresh_root: Path, tmp_path: Path) -> None:
    dump = _facts(tmp_path, count=4000)
    imported = _memrepo(fresh_root, "import", "--from", "jsonl", str(dump), tty=False)
    assert imported.code == 0, imported.err
    # Interrupted at its first frame: a rebuild of 4,000 documents takes seconds, and
    # the line only counts once the documents are read, near the end.
    ran = _memrepo(fresh_root, "reindex", tty=True, stop_at=r"indexing documents")
    assert ran.code == 130 and ran.out == ""
    before, said, after = ran.err.partition("memrepo: interrupted")
    assert said and after.strip() == ""
    assert any(frame.startswith("indexing documents") for frame in _frames(before))
    assert _ends_wiped(before)  # the message starts a clean line of its own
