"""Folder checks on real repos: each one triggered by what a person would do, and passing."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo

from .conftest import FAKE_AWS_KEY, Git, check, commit_files, health

INDEX = b"# Memory\n\n## Index\n"


def test_a_fresh_repo_has_no_warnings_or_failures(memory_repo: MemoryRepo) -> None:
    report = health(memory_repo)
    assert report.status == "PASS"
    assert report.counts["WARN"] == report.counts["FAIL"] == 0
    assert report.check("memory_md").detail == "0 entries, 0 index links"


def test_memory_md_missing_from_the_working_tree_fails(memory_repo: MemoryRepo) -> None:
    (memory_repo.root / "MEMORY.md").unlink()
    found = check(memory_repo, "memory_md")
    assert found.status == "FAIL"
    assert "missing from the working tree" in found.detail
    assert found.fix == "git checkout main -- MEMORY.md"


def test_memory_md_that_is_not_utf8_fails(memory_repo: MemoryRepo, git: Git) -> None:
    commit_files(git, memory_repo.root, {"MEMORY.md": b"# Memory\n\n- caf\xe9\n"})
    found = check(memory_repo, "memory_md")
    assert found.status == "FAIL"
    assert "not valid UTF-8" in found.detail


def test_memory_md_with_entries_passes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    found = check(memory_repo, "memory_md")
    assert (found.status, found.figure) == ("PASS", 1)


def test_unreadable_file_fails_format_and_odd_lines_warn(memory_repo: MemoryRepo, git: Git) -> None:
    commit_files(git, memory_repo.root, {"notes.md": b"# Notes\n\n- one\n  still one\n"})
    odd = check(memory_repo, "format")
    assert (odd.status, odd.figure, odd.threshold) == ("WARN", 1, 0)
    assert odd.detail == "notes.md:3"
    assert check(memory_repo, "format", "ci").status == "FAIL"
    commit_files(git, memory_repo.root, {"bad.md": b"# Bad\n\n- \xff\n"})
    broken = check(memory_repo, "format")
    assert broken.status == "FAIL"
    assert "bad.md" in broken.detail and "cannot be read" in broken.detail


def test_conflict_markers_committed_by_hand_fail_format(memory_repo: MemoryRepo, git: Git) -> None:
    markers = b"# Notes\n\n<<<<<<< HEAD\n- ours\n=======\n- theirs\n>>>>>>> other\n"
    commit_files(git, memory_repo.root, {"notes.md": markers})
    found = check(memory_repo, "format")
    assert found.status == "FAIL"
    assert "notes.md:3" in found.detail


def test_format_passes_on_clean_files(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Deploys go through the staging cluster", file="ops.md")
    found = check(memory_repo, "format")
    assert (found.status, found.figure, found.fix) == ("PASS", 0, "")


def test_broken_link_warns_and_fails_under_ci(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("See [[runbooks/deploy]] before any release", file="ops.md")
    found = check(memory_repo, "broken_links")
    assert (found.status, found.figure) == ("WARN", 1)
    assert found.detail.startswith("ops.md:")
    assert check(memory_repo, "broken_links", "ci").status == "FAIL"


def test_link_to_an_existing_file_passes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Releases need a changelog entry", file="runbooks/deploy.md")
    memory_repo.remember("See [[runbooks/deploy]] before any release", file="ops.md")
    assert check(memory_repo, "broken_links").status == "PASS"


def test_file_not_in_the_index_warns(memory_repo: MemoryRepo, git: Git) -> None:
    commit_files(git, memory_repo.root, {"orphan.md": b"# Orphan\n\n- A lonely fact\n"})
    found = check(memory_repo, "unlisted")
    assert (found.status, found.figure, found.detail) == ("WARN", 1, "orphan.md")


def test_files_written_by_memrepo_are_listed(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("A fact in a topic file", file="topics/a.md")
    assert check(memory_repo, "unlisted").status == "PASS"


@pytest.mark.slow
def test_memory_md_over_the_l0_budget_warns(memory_repo: MemoryRepo) -> None:
    for n in range(40):
        memory_repo.remember(f"Standing rule number {n}: keep answers short and cite the source")
    found = check(memory_repo, "memory_l0")
    size = len((memory_repo.root / "MEMORY.md").read_text())
    assert found.figure == -(-size // 4)  # the documented estimate: characters / 4, rounded up
    assert found.threshold == 600
    assert found.status == "WARN"
    assert check(memory_repo, "memory_l0", "ci").status == "FAIL"


def test_small_memory_md_is_within_budget(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers short answers")
    found = check(memory_repo, "memory_l0")
    assert found.status == "PASS"
    assert found.figure is not None and found.figure < 600


def test_secret_committed_by_hand_fails(memory_repo: MemoryRepo, git: Git) -> None:
    line = f"- deploy key {FAKE_AWS_KEY}\n".encode()
    commit_files(git, memory_repo.root, {"keys.md": b"# Keys\n\n" + line})
    found = check(memory_repo, "secrets")
    assert (found.status, found.figure) == ("FAIL", 1)
    assert found.detail == "at HEAD: keys.md:3 (aws_access_key_id)"
    assert FAKE_AWS_KEY not in found.model_dump_json()


def test_secret_still_at_head_fails_after_the_working_tree_dropped_it(
    memory_repo: MemoryRepo, git: Git
) -> None:
    line = f"- deploy key {FAKE_AWS_KEY}\n".encode()
    commit_files(git, memory_repo.root, {"keys.md": b"# Keys\n\n" + line})
    (memory_repo.root / "keys.md").write_text("# Keys\n\n- rotated\n")
    assert check(memory_repo, "secrets").status == "FAIL"


def test_secret_only_in_an_uncommitted_edit_is_reported_too(memory_repo: MemoryRepo) -> None:
    """Issue #15: such an edit stops every write and reached recall; health names it."""
    (memory_repo.root / "draft.md").write_text(f"# Draft\n\n- key {FAKE_AWS_KEY}\n")
    found = check(memory_repo, "secrets")
    assert (found.status, found.figure) == ("FAIL", 1)
    assert found.detail == "uncommitted: draft.md:3 (aws_access_key_id)"
    assert found.fix.startswith("remove it from the file")
    assert FAKE_AWS_KEY not in found.model_dump_json()


