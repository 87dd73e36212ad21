"""What a command does not touch stays as it was, byte for byte; an entry it changes in
place keeps its metadata, as the agent's now. Judged by the bytes on disk and by the
refs a person's `memrepo entries` shows before and after."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo import MemoryRepo

PERSON = (
    "---\r\ndescription: what I told it\r\n---\r\n# Me\r\n\r\n"
    "- Prefers tea   [by: user; subject: drink; confirmed: 2026-11-01]\r\n"
    "- Lives in Lyon\r\n\r\n"
    "Some prose with trailing spaces   \r\n"
    "```\r\n- not an entry, code\r\n```\r\n"
)


def refs(root: Path) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), "entries", "memories/me.md"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [word for word in out.split() if word.startswith("folder:")]


@pytest.mark.slow
def test_a_replace_keeps_every_other_byte_and_the_entry_it_rewords(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    (root / "memories").mkdir()
    (root / "memories" / "me.md").write_bytes(PERSON.encode())
    before = refs(root)
    tool = memory_repo.memory_tool(task_id="t9")
    tool.call(
        {
            "command": "str_replace",
            "path": "/memories/me.md",
            "old_str": "Prefers tea",
            "new_str": "Prefers green tea",
        }
    )
    tool.call(
        {
            "command": "insert",
            "path": "/memories/me.md",
            "insert_line": 7,
            "insert_text": "- Cycles to work\n",
        }
    )
    data = (root / "memories" / "me.md").read_bytes().decode()
    lines = data.split("\r\n")
    assert "\n" not in data.replace("\r\n", "")  # a CRLF file stays CRLF, the new line too
    reworded = lines[5]
    assert reworded.startswith("- Prefers green tea [by: agent; subject: drink; tainted: yes]")
    assert "confirmed" not in reworded  # a person's confirmation is not the agent's
    for kept in PERSON.split("\r\n"):
        if "tea" not in kept:
            assert kept in lines
    assert lines[7].startswith("- Cycles to work [source: memrepo://tasks/t9; added: ")
    after = refs(root)
    assert before[0] == after[0]  # the subject keeps the entry's ref through the rewording
    assert before[1] in after  # the line it never touched keeps its ref
    assert "code" not in " ".join(after)
    memory_repo.close()
