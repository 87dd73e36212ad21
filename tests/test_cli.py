"""The `memrepo` command against real memory repos: output, --json, exit codes, help."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import build_parser

Git = Callable[..., str]
CommitCount = Callable[..., int]
Run = Callable[..., tuple[int, str, str]]

WRITTEN = re.compile(r"^(inserted|superseded) (folder:\S+#\S+) \(commit ([0-9a-f]{10})\)$")
LOG_LINE = re.compile(r"^[0-9a-f]{10} \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+/\S+ .+$")
# Built at runtime so the test file itself holds no credential-shaped string.
FAKE_AWS_KEY = "AKIA" + "Q3ZX7W2V9K4M1N8P"
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture
def repo_arg(memory_repo: MemoryRepo) -> list[str]:
    return ["--repo", str(memory_repo.root)]


def _commits(git: Git, root: Path) -> list[str]:
    return git(root, "log", "--format=%H").split()


def _one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("memrepo: ")
    return lines[0]


# --- init -------------------------------------------------------------------------------


def test_init_creates_a_memory_repo(
    run: Run, git: Git, commit_count: CommitCount, tmp_path: Path
) -> None:
    target = tmp_path / "fresh"
    code, out, err = run("init", str(target))
    assert (code, err) == (0, "")
    assert out == f"memory repo ready at {target.resolve()}\n"
    assert (target / "MEMORY.md").read_text() == "# Memory\n\n## Index\n"
    assert git(target, "status", "--porcelain") == ""
    assert commit_count(target) == 1


def test_init_without_path_uses_repo_option(run: Run, tmp_path: Path) -> None:
    code, _, _ = run("--repo", str(tmp_path / "via-option"), "init")
    assert code == 0
    assert (tmp_path / "via-option" / "MEMORY.md").is_file()


def test_init_twice_keeps_history(
    run: Run, commit_count: CommitCount, memory_repo: MemoryRepo
) -> None:
    assert run("--repo", str(memory_repo.root), "remember", "Prefers pnpm over npm")[0] == 0
    assert run("init", str(memory_repo.root))[0] == 0
    assert commit_count(memory_repo.root) == 2


# --- remember ---------------------------------------------------------------------------


def test_remember_prints_ref_and_commit(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    code, out, err = run(*repo_arg, "remember", "Prefers pnpm over npm")
    assert (code, err) == (0, "")
    match = WRITTEN.match(out.rstrip("\n"))
    assert match is not None, out
    assert match.group(1) == "inserted"
    assert match.group(2).startswith("folder:MEMORY.md#")
    assert git(memory_repo.root, "status", "--porcelain") == ""
    head = git(memory_repo.root, "log", "-1", "--format=%H %s")
    assert head.startswith(match.group(3))
    assert "Remember: Prefers pnpm over npm" in head
    memory = (memory_repo.root / "MEMORY.md").read_text()
    assert "- Prefers pnpm over npm [" in memory
    assert "by: user" in memory  # a person typing the command states the fact


def test_remember_json_is_the_write_result(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    code, out, _ = run(*repo_arg, "remember", "Deploys go through staging", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "written"
    assert data["action"] == "inserted"
    assert data["path"] == "MEMORY.md"
    assert data["commit"] == git(memory_repo.root, "rev-parse", "HEAD").strip()
    assert data["ref"] in {e.ref for e in memory_repo.entries()}


def test_remember_passes_every_option(
    run: Run, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    code, out, _ = run(
        *repo_arg,
        "remember",
        "Editor: helix",
        "--file",
        "tools/editors",
        "--subject",
        "editor",
        "--source",
        "memrepo://tasks/7",
        "--kind",
        "preference",
        "--by",
        "agent",
        "--expires",
        "2030-01-31",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["ref"] == "folder:tools/editors.md#editor"
    [entry] = memory_repo.entries("tools/editors.md")
    assert entry.text == "Editor: helix"
    assert entry.metadata["subject"] == "editor"
    assert entry.metadata["source"] == "memrepo://tasks/7"
    assert entry.metadata["kind"] == "preference"
    assert entry.metadata["by"] == "agent"
    assert entry.metadata["expires"] == "2030-01-31"


def test_remember_workspace_and_supersede(
    run: Run, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    code, out, _ = run(*repo_arg, "remember", "Deploys via staging", "--workspace", "Web shop")
    assert code == 0
    assert "folder:workspaces/web-shop.md#" in out
    run(*repo_arg, "remember", "Editor: vim", "--subject", "editor")
    code, out, _ = run(*repo_arg, "remember", "Editor: helix", "--subject", "editor")
    match = WRITTEN.match(out.rstrip("\n"))
    assert match is not None and match.group(1) == "superseded"
    assert [e.text for e in memory_repo.entries("MEMORY.md")] == ["Editor: helix"]


def test_remember_skip_and_reinforce_make_no_commit(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    code, out, err = run(*repo_arg, "remember", "x")
    assert (code, out, err) == (3, "", "memrepo: skipped: too_short\n")
    code, out, _ = run(*repo_arg, "remember", "x", "--json")
    assert code == 3 and json.loads(out)["reason"] == "too_short"
    run(*repo_arg, "remember", "Prefers pnpm over npm")
    before = _commits(git, memory_repo.root)
    code, out, _ = run(*repo_arg, "remember", "prefers  PNPM over npm")
    assert code == 0
    assert out.startswith("reinforced folder:MEMORY.md#")
    assert out.rstrip().endswith("(no new commit)")
    assert _commits(git, memory_repo.root) == before


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        (["--file", "../outside.md"], "'..' would leave the memory root"),
        (["--file", "/etc/passwd"], "absolute paths are not allowed"),
        (["--file", ".git/config"], "nothing under .git"),
        (["--by", "robot"], "must be one of user, agent, dream, import"),
        (["--expires", "next week"], "use YYYY-MM-DD"),
    ],
)
def test_remember_rejects_bad_values(
    run: Run,
    git: Git,
    memory_repo: MemoryRepo,
    repo_arg: list[str],
    options: list[str],
    needle: str,
) -> None:
    before = _commits(git, memory_repo.root)
    code, out, err = run(*repo_arg, "remember", "A fact worth keeping", *options)
    assert (code, out) == (1, "")
    assert needle in _one_error_line(err)
    assert _commits(git, memory_repo.root) == before
    assert not (memory_repo.root.parent / "outside.md").exists()


# --- forget -----------------------------------------------------------------------------


def test_forget_removes_the_entry(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    ref = memory_repo.remember("Prefers pnpm over npm").ref
    assert ref is not None
    code, out, _ = run(*repo_arg, "forget", ref)
    assert code == 0
    assert out.startswith(f"forgot {ref}: Prefers pnpm over npm (commit ")
    assert memory_repo.entries() == []
    assert git(memory_repo.root, "status", "--porcelain") == ""
    assert "Memrepo-Origin: forget" in git(memory_repo.root, "log", "-1", "--format=%B")


def test_forget_json(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    ref = memory_repo.remember("Prefers pnpm over npm").ref
    assert ref is not None
    code, out, _ = run(*repo_arg, "forget", ref, "--json")
    data = json.loads(out)
    assert (code, data["ref"], data["text"], data["path"]) == (
        0,
        ref,
        "Prefers pnpm over npm",
        "MEMORY.md",
    )


@pytest.mark.parametrize(
    "ref", ["folder:MEMORY.md#0000000000", "folder:nothere.md#abc", "not-a-ref"]
)
def test_forget_bad_ref_is_exit_1(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str], ref: str
) -> None:
    before = _commits(git, memory_repo.root)
    code, out, err = run(*repo_arg, "forget", ref)
    assert (code, out) == (1, "")
    assert ref in _one_error_line(err)
    assert _commits(git, memory_repo.root) == before


# --- log --------------------------------------------------------------------------------


def test_log_one_line_per_commit(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    memory_repo.remember("Prefers pnpm over npm", by="user")
    memory_repo.remember("Deploys via staging", workspace="Web shop")
    code, out, _ = run(*repo_arg, "log")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    assert all(LOG_LINE.match(line) for line in lines), lines
    assert [line[:10] for line in lines] == [c[:10] for c in _commits(git, memory_repo.root)]
    assert " remember/agent Remember: Deploys via staging" in lines[0]
    assert " remember/user Remember: Prefers pnpm over npm" in lines[1]
    assert " init/user Create the memory repo" in lines[2]


def test_log_limit_path_and_json(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Deploys via staging", workspace="Web shop")
    code, out, _ = run(*repo_arg, "log", "--limit", "1")
    assert code == 0 and len(out.splitlines()) == 1
    code, out, _ = run(*repo_arg, "log", "--path", "workspaces/web-shop.md", "--json")
    data = json.loads(out)
    assert code == 0 and len(data) == 1
    assert data[0]["origin"] == "remember"
    assert "workspaces/web-shop.md" in data[0]["paths"]
    assert data[0]["id"] == memory_repo.log(limit=1)[0].id


def test_log_limit_must_be_a_number(run: Run, repo_arg: list[str]) -> None:
    code, out, err = run(*repo_arg, "log", "--limit", "many")
    assert (code, out) == (2, "")
    assert "invalid int value" in err


# --- undo -------------------------------------------------------------------------------


def test_undo_newest_write(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    memory_repo.remember("Editor: vim", subject="editor")
    written = memory_repo.remember("Editor: helix", subject="editor")
    assert written.commit is not None
    code, out, _ = run(*repo_arg, "undo")
    assert code == 0
    assert out.startswith(
        f"undid {written.commit[:10]}, the agent's write (origin remember): "
        "Update: Editor: helix (commit "
    )
    assert "1 entry removed, 1 restored in MEMORY.md" in out
    assert [e.text for e in memory_repo.entries()] == ["Editor: vim"]
    assert git(memory_repo.root, "status", "--porcelain") == ""


def test_undo_named_commit_json(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    first = memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Deploys via staging")
    assert first.commit is not None
    code, out, _ = run(*repo_arg, "undo", first.commit[:10], "--json")
    data = json.loads(out)
    assert code == 0
    assert data["undone"] == first.commit
    assert data["entries_removed"] == 1
    assert [e.text for e in memory_repo.entries()] == ["Deploys via staging"]


@pytest.mark.parametrize("commit", [None, "0123456789abcdef"])
def test_undo_errors_are_exit_1(run: Run, repo_arg: list[str], commit: str | None) -> None:
    code, out, err = run(*repo_arg, "undo", *([commit] if commit else []))
    assert (code, out) == (1, "")
    _one_error_line(err)


# --- status -----------------------------------------------------------------------------


def test_status_clean_and_dirty(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    assert run(*repo_arg, "status") == (0, "clean: no uncommitted edits\n", "")
    with (memory_repo.root / "MEMORY.md").open("a") as handle:
        handle.write("- Written by hand\n")
    (memory_repo.root / "notes.md").write_text("# Notes\n")
    code, out, _ = run(*repo_arg, "status")
    assert code == 0
    assert "modified  MEMORY.md" in out.splitlines()
    assert "added     notes.md" in out.splitlines()
    code, out, _ = run(*repo_arg, "status", "--json")
    data = json.loads(out)
    assert data["modified"] == ["MEMORY.md"]
    assert data["added"] == ["notes.md"]
    assert data["root"] == str(memory_repo.root)


def test_user_edit_is_committed_before_a_write(
    run: Run, git: Git, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    memory = memory_repo.root / "MEMORY.md"
    memory.write_text(memory.read_text().replace("# Memory\n", "# Memory\n- Written by hand\n"))
    assert run(*repo_arg, "remember", "Prefers pnpm over npm")[0] == 0
    subjects = git(memory_repo.root, "log", "--format=%s").splitlines()
    assert subjects[0] == "Remember: Prefers pnpm over npm"
    assert subjects[1].startswith("Record edits made outside memrepo")
    assert git(memory_repo.root, "status", "--porcelain") == ""


# --- lint -------------------------------------------------------------------------------


def test_lint_clean(run: Run, repo_arg: list[str]) -> None:
    assert run(*repo_arg, "lint") == (0, "no problems\n", "")


def test_lint_warning_keeps_exit_0(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    (memory_repo.root / "MEMORY.md").write_text("# Memory\n\n## Index\n- [[gone]]\n")
    code, out, _ = run(*repo_arg, "lint")
    assert code == 0
    assert out.startswith("MEMORY.md:4: warning broken_link: [[gone]]")


def test_lint_error_is_exit_1(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    (memory_repo.root / "notes.md").write_text(f"# Notes\n\n- key {FAKE_AWS_KEY}\n")
    code, out, _ = run(*repo_arg, "lint")
    assert code == 1
    assert "notes.md:3: error secret: looks like a secret (aws_access_key_id)" in out.splitlines()
    code, out, _ = run(*repo_arg, "lint", "--json")
    assert code == 1
    kinds = {(p["kind"], p["severity"], p["path"]) for p in json.loads(out)["problems"]}
    assert ("secret", "error", "notes.md") in kinds


# --- show / entries ---------------------------------------------------------------------


def test_show_lists_entries(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    written = memory_repo.remember("Prefers pnpm over npm", subject="pm")
    memory_repo.remember("Deploys via staging", workspace="Web shop")
    code, out, _ = run(*repo_arg, "show")
    assert code == 0
    lines = out.splitlines()
    [entry] = [e for e in memory_repo.entries() if e.ref == written.ref]
    assert f"{written.ref}  (MEMORY.md:{entry.line})" in lines
    assert "    Prefers pnpm over npm" in lines
    assert any(line.startswith("    ") and "subject: pm" in line for line in lines)
    assert any(line.startswith("folder:workspaces/web-shop.md#") for line in lines)


def test_show_path_prints_the_file(run: Run, memory_repo: MemoryRepo, repo_arg: list[str]) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    code, out, _ = run(*repo_arg, "show", "MEMORY.md")
    assert code == 0
    assert out == (memory_repo.root / "MEMORY.md").read_text()


def test_show_path_json_and_entries_alias(
    run: Run, memory_repo: MemoryRepo, repo_arg: list[str]
) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.remember("Deploys via staging", workspace="Web shop")
    code, out, _ = run(*repo_arg, "show", "workspaces/web-shop.md", "--json")
    data = json.loads(out)
    assert code == 0
    assert [(e["path"], e["text"]) for e in data] == [
        ("workspaces/web-shop.md", "Deploys via staging")
    ]
    assert data[0]["metadata"]["origin"] == "remember"
    code, out, _ = run(*repo_arg, "entries", "--json")
    assert code == 0
    assert {e["text"] for e in json.loads(out)} == {"Prefers pnpm over npm", "Deploys via staging"}
    code, out, _ = run(*repo_arg, "entries", "MEMORY.md")
    assert code == 0 and "Deploys via staging" not in out


@pytest.mark.parametrize(
    ("path", "needle"), [("../secret.md", "would leave the memory root"), ("nope.md", "no such")]
)
def test_show_bad_path_is_exit_1(
    run: Run, memory_repo: MemoryRepo, repo_arg: list[str], path: str, needle: str
) -> None:
    (memory_repo.root.parent / "secret.md").write_text("outside\n")
    code, out, err = run(*repo_arg, "show", path)
    assert (code, out) == (1, "")
    assert needle in _one_error_line(err)


# --- which repo -------------------------------------------------------------------------


def test_not_a_memory_repo_is_exit_1(run: Run, tmp_path: Path) -> None:
    code, out, err = run("--repo", str(tmp_path / "missing"), "log")
    assert (code, out) == (1, "")
    line = _one_error_line(err)
    assert "not a memory repo" in line and "memrepo init" in line


def test_repo_option_after_the_subcommand(run: Run, memory_repo: MemoryRepo) -> None:
    code, out, _ = run("log", "--repo", str(memory_repo.root))
    assert code == 0 and "Create the memory repo" in out


def test_repo_from_environment(
    run: Run, memory_repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMREPO_REPO", str(memory_repo.root))
    assert run("remember", "Prefers pnpm over npm")[0] == 0
    assert [e.text for e in memory_repo.entries()] == ["Prefers pnpm over npm"]


def test_repo_option_beats_environment(
    run: Run, memory_repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MEMREPO_REPO", str(tmp_path / "elsewhere"))
    assert run("--repo", str(memory_repo.root), "status")[0] == 0


def test_default_repo_is_agent_memory_in_home(
    run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("MEMREPO_REPO", raising=False)
    assert run("init")[0] == 0
    assert (tmp_path / "agent-memory" / "MEMORY.md").is_file()
    assert run("remember", "Prefers pnpm over npm")[0] == 0


# --- usage and help ---------------------------------------------------------------------


def _subcommands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices)


def test_every_documented_command_exists() -> None:
    """The commands the README's table documents (other areas add more of their own)."""
    missing = {
        "demo",
        "entries",
        "eval",
        "forget",
        "init",
        "items",
        "lint",
        "log",
        "recall",
        "reindex",
        "remember",
        "retention",
        "show",
        "status",
        "undo",
        "why",
        "workspace",
    } - set(_subcommands())
    assert missing == set()


