"""Hand edits memrepo must not commit, and the writes that go on beside them (issue #27).

Each case was reproduced by a tester: a NUL byte or one bad UTF-8 byte typed into
MEMORY.md, a file named with a newline, MEMORY.md replaced by a symlink, a secret in a
file a tool wrote, a secret hidden by a zero-width character or a wrapped PEM header, and
a code repository adopted as a memory folder. What git holds is checked with the `git`
command line; what a person sees is the CLI's exit code and its one line.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.hand_edits import HandEditHeld

Git = Callable[..., str]
CommitCount = Callable[..., int]
Run = Callable[..., tuple[int, str, str]]

# Built at runtime so the test file itself holds no credential-shaped string.
TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"


def _init(run: Run, root: Path) -> list[str]:
    code, _out, err = run("init", str(root))
    assert code == 0, err
    return ["--repo", str(root)]


def _type_into_memory(root: Path, line: bytes) -> None:
    """A person's editor adds `line` above MEMORY.md's Index."""
    memory = root / "MEMORY.md"
    memory.write_bytes(memory.read_bytes().replace(b"## Index", line + b"\n\n## Index"))


def _numstat(git: Git, root: Path) -> str:
    return git(root, "log", "--numstat", "--format=%s")


# --- 1. bytes that make a memory file binary or not UTF-8 ---------------------------------


def test_a_nul_byte_typed_into_memory_md_is_never_committed(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = _init(run, root)
    _type_into_memory(root, b"- pasted from a terminal \x00 oops")

    code, _out, err = run(*repo, "remember", "Builds run nightly", "--file", "ops.md")
    # The write to another file lands (ops.md is new, so MEMORY.md's Index would need a
    # link: the write that needs MEMORY.md is the one that is refused).
    assert code == 1
    assert err.count("\n") == 1 and "MEMORY.md:3" in err and "NUL" in err

    (root / "ops.md").write_text("# Ops\n")
    git(root, "add", "ops.md")
    git(root, "commit", "-q", "-m", "ops by hand", "--", "ops.md")
    for text in ("Builds run nightly", "Deploys on Fridays"):
        code, _out, err = run(*repo, "remember", text, "--file", "ops.md")
        assert code == 0, err
        assert "MEMORY.md" not in err  # reported once, not on every write

    assert "-\t-\t" not in _numstat(git, root)  # git never saw a binary memory file
    assert b"\x00" not in git(root, "show", "HEAD:MEMORY.md").encode()
    assert b"\x00" in (root / "MEMORY.md").read_bytes()  # the person's bytes stay
    assert "Deploys on Fridays" in git(root, "show", "HEAD:ops.md")

    code, out, _err = run(*repo, "status")
    assert code == 0 and "MEMORY.md:3" in out and "NUL" in out


@pytest.mark.slow
def test_one_bad_utf8_byte_is_held_and_recall_reads_the_last_good_version(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = _init(run, root)
    assert run(*repo, "remember", "Deploys go through staging")[0] == 0
    assert run(*repo, "remember", "Tests run in CI", "--file", "ops.md")[0] == 0
    _type_into_memory(root, b"- caf\xe9 menu is on the wall")

    code, _out, err = run(*repo, "remember", "Builds run nightly", "--file", "ops.md")
    assert code == 0, err
    assert "MEMORY.md:5" in err and "UTF-8" in err  # below the committed entry
    code, _out, err = run(*repo, "remember", "Releases are tagged")
    assert code == 1 and "MEMORY.md:5" in err and err.count("\n") == 1

    git(root, "show", "HEAD:MEMORY.md").encode("utf-8")  # git holds text, never the byte
    assert b"caf\xe9" not in git(root, "log", "-p").encode("utf-8", "surrogateescape")
    code, out, err = run(*repo, "recall", "staging")  # MEMORY.md's last good version
    assert code == 0, err
    assert "Deploys go through staging" in out
    code, out, err = run(*repo, "entries", "MEMORY.md")
    assert code == 0 and "Deploys go through staging" in out, err


def test_the_python_api_warns_once_and_keeps_writing(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("Builds run nightly", file="ops.md")
    _type_into_memory(memory_repo.root, b"- a \x00 byte")
    with pytest.warns(HandEditHeld, match=r"MEMORY\.md:3"):
        assert memory_repo.remember("Deploys on Fridays", file="ops.md").commit
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert memory_repo.remember("Tags are signed", file="ops.md").commit
    status = memory_repo.status()
    assert [held.path for held in status.held] == ["MEMORY.md"]
    assert "MEMORY.md" not in status.modified
    assert b"\x00" not in git(memory_repo.root, "show", "HEAD:MEMORY.md").encode()


# --- 2. a file named with a newline -----------------------------------------------------


def test_a_file_named_with_a_newline_is_refused_at_the_door(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = _init(run, root)
    (root / "topics").mkdir()
    (root / "topics" / "a\nb.md").write_text("# A\n\n- typed\n")

    code, _out, err = run(*repo, "remember", "Builds run nightly")
    assert code == 0, err
    assert err.count("\n") == 1 and "topics/a\\nb.md" in err
    assert "topics" not in git(root, "ls-files")
    assert "Builds run nightly" in git(root, "show", "HEAD:MEMORY.md")
    code, out, _err = run(*repo, "status")
    assert "topics/a\\nb.md" in out
    code, out, _err = run(*repo, "health")
    assert "topics/a\\nb.md" in out


# --- 3. MEMORY.md made a symlink --------------------------------------------------------


@pytest.mark.slow
def test_memory_md_made_a_symlink_is_refused_in_one_line(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = _init(run, root)
    assert run(*repo, "remember", "Builds run nightly", "--file", "ops.md")[0] == 0
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# Elsewhere\n\n- not memory\n")
    (root / "MEMORY.md").unlink()
    os.symlink(outside, root / "MEMORY.md")

    code, _out, err = run(*repo, "remember", "Releases are tagged")
    assert code == 1
    assert err.count("\n") == 1 and "MEMORY.md" in err and "symlink" in err
    assert "run the command again" not in err
    code, _out, err = run(*repo, "remember", "Deploys on Fridays", "--file", "ops.md")
    assert code == 0, err
    assert "Deploys on Fridays" in git(root, "show", "HEAD:ops.md")
    assert outside.read_text() == "# Elsewhere\n\n- not memory\n"
    assert git(root, "ls-tree", "HEAD", "MEMORY.md").startswith("100644 blob")
    code, out, _err = run(*repo, "recall", "nightly")
    assert "Builds run nightly" in out and "not memory" not in out


# --- 4. init in a code repository -------------------------------------------------------


def _code_repo(git: Git, root: Path) -> None:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "app.py").write_text("print('hello')\n")
    (root / "README.md").write_text("# App\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "code")


def test_init_refuses_a_code_repository_without_adopt(
    run: Run, git: Git, commit_count: CommitCount, tmp_path: Path
) -> None:
    root = tmp_path / "app"
    _code_repo(git, root)
    code, _out, err = run("init", str(root))
    assert code == 1
    assert err.count("\n") == 1 and "app.py" in err and "--adopt" in err
    assert commit_count(root) == 1 and not (root / "MEMORY.md").exists()
    code, out, _err = run("init", "--help")
    assert "--adopt" in out


def test_an_adopted_repository_s_own_files_are_never_committed(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "app"
    _code_repo(git, root)
    code, _out, err = run("init", "--adopt", str(root))
    assert code == 0, err
    (root / "app.py").write_text("print('half done'\n")
    (root / "README.md").write_text("# App\n\nWork in progress\n")
    (root / "notes.txt").write_text("scratch\n")
    (root / "docs").mkdir()
    (root / "docs" / "design.md").write_text("# Design\n\n- draft\n")
    (root / "MEMORY.md").write_text((root / "MEMORY.md").read_text() + "- [[topics/db]]\n")
    (root / "topics").mkdir()
    (root / "topics" / "db.md").write_text("# DB\n\n- Postgres 16\n")

    code, _out, err = run("--repo", str(root), "remember", "Uses pytest")
    assert code == 0, err
    changed = git(root, "log", "--name-only", "--format=", "HEAD~2..HEAD").split()
    assert sorted(set(changed)) == ["MEMORY.md", "topics/db.md"]
    porcelain = git(root, "status", "--porcelain")
    assert " M app.py" in porcelain and " M README.md" in porcelain
    assert "?? docs/" in porcelain and "?? notes.txt" in porcelain


def test_a_non_markdown_file_is_never_committed_as_a_hand_edit(
    memory_repo: MemoryRepo, git: Git
) -> None:
    root = memory_repo.root
    (root / "tool.json").write_text("{}\n")
    git(root, "add", "tool.json")
    git(root, "commit", "-q", "-m", "a tool's file")
    (root / "tool.json").write_text('{"state": 2}\n')
    memory_repo.remember("Builds run nightly")
    log = git(root, "log", "--format=%s", "-2").splitlines()
    assert log == ["Remember: Builds run nightly", "a tool's file"]  # no edit commit
    assert " M tool.json" in git(root, "status", "--porcelain")


# --- 5 and 6. secrets in hand edits -----------------------------------------------------


def test_a_secret_in_a_file_a_tool_wrote_blocks_only_itself(
    run: Run, git: Git, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = _init(run, root)
    (root / "tool.md").write_text(f"# Tool\n\n- token {TOKEN}\n")

    for text in ("Builds run nightly", "Deploys on Fridays"):
        code, _out, err = run(*repo, "remember", text)
        assert code == 0, err
        assert TOKEN not in err
    assert "tool.md" not in git(root, "ls-files")
    assert TOKEN not in git(root, "log", "--all", "-p")
    code, _out, err = run(*repo, "remember", "More", "--file", "tool.md")
    assert code == 1 and "tool.md:3" in err and TOKEN not in err
    for command in ("status", "health"):
        code, out, _err = run(*repo, command)
        assert "tool.md:3 (github_token)" in out and TOKEN not in out


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        (f"- token {TOKEN[:12]}\u200b{TOKEN[12:]}", 3),
        ("- key -----BEGIN RSA\nPRIVATE KEY-----", 3),
        ("- first line\n- second\n- key -----BEGIN OPENSSH\n  PRIVATE KEY-----", 5),
    ],
    ids=["zero-width-in-token", "pem-header-wrapped", "pem-header-wrapped-lower"],
)
def test_a_hand_edit_is_screened_after_the_agent_input_cleaning(
    memory_repo: MemoryRepo, git: Git, typed: str, line: int
) -> None:
    root = memory_repo.root
    (root / "notes.md").write_text(f"# Notes\n\n{typed}\n")
    with pytest.warns(HandEditHeld, match=rf"notes\.md:{line} \("):
        memory_repo.remember("Builds run nightly")
    assert "notes.md" not in git(root, "ls-files")
    held = memory_repo.status().held
    assert [(h.path, h.line) for h in held] == [("notes.md", line)]


def test_init_refuses_a_plain_folder_of_code_before_making_a_repository(
    run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\n")
    (root / "main.go").write_text("package main\n")
    code, _out, err = run("init", str(root))
    assert code == 1 and "main.go" in err and "--adopt" in err
    assert not (root / ".git").exists()
    code, _out, err = run("init", "--adopt", str(root))
    assert code == 0, err
    assert run("--repo", str(root), "remember", "Go 1.22")[0] == 0
    assert (root / "main.go").read_text() == "package main\n"
