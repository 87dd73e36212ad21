"""Imports keep task, contact and private rows out of git, and local paths out of history.

Whatever goes into git is pushed to the user's remote on the next sync, so a task-bound
row (a JSONL dump's `task_id`) must land in memory_items like a contact or private row,
and neither a file nor a commit may record where the dump sat on this machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters

Git = Callable[..., str]
CommitCount = Callable[..., int]
ALL_ITEMS = ItemFilters(status="any", include_private=True)


def _dump(path: Path, rows: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _everything_git_has(git: Git, root: Path) -> str:
    """Every commit message, every diff and every tracked file of every ref."""
    history = git(root, "log", "--all", "-p", "--format=%H%n%B")
    tracked = "".join(path.read_text() for path in root.rglob("*.md") if ".git" not in path.parts)
    return history + tracked


def test_task_contact_and_private_rows_go_to_items_only(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    dump = _dump(
        tmp_path / "exports" / "dump.jsonl",
        [
            {"text": "Step 3 needs the staging token rotated", "task_id": "t-42"},
            {"text": "Bo prefers calls after noon", "contact": "mail:bo@example.com"},
            {"text": "Dana is saving for a sabbatical", "private": True},
            {"text": "The build server is called osprey"},
        ],
    )
    report = memory_repo.import_memory(dump, source="jsonl")
    assert (report.written, report.items_written) == (4, 3)
    items = {i.content: i for i in memory_repo.list_items(ALL_ITEMS)}
    task = items["Step 3 needs the staging token rotated"]
    # A row's task id is where it was learned (as for remember): the scope stays the
    # row's own, the link to the task goes with it, and neither reaches git.
    assert (task.scope, task.task_id) == ("global", "t-42")
    assert items["Bo prefers calls after noon"].scope_ref == "mail:bo@example.com"
    assert items["Dana is saving for a sabbatical"].privacy == "private"
    seen = _everything_git_has(git, memory_repo.root)
    for secret in ("staging token", "t-42", "calls after noon", "sabbatical"):
        assert secret not in seen
    assert "osprey" in seen  # the shared fact did go to the folder


def test_a_task_row_with_an_explicit_scope_still_stays_out_of_git(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    dump = _dump(
        tmp_path / "dump.jsonl",
        [{"text": "Learned while fixing the flaky deploy", "task_id": "t-7", "scope": "global"}],
    )
    report = memory_repo.import_memory(dump, source="jsonl")
    assert report.items_written == 1
    (item,) = memory_repo.list_items(ALL_ITEMS)
    assert item.task_id == "t-7"
    assert "flaky deploy" not in _everything_git_has(git, memory_repo.root)


def test_no_absolute_local_path_reaches_a_file_or_a_commit(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    home = tmp_path / "home" / "dana" / "private-stuff"
    dump = _dump(home / "mem0-dump.jsonl", [{"text": "The build server is called osprey"}])
    memory_repo.import_memory(dump, source="jsonl")
    folder = home / "claude"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("- [Role](user_role.md) — who the user is\n")
    (folder / "user_role.md").write_text(
        "---\nname: user_role\ndescription: role\ntype: user\n---\n\nDana is an SRE.\n"
    )
    memory_repo.import_memory(folder, source="claude-code")
    seen = _everything_git_has(git, memory_repo.root)
    assert "osprey" in seen and "Dana is an SRE" in seen
    assert str(tmp_path) not in seen and "file://" not in seen
    assert "home/dana" not in seen
    (osprey,) = [e for e in memory_repo.entries() if "osprey" in e.text]
    assert osprey.metadata["source"] == "mem0-dump.jsonl#L1"
    message = git(memory_repo.root, "log", "-2", "--format=%B")
    assert "Source: mem0-dump.jsonl" in message and "Source: claude" in message


def test_reimporting_the_same_dump_from_another_folder_adds_nothing(
    memory_repo: MemoryRepo, tmp_path: Path, commit_count: CommitCount
) -> None:
    rows: list[dict[str, object]] = [
        {"text": "Bo prefers calls after noon", "contact": "mail:bo@example.com"},
        {"text": "The build server is called osprey"},
    ]
    memory_repo.import_memory(_dump(tmp_path / "a" / "dump.jsonl", rows), source="jsonl")
    count = commit_count(memory_repo.root, "main")
    again = memory_repo.import_memory(_dump(tmp_path / "b" / "dump.jsonl", rows), source="jsonl")
    assert (again.written, again.reinforced, again.commit) == (0, 2, None)
    assert commit_count(memory_repo.root, "main") == count
