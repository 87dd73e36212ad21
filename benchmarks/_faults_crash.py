"""Part 1 of the fault suite: a `remember` killed at each step of its write, then a hand
edit of the same file, `memrepo status`, and `memrepo remember`.

The steps of a write, as seen from outside: the crash journal is written, the worktree
file is renamed into place, main's ref is locked and renamed, git's index is locked and
renamed, the journal is unlinked. Three ways to stop a real write at one of them:

- strace: `strace -e inject=SYSCALL:signal=KILL` SIGKILLs the real `memrepo remember`
  process on entry to the first syscall of the next step (the syscall never runs), so
  every step is hit every time, and memrepo cannot know it is under test;
- constructed: the state each step leaves is built with pygit2 (the journal written as
  `GitStore._write_journal` writes it), plus journals a crash cannot write but a hostile
  file can (paths outside the root, a name no file system takes, torn JSON);
- random: SIGKILL after a random delay, and the state found afterwards is classified.

After each crash the person appends a line to MEMORY.md with a plain file write, and then
runs `memrepo status` and `memrepo remember`. Losses: the person's line gone (from the
file after `status`, or from main or the file after `remember`), an acknowledged or
committed memrepo write gone, any line twice, an unsound repo, a failing command.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pygit2
from _faults_common import (
    Run,
    Tally,
    cli,
    git,
    head_file,
    repo_problems,
    seeded_repo,
    worktree_file,
)

MEMORY = "MEMORY.md"
JOURNAL = ".git/memrepo/journal.json"
#: strace kill points: the step a crash there leaves behind -> (syscalls, path). The
#: process dies on entry to the syscall, so the step before it is the last one done.
STRACE_POINTS: dict[str, tuple[str, str | None] | None] = {
    # The worktree rename is a write's first rename (git objects are linked, not
    # renamed); `-P MEMORY.md` would not match it, strace checks a rename's source only.
    "journal_written": ("rename,renameat,renameat2", None),
    "worktree_written": ("open,openat", ".git/refs/heads/main.lock"),
    "main_locked": ("rename,renameat,renameat2", ".git/refs/heads/main.lock"),
    "main_moved": ("open,openat", ".git/index.lock"),
    "index_locked": ("rename,renameat,renameat2", ".git/index.lock"),
    "index_updated": ("unlink,unlinkat", JOURNAL),
    "journal_cleared": None,
}
#: What the classifier must find after a strace kill at each point.
EXPECTED = {
    "journal_written": "journal_written",
    "worktree_written": "worktree_written",
    "main_locked": "worktree_written+main.lock",
    "main_moved": "main_moved",
    "index_locked": "main_moved+index.lock",
    "index_updated": "index_updated",
    "journal_cleared": "complete",
}
CONSTRUCTED = (
    "journal_written",
    "worktree_written",
    "main_moved",
    "index_updated",
    "journal_cleared",
    "torn_journal",
    "journal_outside_root",
    "journal_unwritable_name",
)


def strace_works() -> bool:
    """Whether strace can trace a child here (ptrace may be denied in a container)."""
    if shutil.which("strace") is None:
        return False
    done = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=none", "true"], capture_output=True, check=False
    )
    return done.returncode == 0


def template(work: Path) -> Path:
    """A memory repo with one entry, made with the CLI; every trial starts from a copy."""
    work.mkdir(parents=True, exist_ok=True)
    return seeded_repo(work / "template")


def fresh_copy(template_root: Path, target: Path) -> Path:
    shutil.copytree(template_root, target, symlinks=True)
    return target.resolve()


# --- classifying what a crash left ------------------------------------------------------


def classify(root: Path, old_main: str, old_bytes: bytes) -> str:
    """The step a crashed write got to, from the journal, main, the file and the index."""
    journal = root / JOURNAL
    main = git(root, "rev-parse", "main").strip()
    moved = main != old_main
    new_commit = main if moved else None
    if journal.exists():
        try:
            new_commit = json.loads(journal.read_text())["commit"]
        except (ValueError, KeyError, TypeError):
            return "torn_journal"
    new_bytes = _blob(root, new_commit) if new_commit else None
    on_disk = (root / MEMORY).read_bytes()
    worktree = "old" if on_disk == old_bytes else "new" if on_disk == new_bytes else "other"
    locks = "".join(
        f"+{name}" for name in ("main.lock", "index.lock") if _lock(root, name).exists()
    )
    if not journal.exists():
        return ("complete" if moved else "not_started") + locks
    if not moved:
        return {"old": "journal_written", "new": "worktree_written"}.get(
            worktree, "journal+worktree_other"
        ) + locks
    index_done = (
        subprocess.run(["git", "-C", str(root), "diff", "--cached", "--quiet", "main"]).returncode
        == 0
    )
    return ("index_updated" if index_done else "main_moved") + locks


def _blob(root: Path, commit: str) -> bytes | None:
    done = subprocess.run(
        ["git", "-C", str(root), "show", f"{commit}:{MEMORY}"], capture_output=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def _lock(root: Path, name: str) -> Path:
    return root / ".git" / ("refs/heads/main.lock" if name == "main.lock" else "index.lock")


# --- after the crash: the person edits, then runs status and remember --------------------


def hand_edit(root: Path, token: str) -> None:
    """What a person does in an editor: one new line above the Index, saved in place."""
    path = root / MEMORY
    text = path.read_text(encoding="utf-8")
    line = f"- Hand edit {token}\n"
    at = text.find("\n## Index")
    text = text[: at + 1] + line + text[at + 1 :] if at >= 0 else text + line
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def after_crash(
    tally: Tally, root: Path, label: str, a_text: str, a_committed: bool, trial: str
) -> None:
    """The person's edit, `status`, `remember`; every loss counted into `tally`."""
    tally.add("trials")
    token = f"token-{trial}-{random.randrange(16**8):08x}"
    hand_edit(root, token)
    where = f"[{label}, trial {trial}, repo {root}]"
    status = cli(root, "status")
    if status.failed:
        tally.lose("commands_failed", f"{where} {status.describe()}")
    if token not in worktree_file(root, MEMORY):
        tally.lose("hand_edits_lost", f"{where} `memrepo status` removed the person's line")
    b_text = f"Written after the crash {trial}"
    remember = cli(root, "remember", b_text)
    if remember.failed:
        tally.lose("commands_failed", f"{where} {remember.describe()}")
    head, disk = head_file(root, MEMORY), worktree_file(root, MEMORY)
    if token not in disk or token not in head:
        gone = "the file" if token not in disk else "main"
        tally.lose("hand_edits_lost", f"{where} the person's line is not in {gone} after remember")
    if not remember.failed and b_text not in head:
        tally.lose("writes_lost", f"{where} acknowledged write {b_text!r} not on main")
    if a_committed and a_text not in head:
        tally.lose("writes_lost", f"{where} write {a_text!r} was on main at the crash, now gone")
    tally.add("killed_write_kept" if a_text in head else "killed_write_dropped")
    for text in (token, a_text, b_text):
        if head.count(text) > 1:
            tally.lose("duplicated", f"{where} {text!r} is {head.count(text)} times on main")
    for problem in repo_problems(root):
        tally.lose("unsound", f"{where} {problem}")


