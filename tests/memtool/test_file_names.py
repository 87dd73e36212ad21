"""A model names its memory files as it likes (Anthropic's own examples use `.xml` and
`.txt`): such a file is kept as markdown with `.md` added, so git, lint and the index
treat it as memory, and the model keeps seeing the name it gave."""

from __future__ import annotations

import subprocess

from memrepo import MemoryRepo


def test_an_xml_file_round_trips_under_the_name_the_model_gave(memory_repo: MemoryRepo) -> None:
    tool = memory_repo.memory_tool()
    xml = "<progress>\n  <step>schema migrated</step>\n</progress>\n"
    assert tool.call({"command": "create", "path": "/memories/progress.xml", "file_text": xml}) == (
        "File created successfully at: /memories/progress.xml"
    )
    listing = str(tool.call({"command": "view", "path": "/memories"}))
    assert "\t/memories/progress.xml" in listing and ".xml.md" not in listing
    shown = str(tool.call({"command": "view", "path": "/memories/progress.xml"}))
    assert "     2\t  <step>schema migrated</step>" in shown
    stored = memory_repo.root / "memories" / "progress.xml.md"
    assert stored.read_text() == xml  # byte for byte: no bullet, nothing added
    tool.call(
        {
            "command": "rename",
            "old_path": "/memories/progress.xml",
            "new_path": "/memories/done.txt",
        }
    )
    assert (
        memory_repo.root / "memories" / "done.txt.md"
    ).read_text() == xml and not stored.exists()
    tool.call({"command": "delete", "path": "/memories/done.txt"})
    tracked = subprocess.run(
        ["git", "-C", str(memory_repo.root), "ls-files", "memories"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert tracked == ""
    assert "memories/done" not in (memory_repo.root / "MEMORY.md").read_text()
    memory_repo.close()