def test_a_secret_at_head_that_an_edit_keeps_counts_once(memory_repo: MemoryRepo, git: Git) -> None:
    commit_files(git, memory_repo.root, {"keys.md": f"# Keys\n\n- key {FAKE_AWS_KEY}\n".encode()})
    (memory_repo.root / "keys.md").write_text(f"# Keys\n\n- new line\n- key {FAKE_AWS_KEY}\n")
    found = check(memory_repo, "secrets")
    assert (found.status, found.figure, found.detail) == (
        "FAIL",
        1,
        "at HEAD: keys.md:3 (aws_access_key_id)",
    )


def test_no_secret_anywhere_passes(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Deploys go through staging")
    found = check(memory_repo, "secrets")
    assert (found.status, found.detail) == ("PASS", "none at HEAD or in uncommitted edits")


def test_repeated_entries_raise_the_folder_duplicate_rate(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The build uses Bazel", file="a.md")
    memory_repo.remember("the build  uses bazel", file="b.md")  # same normalized text
    memory_repo.remember("Tests run on every push", file="a.md")
    found = check(memory_repo, "folder_duplicates")
    assert found.status == "WARN"
    assert found.figure == round(100 / 3, 2)
    assert found.detail.startswith("1 of 3 entries repeat another (b.md:")


def test_distinct_entries_have_no_duplicates(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The build uses Bazel", file="a.md")
    memory_repo.remember("Tests run on every push", file="b.md")
    found = check(memory_repo, "folder_duplicates")
    assert (found.status, found.figure) == ("PASS", 0)


def test_uncommitted_edits_are_info(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Deploys need approval", file="ops.md")
    assert check(memory_repo, "uncommitted_edits").status == "PASS"
    with (memory_repo.root / "ops.md").open("a") as handle:
        handle.write("- Edited by hand\n")
    found = check(memory_repo, "uncommitted_edits")
    assert (found.status, found.figure, found.detail) == ("INFO", 1, "ops.md")
    assert health(memory_repo, "ci").ok