def _attribute(tally: Tally, where: str, before: int) -> None:
    """Losses per kill point or state (`mode:name`), so each can be judged on its own."""
    by_state: dict[str, int] = tally.info.setdefault("lost_by_state", {})
    by_state[where] = by_state.get(where, 0) + tally.lost - before


def _hit(tally: Tally, mode: str, label: str) -> None:
    states: dict[str, int] = tally.info.setdefault("states", {}).setdefault(mode, {})
    states[label] = states.get(label, 0) + 1


def _committed(root: Path, old_main: str) -> bool:
    return git(root, "rev-parse", "main").strip() != old_main


# --- mode strace -------------------------------------------------------------------------


def strace_trial(tally: Tally, template_root: Path, work: Path, point: str, n: int) -> None:
    root = fresh_copy(template_root, work / f"strace-{point}-{n}")
    old_main = git(root, "rev-parse", "main").strip()
    old_bytes = (root / MEMORY).read_bytes()
    a_text = f"Killed write at {point} {n}"
    spec = STRACE_POINTS[point]
    prefix: list[str] = []
    if spec is not None:
        calls, path = spec
        prefix = ["strace", "-f", "-qq", "-o", "/dev/null"]
        prefix += ["-P", str(root / path)] if path else []
        prefix += ["-e", f"trace={calls}", "-e", f"inject={calls}:signal=KILL:when=1"]
    run = _run(prefix, root, "remember", a_text)
    killed = run.code in (-signal.SIGKILL, 128 + signal.SIGKILL)
    label = classify(root, old_main, old_bytes)
    _hit(tally, "strace", label)
    if (spec is not None and not killed) or label != EXPECTED[point]:
        tally.info.setdefault("unexpected", []).append(f"{point}: exit {run.code}, {label}")
    before = tally.lost
    after_crash(tally, root, f"strace {point}", a_text, _committed(root, old_main), f"s{point}{n}")
    _attribute(tally, f"strace:{point}", before)


