"""Part 3 of the fault suite: 8 writers, an undoer, an editor and two readers at once.

Writers (processes, the public API) remember M unique facts each, to MEMORY.md and topic
files. The undoer remembers its own facts and undoes each one: by commit id, or with a
bare `undo` every second time (which reverses the newest memrepo write, whoever made
it: what it undid is recorded and followed). The editor saves MEMORY.md with a token
line at random moments. One reader loops recall/log/entries through `MemoryRepo`, the
other through the `memrepo` CLI, until the writers are done.

At the end (after one `memrepo remember` commits what is pending): every acknowledged
write that was not undone is an entry exactly once, every undone one is gone, every
editor token is on main and in the file, `git fsck --full` passes, and no reader ever
saw an error (a failed command, a traceback, or any exception).

As in part 2, an agent line the editor's own save overwrote (it read MEMORY.md just
before memrepo's write landed, and saved its stale text over it) is the editor's doing,
as with any program: it is counted apart, and only when git shows it, i.e. the commit
that removed the line is the person's recorded edit and that same commit added one of
the editor's tokens. Any other removal (by a memrepo write) is a loss.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

from _faults_common import Tally, Workers, cli, git, head_file, repo_problems, worktree_file
from _faults_editor import judge_tokens, new_repo, pace_ms

from memrepo import MemoryRepo


def follow_undos(
    tally: Tally, writes: dict[str, str], records: list[dict[str, Any]], where: str
) -> set[str]:
    """The texts the undoer's undos removed (an undo of an undo restores its text)."""
    removed_by: dict[str, str] = {}  # undo commit -> the text it removed
    gone: set[str] = set()
    for record in records:
        if record.get("kind") != "undo":
            continue
        tally.add("undos")
        if record.get("status") == "error":
            tally.add("undos_refused" if record.get("clear") else "undos_crashed")
            if not record.get("clear"):
                tally.lose("undos_crashed", f"{where} {record['trace']}")
            continue
        undone = record["undone"]
        if undone in writes:
            gone.add(writes[undone])
            removed_by[record["commit"]] = writes[undone]
        elif undone in removed_by:
            gone.discard(removed_by[undone])
            tally.add("undos_of_undos")
        else:
            tally.lose(
                "undo_reverted_other",
                f"{where} {'bare ' if record['bare'] else ''}undo reversed {undone}, which "
                "is no memrepo write of this run (a person's edit commit?)",
            )
    return gone


def judge_entries(
    tally: Tally, root: Path, acked: dict[str, str], gone: set[str], where: str
) -> None:
    with MemoryRepo.open(root) as repo:
        found = Counter(entry.text for entry in repo.entries())
    expected = {text for text in acked.values() if text not in gone}
    overwritten = 0
    for text in sorted(expected):
        if found[text] == 0 and removed_by_editor_save(root, text):
            overwritten += 1
        elif found[text] == 0:
            tally.lose("writes_lost", f"{where} {text!r} (commit of it: {_commit(acked, text)})")
        elif found[text] > 1:
            tally.lose("duplicated", f"{where} {text!r} is {found[text]} entries")
    for text in sorted(gone):
        if found[text]:
            tally.lose("undone_still_there", f"{where} {text!r} was undone but is an entry")
    tally.add("entries_expected", len(expected))
    tally.add("entries_found", sum(1 for text in expected if found[text]))
    tally.add("agent_lines_overwritten_by_editor", overwritten)


def removed_by_editor_save(root: Path, text: str) -> bool:
    """Whether the newest commit that changed `text`'s line count on main is the
    person's recorded edit, and that commit also added an editor token (its stale save)."""
    newest = git(root, "log", "-1", "--format=%H", f"-S{text}", "main").strip()
    if not newest:
        return False
    message = git(root, "log", "-1", "--format=%B", newest)
    if "Memrepo-Origin: edit" not in message or "Memrepo-By: user" not in message:
        return False
    patch = git(root, "show", "--format=", "--unified=0", newest)
    removed = any(line.startswith("-") and text in line for line in patch.splitlines())
    token = any(line.startswith("+- Saved by the editor ") for line in patch.splitlines())
    return removed and token


