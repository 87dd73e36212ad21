"""Claude Code memory that is more than a line: long memories with code and lists,
`.claude/rules/`, and one file per project (or the workspace named).

Shapes from Claude Code's memory docs (code.claude.com/docs/en/memory: "Auto memory",
"Organize rules with .claude/rules/", a rule's `paths:` frontmatter); the auto-memory
folder sits where Claude Code puts it, `~/.claude/projects/<project path, / as ->/memory`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import claude_memory_file
from .test_import_support import Git

Run = Callable[..., tuple[int, str, str]]

DEPLOY = """\
Deploys go through the release train, never by hand.

Steps:
- Tag the release on main
- Wait for the canary to stay green for 30 minutes
- Promote with the script below

```bash
./scripts/promote.sh --env prod
kubectl rollout status deploy/api
```

**Why:** a hand deploy skipped the canary in March and took checkout down.
"""


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def auto_memory(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / ".claude" / "projects" / "-work-shop" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(
        "".join(f"- [{name}]({name})\n" for name in files if name != "MEMORY.md")
    )
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_a_memory_keeps_its_list_and_code(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    folder = auto_memory(
        tmp_path, {"deploy.md": claude_memory_file("Deploys", "project", "How we deploy", DEPLOY)}
    )
    report = memory_repo.import_memory(folder, source="claude-code")
    assert report.problems == ()
    [entry] = memory_repo.entries("imports/claude-code/work-shop.md")
    assert entry.text == (
        "Deploys go through the release train, never by hand. Steps: Tag the release on main; "
        "Wait for the canary to stay green for 30 minutes; Promote with the script below. "
        "`./scripts/promote.sh --env prod ⏎ kubectl rollout status deploy/api` **Why:** a "
        "hand deploy skipped the canary in March and took checkout down."
    )
    assert entry.metadata["source"] == "work-shop/deploy.md#L8"  # first line after frontmatter


def test_a_long_memory_is_split_into_parts_never_cut(
    memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    paragraphs = [f"Runbook step {n}: " + "check the dashboards and the queue depth " * 6
                  for n in range(1, 9)]  # fmt: skip
    body = "\n\n".join(paragraphs) + "\n"
    assert len(body) > 2000
    folder = auto_memory(
        tmp_path, {"runbook.md": claude_memory_file("Runbook", "reference", "On-call", body)}
    )
    report = memory_repo.import_memory(folder, source="claude-code")
    entries = memory_repo.entries("imports/claude-code/work-shop.md")
    assert report.written == len(entries) >= 3 and report.problems == ()
    joined = " ".join(e.text for e in entries)
    assert all(p.strip() in joined for p in paragraphs)  # every word kept, none cut
    assert all(len(e.text) <= 1000 for e in entries)
    assert [e.metadata["part"] for e in entries] == [
        f"{n} of {len(entries)}" for n in range(1, len(entries) + 1)
    ]
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_one_endless_paragraph_is_cut_and_reported(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    body = "word " * 400 + "\n"
    folder = auto_memory(tmp_path, {"long.md": claude_memory_file("Long", "user", "d", body)})
    report = memory_repo.import_memory(folder, source="claude-code")
    [problem] = report.problems
    assert (problem.path, problem.reason) == ("long.md", "truncated")
    assert "cut at a word boundary" in problem.message
    assert report.written == 1


def test_rules_are_read_with_their_paths(memory_repo: MemoryRepo, tmp_path: Path) -> None:
    project = tmp_path / "code" / "shop-api"
    rules = project / ".claude" / "rules"
    (rules / "frontend").mkdir(parents=True)
    (rules / "testing.md").write_text("# Testing\n\n- Integration tests hit a real database\n")
    (rules / "frontend" / "react.md").write_text(
        '---\npaths:\n  - "src/web/**/*.tsx"\n---\n\n- Components are function components\n'
    )
    report = memory_repo.import_memory(project, source="claude-code")
    assert report.written == 2
    facts = {e.text: e.metadata for e in memory_repo.entries("imports/claude-code/shop-api.md")}
    react = facts["Components are function components"]
    assert react["paths"] == "src/web/**/*.tsx"
    assert react["source"] == "shop-api/.claude/rules/frontend/react.md#L6"  # after frontmatter
    assert facts["Integration tests hit a real database"]["section"] == "Testing"


def test_each_project_lands_in_its_own_file_and_can_go_to_a_workspace(
    run: Run, memory_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    for name, rule in (("billing", "Money is integer cents"), ("search", "Index nightly")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "CLAUDE.md").write_text(f"# {name}\n\n- {rule}\n")
    assert run("import", "--from", "claude-code", str(tmp_path / "billing"))[0] == 0
    code, out, _ = run(
        "import", "--from", "claude-code", str(tmp_path / "search"), "--workspace", "Search"
    )
    assert code == 0 and "1 written into workspace Search" in out
    billing = (memory_repo.root / "imports" / "claude-code" / "billing.md").read_text()
    assert "Money is integer cents" in billing and "source: billing/CLAUDE.md#L3" in billing
    [search] = [e for e in memory_repo.entries() if e.text == "Index nightly"]
    assert search.path != "imports/claude-code.md" and "search" in search.path.lower()
    assert search.metadata["source"] == "search/CLAUDE.md#L3"
    log = git(memory_repo.root, "log", "--format=%s")
    assert "Import from Claude Code (billing)" in log and "Import from Claude Code (search)" in log
