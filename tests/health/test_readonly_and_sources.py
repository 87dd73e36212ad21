"""health and sources change nothing; sources counts producers and never echoes text."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.health import PRESETS, Thresholds, collect_sources, load_thresholds
from memrepo.items.db import DB_NAME

from .conftest import Git, commit_files, health


def _files(directory: Path) -> dict[str, str]:
    """Every file below `directory` with the hash of its bytes."""
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _git_state(git: Git, root: Path) -> tuple[str, ...]:
    return (
        git(root, "status", "--porcelain", "--untracked-files=all"),
        git(root, "rev-parse", "HEAD"),
        git(root, "symbolic-ref", "HEAD"),
        git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(root, "stash", "list"),
    )


def _busy_repo(repo: MemoryRepo, git: Git) -> MemoryRepo:
    """Items, an index, a review branch, a hand edit and an uncommitted file."""
    repo.remember("Prefers pnpm over npm")
    repo.remember("Standup is at 9:30", private=True)
    repo.remember("Calls after 10am", contact_ref="mail:ana@example.com")
    repo.reindex()
    repo.close()
    git(repo.root, "branch", "dream/2026-01-01-1", "main")
    with (repo.root / "MEMORY.md").open("a") as handle:
        handle.write("- [[nowhere]]\n")
    (repo.root / "draft.md").write_text("# Draft\n\n- not committed yet\n")
    return repo


@pytest.mark.slow
def test_health_and_sources_change_nothing(memory_repo: MemoryRepo, git: Git) -> None:
    repo = _busy_repo(memory_repo, git)
    git(repo.root, "status")  # let git refresh its own index first
    git_dir = repo.root / ".git"
    before_files, before_git = _files(git_dir), _git_state(git, repo.root)
    db_bytes = (repo.folder.state_dir / DB_NAME).read_bytes()
    for preset in PRESETS:
        report = health(repo, preset)
        assert report.check("index").status == "INFO"  # behind: nothing was synced
    collect_sources(repo.folder)
    assert _files(git_dir) == before_files  # refs, objects, index, state dir, no new files
    assert (repo.folder.state_dir / DB_NAME).read_bytes() == db_bytes
    assert _git_state(git, repo.root) == before_git


def test_health_on_a_fresh_repo_creates_no_state(memory_repo: MemoryRepo) -> None:
    before = sorted(p.name for p in memory_repo.folder.state_dir.iterdir())
    health(memory_repo)
    collect_sources(memory_repo.folder)
    assert sorted(p.name for p in memory_repo.folder.state_dir.iterdir()) == before


def test_sources_count_folder_producers_and_item_stores(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm", by="user")
    memory_repo.remember("Runs tests with pytest -x")
    memory_repo.remember("Likes dark themes", workspace="Acme")
    memory_repo.record_feedback("Stop summarizing diffs", workspace="Acme")
    memory_repo.remember("Standup is at 9:30", private=True, source="https://wiki/standup")
    memory_repo.remember("Calls after 10am", contact_ref="mail:ana@example.com")
    memory_repo.close()
    report = collect_sources(memory_repo.folder)
    folder = {(r.source, r.producer, r.scope): r.count for r in report.folder}
    assert folder == {
        ("user", "remember", "global"): 1,
        ("agent", "remember", "global"): 1,
        ("agent", "remember", "workspace"): 1,
        ("user", "feedback", "workspace"): 1,
    }
    assert report.folder_entries == 4
    items = {(r.source, r.producer, r.scope): r.count for r in report.items}
    assert items == {("inferred", "link", "global"): 1, ("inferred", "unknown", "contact"): 1}
    assert (report.items_active, report.items_private, report.store_present) == (2, 1, True)


def test_sources_never_carry_memory_text(memory_repo: MemoryRepo, git: Git) -> None:
    memory_repo.remember("Zanzibar-quokka rule: deploy on Tuesdays", subject="deploy-day")
    memory_repo.remember("Quokka-ledger code is 7731", private=True)
    memory_repo.close()
    hand = b"# Hand\n\n- Hand-typed fact [by: marmalade-quokka-text; origin: Zanzibar notes]\n"
    commit_files(git, memory_repo.root, {"hand.md": hand})
    dumped = collect_sources(memory_repo.folder).model_dump_json()
    for word in ("Zanzibar", "zanzibar", "quokka", "Quokka", "7731", "deploy", "marmalade"):
        assert word not in dumped
    rows = json.loads(dumped)["folder"]
    assert {"source": "other", "producer": "other", "scope": "global", "count": 1} in rows


def test_both_presets_name_every_check_and_ci_is_stricter() -> None:
    default, ci = load_thresholds("default"), load_thresholds("ci")
    assert set(Thresholds.model_fields) == set(default.model_dump()) == set(ci.model_dump())
    order = {"INFO": 0, "WARN": 1, "FAIL": 2}
    for name in Thresholds.model_fields:
        low, high = getattr(default, name), getattr(ci, name)
        assert low.max == high.max, name
        assert order[high.level] >= order[low.level], name
    assert ci.secrets.level == default.secrets.level == "FAIL"


def test_every_threshold_is_used_by_a_check(memory_repo: MemoryRepo) -> None:
    names = {check.name for check in health(memory_repo).checks}
    assert names == set(Thresholds.model_fields)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="use one of default, ci"):
        load_thresholds("strict")
