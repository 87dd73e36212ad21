"""What the import tests share (no tests of its own; named test_import_* to sit with
them): fixture copies and a snapshot of everything an import could change, so "nothing
was imported" is one comparison."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
ALL_ITEMS = ItemFilters(status="any", include_private=True)

Git = Callable[..., str]
State = tuple[str, list[dict[str, object]], list[dict[str, object]], str]


def copy_fixture(name: str, target: Path) -> Path:
    """A private copy of `fixtures/imports/<name>` at `target` (tests edit their copy)."""
    source = FIXTURES / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy(source, target)
    return target


def state(repo: MemoryRepo, git: Git) -> State:
    """Main's commit, every entry, every item and the import ledger."""
    ledger = repo.root / ".git" / "memrepo" / "imports.json"
    return (
        git(repo.root, "rev-parse", "main"),
        [e.model_dump() for e in repo.entries()],
        [i.model_dump() for i in repo.list_items(ALL_ITEMS)],
        ledger.read_text() if ledger.exists() else "",
    )


def everything_git_has(repo: MemoryRepo, git: Git) -> str:
    """Every commit message and diff of every ref, and every tracked file."""
    history = git(repo.root, "log", "--all", "-p", "--format=%H%n%B")
    files = "".join(
        path.read_text() for path in repo.root.rglob("*.md") if ".git" not in path.parts
    )
    return history + files
