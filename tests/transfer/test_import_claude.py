"""Importing Claude Code: the auto-memory folder, and CLAUDE.md files with their imports.

Fixtures are shaped like Claude Code's documented formats (fixtures/imports/README.md:
"Manage Claude's memory" on docs.claude.com, "Auto memory" and "CLAUDE.md imports").
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import ImportSourceError

from .test_import_support import ALL_ITEMS, Git, copy_fixture, everything_git_has, state

#: Where Claude Code keeps a project's auto memory, and the file each project lands in.
AUTO_MEMORY = Path(".claude/projects/-work-acme-api/memory")
AUTO_FILE = "imports/claude-code/work-acme-api.md"
PROJECT_FILE = "imports/claude-code/acme-api.md"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder holding the fixture's ~/.claude, as $HOME for this test."""
    folder = copy_fixture("claude-project/home", tmp_path / "home")
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def project(tmp_path: Path, home: Path) -> Path:
    return copy_fixture("claude-project/project", tmp_path / "work" / "acme-api")


def test_auto_memory_keeps_description_type_and_links(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    source = copy_fixture("claude-code-memory", tmp_path / AUTO_MEMORY)
    report = memory_repo.import_memory(source, source="claude-code")
    assert (report.facts, report.written, report.problems) == (5, 5, ())
    entries = {e.metadata.get("subject"): e for e in memory_repo.entries(AUTO_FILE)}
    testing = entries["Real database in tests"]
    assert testing.metadata["kind"] == "feedback"  # from `metadata: {type: feedback}`
    assert (
        testing.metadata["description"] == "Integration tests must hit a real database, never mocks"
    )
    assert testing.metadata["related"] == "Merge freeze"  # the linked memory, by its name
    assert "(see the freeze)" in testing.text and "](" not in testing.text
    freeze = entries["Merge freeze"]
    assert freeze.metadata["related"] == "Latency dashboard"
    assert "watch Latency dashboard during the cut" in freeze.text and "[[" not in freeze.text
    assert entries["user_role"].metadata["kind"] == "user"  # the older top-level `type:`
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_reimport_adds_nothing_and_a_deleted_memory_is_reported_once(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    source = copy_fixture("claude-code-memory", tmp_path / AUTO_MEMORY)
    memory_repo.import_memory(source, source="claude-code")
    before = state(memory_repo, git)
    again = memory_repo.import_memory(source, source="claude-code")
    assert (again.written, again.reinforced, again.commit, again.problems) == (0, 5, None, ())
    assert state(memory_repo, git)[:3] == before[:3]

    (source / "project_merge_freeze.md").unlink()
    after = memory_repo.import_memory(source, source="claude-code")
    [gone] = after.problems
    assert (gone.path, gone.line, gone.reason) == ("project_merge_freeze.md", 8, "deleted_upstream")
    assert "project_merge_freeze.md#L8 was imported before and is gone" in gone.message
    ref = shlex.split(gone.message.split("`memrepo forget ")[1].split("`")[0])[0]
    assert len(memory_repo.entries(AUTO_FILE)) == 5  # reported, not deleted
    memory_repo.forget(ref)
    assert not any("Merge freeze" in e.text for e in memory_repo.entries())
    assert memory_repo.import_memory(source, source="claude-code").problems == ()


def test_claude_md_files_and_their_imports_keep_their_headings(
    memory_repo: MemoryRepo, project: Path, git: Git
) -> None:
    report = memory_repo.import_memory(project, source="claude-code")
    facts = {e.text: e.metadata for e in memory_repo.entries(PROJECT_FILE)}
    assert facts["Run `make test` before every push"]["section"] == "Acme API > Build and test"
    assert facts["Run `make test` before every push"]["source"] == "acme-api/CLAUDE.md#L7"
    assert facts["Wrap lines at 100 characters"]["source"] == "acme-api/docs/style.md#L4"
    assert "Test files end in `_test.go`" in " ".join(facts)  # two hops: style.md -> naming.md
    personal = facts["I review Acme pull requests in the morning, before stand-up"]
    assert personal["source"] == "acme-api/~/.claude/acme-personal.md#L1"  # from home
    assert {"Owner: platform team", "On-call channel: #acme-oncall"} <= set(facts)
    assert not any(t.startswith("Escalation") for t in facts)  # `Escalation contact: ?`
    assert not any("@not/an/import.md" in t or t.startswith("@") for t in facts)
    assert report.skipped == {"import_not_markdown": 1, "placeholder": 1}
    assert report.problems == ()


def test_claude_local_md_stays_out_of_git(memory_repo: MemoryRepo, project: Path, git: Git) -> None:
    """CLAUDE.local.md is the user's own file, kept out of the project's git by Claude
    Code; its facts go to memory_items as private, never into a synced file."""
    report = memory_repo.import_memory(project, source="claude-code")
    assert report.items_written == 1
    [item] = memory_repo.list_items(ALL_ITEMS)
    assert item.privacy == "private" and "dana-sandbox" in item.content
    assert "dana-sandbox" not in everything_git_has(memory_repo, git)


def test_user_memory_is_named_from_home_and_no_local_path_is_kept(
    memory_repo: MemoryRepo, home: Path, project: Path, git: Git
) -> None:
    memory_repo.import_memory(home / ".claude", source="claude-code")
    memory_repo.import_memory(project / "CLAUDE.md", source="claude-code")
    [spelling] = [e for e in memory_repo.entries() if "British spelling" in e.text]
    assert spelling.metadata["source"] == "~/.claude/CLAUDE.md#L3"
    seen = everything_git_has(memory_repo, git)
    assert str(home) not in seen and str(project) not in seen and "file://" not in seen


def test_reimport_of_a_project_adds_nothing_and_an_edited_bullet_is_reported(
    memory_repo: MemoryRepo, project: Path, git: Git
) -> None:
    first = memory_repo.import_memory(project, source="claude-code")
    before = state(memory_repo, git)
    again = memory_repo.import_memory(project, source="claude-code")
    assert (again.written, again.reinforced, again.commit) == (0, first.written, None)
    assert state(memory_repo, git)[:3] == before[:3]
    style = project / "docs" / "style.md"
    style.write_text(style.read_text().replace("- Wrap lines at 100 characters\n", ""))
    [gone] = memory_repo.import_memory(project, source="claude-code").problems
    assert (gone.path, gone.line, gone.reason) == ("docs/style.md", 4, "deleted_upstream")


def test_a_missing_import_is_reported_and_the_rest_imported(
    memory_repo: MemoryRepo, project: Path
) -> None:
    (project / "docs" / "naming.md").unlink()
    report = memory_repo.import_memory(project, source="claude-code")
    [problem] = report.problems
    assert (problem.path, problem.line, problem.reason) == ("docs/style.md", 6, "import_missing")
    assert problem.message == "@naming.md names no file; the rest was imported"
    assert any(e.text == "Wrap lines at 100 characters" for e in memory_repo.entries())


def test_imports_deeper_than_five_hops_are_reported(
    memory_repo: MemoryRepo, tmp_path: Path, home: Path
) -> None:
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "CLAUDE.md").write_text("- Level zero rule for the deep project\n\n@l1.md\n")
    for n in range(1, 8):
        text = f"- Level {n} rule for the deep project\n\n@l{n + 1}.md\n"
        (folder / f"l{n}.md").write_text(text)
    report = memory_repo.import_memory(folder, source="claude-code")
    levels = sorted(e.text for e in memory_repo.entries("imports/claude-code/deep.md"))
    assert levels == [f"Level {n} rule for the deep project" for n in (1, 2, 3, 4, 5)] + [
        "Level zero rule for the deep project"
    ]
    [problem] = report.problems
    assert (problem.path, problem.reason) == ("l5.md", "import_too_deep")


def _project_with(tmp_path: Path, claude_md: str, **files: bytes) -> Path:
    folder = tmp_path / "proj"
    (folder / "docs").mkdir(parents=True)
    (folder / "CLAUDE.md").write_text(
        "# Rules\n- A rule that comes first in the file\n" + claude_md
    )
    for name, data in files.items():
        (folder / "docs" / f"{name}.md").write_bytes(data)
    return folder


@pytest.mark.parametrize(
    ("claude_md", "files", "message"),
    [
        ("@docs/a.md\n", {"a": b"- Rule A\n@b.md\n", "b": b"- Rule B\n@a.md\n"}, "cycle"),
        ("@docs/a.md\n", {"a": b"- Rule A\n@../CLAUDE.md\n"}, "cycle"),
        ("@../outside.md\n", {}, "CLAUDE.md:3: @../outside.md: outside the imported folder"),
        ("@/etc/hosts.md\n", {}, "outside the imported folder and ~/.claude"),
        ("@~/notes.md\n", {}, "outside the imported folder and ~/.claude"),
        ("@docs/latin1.md\n", {"latin1": b"- Caf\xe9 cr\xe8me\n"}, "not valid UTF-8 at byte 5"),
        ("@docs/bad.md\n", {"bad": b"---\nname: [x\n---\n- Rule\n"}, "invalid YAML"),
    ],
)
def test_bad_imports_stop_the_whole_import_with_one_line(
    memory_repo: MemoryRepo,
    tmp_path: Path,
    home: Path,
    git: Git,
    claude_md: str,
    files: dict[str, bytes],
    message: str,
) -> None:
    (tmp_path / "outside.md").write_text("- Something outside the project\n")
    folder = _project_with(tmp_path, claude_md, **files)
    before = state(memory_repo, git)
    with pytest.raises(ImportSourceError, match=message) as caught:
        memory_repo.import_memory(folder, source="claude-code")
    assert "\n" not in str(caught.value)
    assert state(memory_repo, git) == before  # nothing half-imported, not even the ledger


def test_an_import_through_a_symlink_out_of_the_project_is_refused(
    memory_repo: MemoryRepo, tmp_path: Path, home: Path, git: Git
) -> None:
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "keys.md").write_text("- The vault combination is 12-34-56\n")
    folder = _project_with(tmp_path, "@docs/linked/keys.md\n")
    (folder / "docs" / "linked").symlink_to(secret, target_is_directory=True)
    before = state(memory_repo, git)
    with pytest.raises(ImportSourceError, match="a symlink leads out of the imported folder"):
        memory_repo.import_memory(folder, source="claude-code")
    assert state(memory_repo, git) == before
    (folder / "CLAUDE.md").unlink()
    (folder / "CLAUDE.md").symlink_to(secret / "keys.md")
    with pytest.raises(ImportSourceError, match=r"CLAUDE\.md: a symlink leads out"):
        memory_repo.import_memory(folder, source="claude-code")
    assert "vault" not in everything_git_has(memory_repo, git)