def _commit(acked: dict[str, str], text: str) -> str:
    return next((c for c, t in acked.items() if t == text), "?")


def judge_readers(tally: Tally, workers: Workers, names: list[str], where: str) -> None:
    for name in names:
        for record in workers.records(name):
            if record.get("kind") == "read":
                tally.add("reads")
                if not record["ok"]:
                    detail = record.get("trace") or record.get("error") or ""
                    tally.lose("reader_errors", f"{where} {name} {record['what']}: {detail}")
            elif record.get("kind") == "crash":
                tally.lose("workers_crashed", f"{where} {name}: {record['trace']}")


def undo_with_pending_edit(tally: Tally, root: Path) -> None:
    """The certain case of what the undoer races with: a person's edit is pending when a
    bare `memrepo undo` runs. It must reverse the agent's write and keep the edit."""
    new_repo(root)
    agent = "Agent write that the bare undo must reverse"
    steps = [cli(root, "remember", agent, "--by", "agent")]
    path = root / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    at = text.find("\n## Index")
    path.write_text(text[: at + 1] + "- Person's pending line\n" + text[at + 1 :])
    steps.append(cli(root, "undo"))
    where = f"[bare undo with a pending edit, repo {root}]"
    for run in steps:
        if run.failed:
            tally.lose("commands_failed", f"{where} {run.describe()}")
    head, disk = head_file(root, "MEMORY.md"), worktree_file(root, "MEMORY.md")
    if "Person's pending line" not in head or "Person's pending line" not in disk:
        tally.lose("undo_reverted_edit", f"{where} the person's pending line was undone")
    if agent in head:
        tally.lose("undone_still_there", f"{where} the agent's write is still on main")
    for problem in repo_problems(root):
        tally.lose("unsound", f"{where} {problem}")


def run_part(
    work: Path, writers: int, writes: int, seed: int, how: str = "rename,in_place"
) -> Tally:
    tally = Tally("3 writers + undo + editor + readers")
    start = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    undo_with_pending_edit(tally, (work / "pending-undo").resolve())
    root = (work / "repo").resolve()
    new_repo(root)
    workers = Workers(work)
    names = [f"w{n}" for n in range(writers)]
    for name in names:
        workers.start("writer", root, name, "--count", str(writes), "--topics")
    workers.start("undoer", root, "undoer", "--count", str(max(2, writes // 2)))
    pace = pace_ms(root, writes * writers, writes * 2)
    workers.start("editor", root, "editor", "--count", str(max(2, writes)), "--pace",
                  f"{pace:.2f}", "--seed", str(seed), "--how", how)  # fmt: skip
    readers = ["reader_api", "reader_cli"]
    for reader in readers:
        workers.start(reader, root, reader)
    workers.release()
    codes = workers.wait({*names, "undoer", "editor"})
    codes |= workers.finish()
    where = f"[repo {root}]"
    for name, code in codes.items():
        if code != 0:
            tally.lose("workers_crashed", f"{where} {name} exit {code}: {workers.stderr(name)}")
    final = cli(root, "remember", "Final fact after the swarm part")
    if final.failed:
        tally.lose("commands_failed", final.describe())
    acked: dict[str, str] = {}
    for name in [*names, "undoer"]:
        for record in workers.records(name):
            if record.get("kind") != "write":
                continue
            tally.add("writes")
            if record["status"] == "written":
                acked[record["commit"]] = record["text"]
            elif record["status"] == "error":
                tally.add("writes_refused" if record.get("clear") else "writes_crashed")
                if not record.get("clear"):
                    tally.lose("writes_crashed", f"{where} {name}: {record['trace']}")
                else:
                    tally.info.setdefault("refusals", []).append(record["error"][:200])
    gone = follow_undos(tally, acked, workers.records("undoer"), where)
    judge_entries(tally, root, acked, gone, where)
    judge_tokens(tally, root, workers.records("editor"), where)
    judge_readers(tally, workers, readers, where)
    for problem in repo_problems(root):
        tally.lose("unsound", f"{where} {problem}")
    tally.seconds = time.perf_counter() - start
    return tally
