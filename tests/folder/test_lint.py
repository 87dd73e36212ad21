"""lint: format problems, broken links, unlisted files, secrets; path and line each."""

from __future__ import annotations

from memrepo import MemoryRepo


def test_clean_repo_lints_clean(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("A fact", workspace="w")
    report = memory_repo.lint()
    assert report.ok and report.problems == ()


def test_lint_finds_each_kind(memory_repo: MemoryRepo) -> None:
    root = memory_repo.root
    memory = root / "MEMORY.md"
    memory.write_text(
        "# Memory\n\n- see [[missing/page]]\n- key ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n"
        "\n## Index\n- [[gone]]\n"
    )
    (root / "orphan.md").write_text("# Orphan\n\n- nobody links here\n")
    (root / "blob.md").write_bytes(b"\x00\x01\x02binary")
    report = memory_repo.lint()
    found = {(p.kind, p.path, p.line) for p in report.problems}
    assert ("broken_link", "MEMORY.md", 3) in found
    assert ("broken_link", "MEMORY.md", 7) in found
    assert ("secret", "MEMORY.md", 4) in found
    assert ("unlisted", "orphan.md", None) in found
    assert ("binary", "blob.md", 1) in found  # the line of the first NUL
    assert not report.ok


def test_linked_through_a_topic_file_is_reachable(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Topic fact", file="topics/a.md")
    (memory_repo.root / "topics/b.md").write_text("# B\n\n- b fact\n")
    memory_repo.remember("see [[topics/b]] for more", file="topics/a.md")
    assert not any(p.kind == "unlisted" for p in memory_repo.lint().problems)


def test_missing_memory_md(memory_repo: MemoryRepo) -> None:
    (memory_repo.root / "MEMORY.md").unlink()
    memory_repo.remember("Fact in a topic", file="t.md")
    kinds = {p.kind for p in memory_repo.lint().problems}
    assert "missing" not in kinds  # the write re-created it with an Index link