def test_a_symlink_inside_the_project_is_followed(
    memory_repo: MemoryRepo, tmp_path: Path, home: Path
) -> None:
    folder = _project_with(tmp_path, "@docs/alias.md\n", real=b"- A rule behind a symlink\n")
    os.symlink("real.md", folder / "docs" / "alias.md")
    memory_repo.import_memory(folder, source="claude-code")
    assert any(e.text == "A rule behind a symlink" for e in memory_repo.entries())


def test_a_huge_claude_md_is_refused(
    memory_repo: MemoryRepo, tmp_path: Path, home: Path, git: Git
) -> None:
    folder = _project_with(tmp_path, "@docs/huge.md\n")
    with open(folder / "docs" / "huge.md", "wb") as handle:
        handle.truncate(9 << 20)  # sparse: no disk used
    before = state(memory_repo, git)
    with pytest.raises(ImportSourceError, match=r"docs/huge\.md: 9,437,184 bytes"):
        memory_repo.import_memory(folder, source="claude-code")
    assert state(memory_repo, git) == before


def test_a_folder_that_is_no_claude_code_source_is_a_clear_error(
    memory_repo: MemoryRepo, tmp_path: Path
) -> None:
    with pytest.raises(ImportSourceError, match=r"no MEMORY\.md, CLAUDE\.md"):
        memory_repo.import_memory(tmp_path, source="claude-code")
