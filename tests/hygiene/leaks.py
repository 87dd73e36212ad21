"""Where a secret value could have ended up: every git object, the repo's own files, the
local state (Whoosh index, SQLite store and its WAL, task registry), the working tree.

Shared by the tests that pass secrets through every write, read and sync path. A value
counts as leaked in any letter case, because file and workspace slugs are casefolded.
Fake tokens are built from split literals so that scanners reading this file find none.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

GITHUB_TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
AWS_KEY_ID = "AKIA" + "Q3ZX7W2V9K4M1N8P"


def git_objects(root: Path) -> bytes:
    """The raw content of every object in the repository, loose and packed."""
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout


def leaks(root: Path, secret: str) -> list[str]:
    """Every place under `root` holding `secret` (any case): "git objects" or a file path.

    Loose git objects are compressed, so the objects are read through `git cat-file`;
    everything else (refs, reflogs, .git/index, the state dir, the worktree) is read
    as raw bytes.
    """
    needle = secret.casefold().encode()
    found = ["git objects"] if needle in git_objects(root).lower() else []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "/objects/" in path.as_posix():
            continue
        name = path.relative_to(root).as_posix()
        if needle in name.casefold().encode() or needle in path.read_bytes().lower():
            found.append(name)
    return found
