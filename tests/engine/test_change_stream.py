"""One change stream (issue #32, reference §3 step 8): a listener hears every change
this process makes, a folder commit (with its origin, author and paths) or a
memory_items change, and its failure never fails the write."""

from __future__ import annotations

import subprocess

from memrepo import MemoryRepo
from memrepo.models import MemoryChange


def test_every_write_is_heard_once_in_either_store(memory_repo: MemoryRepo) -> None:
    heard: list[MemoryChange] = []
    stop = memory_repo.on_change(heard.append)
    memory_repo.remember("Deploys run on Tuesdays", by="user")
    memory_repo.remember("Ana's phone ends in 42", private=True)
    memory_repo.memory_tool(task_id="t1").call(
        {"command": "create", "path": "/memories/notes.md", "file_text": "- A note\n"}
    )
    memory_repo.undo()
    folder = [c for c in heard if c.store == "folder"]
    assert [(c.kind, c.by) for c in folder] == [
        ("remember", "user"), ("memory-tool", "agent"), ("undo", "user"),
    ]  # fmt: skip
    assert folder[0].paths == ("MEMORY.md",)
    assert folder[1].paths == ("MEMORY.md", "memories/notes.md") and folder[1].task == "t1"
    log = subprocess.run(
        ["git", "-C", str(memory_repo.root), "log", "-3", "--format=%H"],
        capture_output=True,
        text=True,
    ).stdout.split()
    assert [c.commit for c in folder] == log[::-1]
    items = [c for c in heard if c.store == "items"]
    assert [c.kind for c in items] == ["ingest"] and len(items[0].item_ids) == 1
    stop()
    memory_repo.remember("Not heard any more", by="user")
    assert len(heard) == 4
    memory_repo.close()


def test_a_failing_listener_never_fails_the_write(memory_repo: MemoryRepo) -> None:
    def broken(change: MemoryChange) -> None:
        raise RuntimeError("listener bug")

    memory_repo.on_change(broken)
    result = memory_repo.remember("Still written", by="user")
    assert result.written and "Still written" in (memory_repo.root / "MEMORY.md").read_text()
    item = memory_repo.remember("A private fact, still stored", private=True)
    assert item.written and memory_repo.item(item.ref or "").item.content.startswith("A private")
    memory_repo.close()