@pytest.mark.parametrize("command", [[], *([name] for name in _subcommands())])
def test_every_help_has_an_example(run: Run, command: list[str]) -> None:
    code, out, _ = run(*command, "--help")
    assert code == 0
    assert "Example:\n  memrepo " in out


def test_readme_shows_every_command() -> None:
    readme = README.read_text(encoding="utf-8")
    missing = [name for name in _subcommands() if f"`memrepo {name}" not in readme]
    assert missing == []


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.+?)\n```", readme)
    assert blocks[:2] == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install . && memrepo demo",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' "
        "&& python -m pytest -q -n auto",
    ]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == "python -m pytest -q -n auto"


@pytest.mark.parametrize("argv", [["fly"], ["remember"], ["undo", "a", "b"]])
def test_usage_errors_are_exit_2(run: Run, argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert err.startswith("usage: memrepo")


# --- as a process -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.integration
def test_console_entry_point_in_a_subprocess(git: Git, memory_repo: MemoryRepo) -> None:
    command = [sys.executable, "-c", "from memrepo.cli import main; raise SystemExit(main())"]
    done = subprocess.run(
        [*command, "--repo", str(memory_repo.root), "remember", "Prefers pnpm over npm"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert WRITTEN.match(done.stdout.rstrip("\n"))
    assert git(memory_repo.root, "status", "--porcelain") == ""
    failed = subprocess.run(
        [*command, "--repo", str(memory_repo.root), "forget", "folder:MEMORY.md#nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1
    assert failed.stderr.startswith("memrepo: folder:MEMORY.md#nope")


@pytest.mark.slow
def test_the_readme_agent_snippet_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "Use from an agent" block is the first thing an integrator copies: it must work."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # its mkdtemp lands here
    readme = README.read_text(encoding="utf-8")
    section = readme.split("## Use from an agent", 1)[1]
    code = re.findall(r"```python\n(.+?)\n```", section, re.S)[0]
    exec(compile(code, "README.md", "exec"), {})
    status, source, ref = capsys.readouterr().out.split()
    assert (status, source) == ("written", "user_stated")
    assert ref.startswith("folder:workspaces/web-shop.md#")


def test_a_set_aside_journal_is_one_warning_line_and_the_command_works(
    run: Run, memory_repo: MemoryRepo
) -> None:
    journal = memory_repo.folder.state_dir / "journal.json"
    memory_repo.close()
    journal.write_text('{"commit": "zz", "parent": 1, "files": {"../x": null}}')
    code, out, err = run("--repo", str(memory_repo.root), "remember", "After a forged journal")
    assert code == 0 and out.startswith("inserted ")
    assert err.count("\n") == 1 and err.startswith("memrepo: warning: the journal of an")
    assert "Traceback" not in err and ".py:" not in err
    assert not journal.exists()


def _parsers(
    parser: argparse.ArgumentParser, name: str
) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(name, parser)]
    for act in parser._actions:
        if isinstance(act, argparse._SubParsersAction):
            for child, sub in act.choices.items():
                found.extend(_parsers(sub, f"{name} {child}"))
    return found


def test_every_action_has_an_example_and_every_argument_has_help() -> None:
    missing: list[str] = []
    for name, parser in _parsers(build_parser(), "memrepo"):
        if name != "memrepo" and "Example:\n  memrepo " not in (parser.epilog or ""):
            missing.append(f"{name}: no example")
        for act in parser._actions:
            if not act.help and not isinstance(act, argparse._SubParsersAction):
                missing.append(f"{name}: {act.option_strings or act.dest} has no help")
    assert missing == []


def test_workspace_privacy_modes_are_explained(run: Run) -> None:
    code, out, _ = run("workspace", "set", "--help")
    assert code == 0
    assert all(mode in out for mode in ("normal:", "strict:", "disabled:"))