def _run(prefix: list[str], root: Path, *args: str) -> Run:
    from _faults_common import memrepo_command

    argv = [*prefix, *memrepo_command(), "--repo", str(root), *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    return Run(tuple(args), done.returncode, done.stdout, done.stderr)


# --- mode constructed --------------------------------------------------------------------


def constructed_trial(tally: Tally, template_root: Path, work: Path, state: str, n: int) -> None:
    root = fresh_copy(template_root, work / f"built-{state}-{n}")
    old_main = git(root, "rev-parse", "main").strip()
    a_text = f"Constructed write at {state} {n}"
    escaped = root.parent / f"escaped-{state}-{n}.md"
    build_state(root, state, a_text, escaped)
    _hit(tally, "constructed", state)
    committed = _committed(root, old_main)
    before = tally.lost
    after_crash(tally, root, f"constructed {state}", a_text, committed, f"c{state}{n}")
    if escaped.exists():
        tally.lose("journal_escapes", f"[{state}] recovery wrote {escaped} outside the root")
    if (root / ".git/hooks/post-commit").exists():
        tally.lose("journal_escapes", f"[{state}] recovery wrote {root}/.git/hooks/post-commit")
    _attribute(tally, f"constructed:{state}", before)


def build_state(root: Path, state: str, text: str, escaped: Path) -> None:
    """The files a write that stopped at `state` leaves (see `GitStore.publish`)."""
    repo = pygit2.Repository(str(root))
    parent = repo.revparse_single("main")
    assert isinstance(parent, pygit2.Commit)
    old = repo[parent.tree[MEMORY].id].data.decode()
    at = old.find("\n## Index")
    line = f"- {text} [added: 2026-12-01; by: agent; origin: remember]\n"
    new = (old[: at + 1] + line + old[at + 1 :]).encode()
    blob = repo.create_blob(new)
    files: dict[str, str | None] = {MEMORY: str(blob)}
    if state == "journal_outside_root":
        files = {f"../{escaped.name}": str(blob), ".git/hooks/post-commit": str(blob)}
    elif state == "journal_unwritable_name":
        files = {"x" * 300 + ".md": str(blob)}
    builder = repo.TreeBuilder(parent.tree)
    builder.insert(MEMORY, blob, pygit2.enums.FileMode.BLOB)
    sig = pygit2.Signature("memrepo", "memrepo@example.com")
    commit = repo.create_commit(None, sig, sig, f"Remember: {text}", builder.write(), [parent.id])
    journal = json.dumps({"commit": str(commit), "parent": str(parent.id), "files": files})
    (root / ".git/memrepo").mkdir(exist_ok=True)
    if state == "torn_journal":
        journal = journal[: len(journal) // 2]
    (root / JOURNAL).write_text(journal)
    steps: list[Callable[[], None]] = [
        lambda: _replace(root / MEMORY, new),
        lambda: repo.references["refs/heads/main"].set_target(commit, f"memrepo: {text}"),
        lambda: _stage(repo),
        lambda: (root / JOURNAL).unlink(),
    ]
    done = {"worktree_written": 1, "main_moved": 2, "index_updated": 3, "journal_cleared": 4}
    for step in steps[: done.get(state, 0)]:
        step()


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _stage(repo: pygit2.Repository) -> None:
    index = repo.index
    index.read(False)
    index.add(MEMORY)
    index.write()


# --- mode random -------------------------------------------------------------------------

_PRELOADED = (
    "import sys, memrepo, memrepo.cli as c; print('ready', flush=True); sys.stdin.readline();"
    " sys.exit(c.main(sys.argv[1:]))"
)


STEPS = ("journal_written", "worktree_written", "main_moved", "index_updated")


class Window:
    """Where the write is in a preloaded `remember`'s run, learned from the kills so far:
    the latest delay that found nothing started and the earliest that found it done.
    Delays are drawn around that transition, so most kills land inside the write."""

    def __init__(self, span: float) -> None:
        self.before = 0.0
        self.after = span

    def draw(self) -> float:
        lo, hi = sorted((self.before, self.after))
        return random.uniform(max(0.0, lo - 0.001), hi + 0.001)

    def learn(self, delay: float, label: str) -> None:
        if label.startswith("not_started"):
            self.before = max(self.before, delay)
        elif label.startswith("complete"):
            self.after = min(self.after, delay)


def random_trial(tally: Tally, template_root: Path, work: Path, n: int, window: Window) -> str:
    """Kill a preloaded `memrepo remember` at a random moment; returns the state found."""
    root = fresh_copy(template_root, work / f"random-{n}")
    old_main = git(root, "rev-parse", "main").strip()
    old_bytes = (root / MEMORY).read_bytes()
    a_text = f"Randomly killed write {n}"
    delay = window.draw()
    try:
        _killed_after(root, a_text, delay)
    except RuntimeError as exc:
        tally.lose("commands_failed", f"[random {n}, repo {root}] {exc}")
        return "failed"
    label = classify(root, old_main, old_bytes)
    window.learn(delay, label)
    _hit(tally, "random", label)
    before = tally.lost
    after_crash(tally, root, f"random {label}", a_text, _committed(root, old_main), f"r{n}")
    _attribute(tally, f"random:{label}", before)
    return label


def random_part(tally: Tally, base: Path, work: Path, trials: int, hits: int) -> None:
    """Random kills until every step was hit `hits` times, or `trials` kills."""
    span = calibrate(base, work)
    tally.info["random_span_ms"] = round(span * 1000, 1)
    window = Window(span)
    found: dict[str, int] = {}
    for n in range(trials):
        label = random_trial(tally, base, work, n, window)
        found[label.split("+")[0]] = found.get(label.split("+")[0], 0) + 1
        if all(found.get(step, 0) >= hits for step in STEPS):
            break
    tally.info["random_window_ms"] = [round(window.before * 1000, 1), round(window.after * 1000, 1)]


def _killed_after(root: Path, text: str, delay: float | None) -> float:
    """Start the CLI preloaded, let it go, SIGKILL it after `delay` (None: let it finish);
    returns the seconds from go to exit. Raises when the CLI died before it could go."""
    argv = [sys.executable, "-c", _PRELOADED, "--repo", str(root), "remember", text]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    start = time.perf_counter()
    try:
        if process.stdout.readline().strip() != "ready":
            raise BrokenPipeError
        start = time.perf_counter()
        process.stdin.write("go\n")
        process.stdin.flush()
    except BrokenPipeError:
        _, err = process.communicate()
        raise RuntimeError(f"memrepo died before the write: {err[-500:]}") from None
    if delay is not None:
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
    process.communicate()
    return time.perf_counter() - start


def calibrate(template_root: Path, work: Path, runs: int = 3) -> float:
    """How long a preloaded `remember` takes from go to exit (the median of `runs`)."""
    spans = []
    for n in range(runs):
        root = fresh_copy(template_root, work / f"calibrate-{n}")
        spans.append(_killed_after(root, f"Calibration write {n}", None))
    return sorted(spans)[len(spans) // 2]


# --- the part ----------------------------------------------------------------------------


def run_part(
    work: Path,
    modes: list[str],
    repeat: int,
    random_trials: int,
    seed: int,
    *,
    random_hits: int = 3,
    states: list[str] | None = None,
) -> Tally:
    random.seed(seed)
    tally = Tally("1 crash at every journal step + hand edit")
    start = time.perf_counter()
    base = template(work)
    built = _chosen("constructed", CONSTRUCTED, states) if "constructed" in modes else []
    if "strace" in modes:
        points = _chosen("strace", STRACE_POINTS, states)
        if strace_works():
            for n in range(repeat):
                for point in points:
                    strace_trial(tally, base, work, point, n)
        else:  # the same steps, built instead of hit
            tally.info["strace"] = "not available here (no strace or ptrace denied)"
            built += [p for p in points if p in CONSTRUCTED and p not in built]
    for n in range(repeat):
        for state in built:
            constructed_trial(tally, base, work, state, n)
    if "random" in modes and random_trials:
        random_part(tally, base, work, random_trials, random_hits)
    tally.seconds = time.perf_counter() - start
    return tally


def _chosen(mode: str, names: Iterable[str], wanted: list[str] | None) -> list[str]:
    """The kill points or states of `mode` that `wanted` names ("name" for every mode,
    "mode:name" for one); all of them when `wanted` is empty."""
    if not wanted:
        return list(names)
    return [n for n in names if n in wanted or f"{mode}:{n}" in wanted]
