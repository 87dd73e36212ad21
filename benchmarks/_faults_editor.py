"""Part 2 of the fault suite: an editor saves MEMORY.md while memrepo writes to it.

A writer process remembers M facts (the public API, every second one to MEMORY.md) while
an editor process saves MEMORY.md K times at random moments, each save adding one token
line (temp file + rename, or a truncating write in place). The editor reads the file
right before each save, so its own saves never drop an earlier token: a token that is
missing at the end was removed by memrepo. After both stop, one `memrepo remember`
commits what is pending; then every token must be in main's MEMORY.md and in the file.

Figures: editor saves lost / total, agent writes lost (an acknowledged commit that is not
an ancestor of main), writes that crashed (not a MemrepoError), lines twice, whether the
repo is sound; writes refused with a clear MemrepoError (nothing written, the caller
told) are counted but are not losses.
Agent lines the editor's own save overwrote (it read the file just before memrepo's
rename landed) are counted apart: that is the editor's doing, as with any program.
"""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path
from typing import Any

from _faults_common import (
    Tally,
    Workers,
    cli,
    head_file,
    repo_problems,
    seeded_repo,
    worktree_file,
)

MEMORY = "MEMORY.md"


def new_repo(root: Path) -> None:
    seeded_repo(root)


def pace_ms(root: Path, writes: int, saves: int) -> float:
    """Mean pause between saves so the editor's saves spread over the writer's run."""
    from memrepo import MemoryRepo

    with MemoryRepo.open(root) as repo:
        start = time.perf_counter()
        for n in range(5):
            repo.remember(f"Pace measuring fact {n}")
        per_write = (time.perf_counter() - start) / 5
    return max(0.5, per_write * 1000 * writes / max(1, saves))


def is_ancestor(root: Path, commit: str) -> bool:
    done = subprocess.run(
        ["git", "-C", str(root), "merge-base", "--is-ancestor", commit, "main"], check=False
    )
    return done.returncode == 0


def judge_writes(tally: Tally, root: Path, records: list[dict[str, Any]], where: str) -> None:
    """Every acknowledged write on main's history; failed writes counted as losses."""
    head = "".join(head_file(root, p) for p in _memory_files(root))
    for record in records:
        if record.get("kind") == "crash":
            tally.lose("workers_crashed", f"{where} {record['error']}")
        if record.get("kind") != "write":
            continue
        tally.add("agent_writes")
        if record["status"] == "error" and record.get("clear"):
            tally.add("writes_refused")  # a clear error, nothing written: not a loss
            tally.info.setdefault("refusals", []).append(record["error"][:200])
        elif record["status"] == "error":
            tally.lose("writes_crashed", f"{where} {record['text']!r}: {record['trace']}")
        elif record["commit"] and not is_ancestor(root, record["commit"]):
            tally.lose("writes_lost", f"{where} {record['text']!r} commit {record['commit']}")
        elif record["text"] not in head:
            tally.add("agent_lines_overwritten_by_editor")


def _memory_files(root: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(root), "ls-tree", "-r", "--name-only", "main"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [p for p in out.splitlines() if p.endswith(".md")]


def judge_tokens(tally: Tally, root: Path, saves: list[dict[str, Any]], where: str) -> None:
    head, disk = head_file(root, MEMORY), worktree_file(root, MEMORY)
    for save in saves:
        if save.get("kind") != "save":
            continue
        tally.add("editor_saves")
        token = save["token"]
        if token not in head or token not in disk:
            gone = "main" if token not in head else "the file"
            tally.lose("editor_saves_lost", f"{where} {token} ({save['how']}) not in {gone}")
        elif head.count(token) > 1:
            tally.lose("duplicated", f"{where} {token} is {head.count(token)} times on main")


def run_part(work: Path, writes: int, saves: int, seed: int, how: str = "rename,in_place") -> Tally:
    tally = Tally("2 editor saves during writes")
    start = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    root = (work / "repo").resolve()
    new_repo(root)
    pace = pace_ms(root, writes, saves)
    workers = Workers(work)
    workers.start("writer", root, "writer", "--count", str(writes), "--topics")
    editor_seed = str(random.Random(seed).randrange(1 << 30))
    workers.start("editor", root, "editor", "--count", str(saves), "--pace", f"{pace:.2f}",
                  "--seed", editor_seed, "--how", how)  # fmt: skip
    workers.release()
    for name, code in workers.wait().items():
        if code != 0:
            tally.lose("workers_crashed", f"{name} exit {code}: {workers.stderr(name)[-300:]}")
    final = cli(root, "remember", "Final fact after the editor part")
    if final.failed:
        tally.lose("commands_failed", final.describe())
    where = f"[repo {root}]"
    judge_writes(tally, root, workers.records("writer"), where)
    judge_tokens(tally, root, workers.records("editor"), where)
    for problem in repo_problems(root):
        tally.lose("unsound", f"{where} {problem}")
    tally.info["pace_ms"] = round(pace, 2)
    tally.seconds = time.perf_counter() - start
    return tally


HELD = ("truncated", "half_written")


def held_save(tally: Tally, root: Path, how: str) -> None:
    """One save that stays open across a whole `memrepo remember`: the editor truncated
    MEMORY.md (and, for `half_written`, wrote half of it) and finishes after memrepo's
    write (a big file, a slow or network disk). The interleaving the random editor hits
    now and then, made certain."""
    new_repo(root)
    path = root / MEMORY
    before = path.read_text(encoding="utf-8")
    token = f"held-{how}-{random.randrange(16**6):06x}"
    at = before.find("\n## Index")
    new = before[: at + 1] + f"- Saved slowly by the editor {token}\n" + before[at + 1 :]
    cut = len(new) // 2 if how == "half_written" else 0
    with open(path, "w", encoding="utf-8") as handle:  # truncates, as in-place saves do
        handle.write(new[:cut])
        handle.flush()
        during = cli(root, "remember", f"Written while the editor was saving ({how})")
        handle.write(new[cut:])
    final = cli(root, "remember", f"Written after the editor saved ({how})")
    where = f"[{how}, repo {root}]"
    for run in (during, final):
        if run.failed and not (run.code == 1 and run.stderr.startswith("memrepo: ")):
            tally.lose("commands_failed", f"{where} {run.describe()}")
    head, disk = head_file(root, MEMORY), worktree_file(root, MEMORY)
    tally.add("held_saves")
    if token not in head or token not in disk:
        gone = "main" if token not in head else "the file"
        tally.lose("held_saves_lost", f"{where} the editor's save ({token}) is not in {gone}")
    kept = [line for line in before.splitlines() if line.strip() and line not in head]
    if kept:
        tally.lose("lines_lost", f"{where} {len(kept)} lines the person kept are gone: {kept[:3]}")
    for problem in repo_problems(root):
        tally.lose("unsound", f"{where} {problem}")


def run_held(work: Path) -> Tally:
    tally = Tally("2b an editor save held open across a write")
    start = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    for how in HELD:
        held_save(tally, (work / how).resolve(), how)
    tally.seconds = time.perf_counter() - start
    return tally
