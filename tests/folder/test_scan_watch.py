"""A write rescans only what a watch saw change, and still sees every person's edit.

`statcache.WorktreeScan` answers what a full `git status` would after any mix of
edits, saves that keep a file's size and mtime, new folders, staging, commits and
ignore rules; and the write transaction commits each such edit as the person's own
commit before its change, as with a full scan (docs/architecture.md §3).
"""

from __future__ import annotations

import gc
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo import MemoryRepo
from memrepo.folder import worktree_watch
from memrepo.folder.worktree_scan import WorktreeScan
from memrepo.folder.worktree_watch import WorktreeWatch, file_system_type

Git = Callable[..., str]

watched = pytest.mark.skipif(
    not WorktreeWatch(Path(tempfile.gettempdir())).supported,
    reason="no inotify on a local file system here: every status is a full scan",
)


@pytest.fixture(autouse=True)
def a_free_watch(tmp_path: Path) -> None:
    """Wait until this process can start a watch: folders of earlier tests hold theirs
    until collected (a cap of 16 a process), and inotify instances are counted per user
    (128 here), so other test processes running at once can hold them all for a while."""
    if not WorktreeWatch(Path(tempfile.gettempdir())).supported:
        return
    probe = tmp_path / "probe"
    probe.mkdir()
    deadline = time.monotonic() + 60
    while True:
        gc.collect()
        watch = WorktreeWatch(probe)
        if watch.start():
            watch.close()
            return
        if time.monotonic() > deadline:
            pytest.fail("no inotify watch could be started for 60 s")
        time.sleep(0.2)


def folder_with_topics(tmp_path: Path, git: Git, files: int = 12) -> MemoryRepo:
    root = tmp_path / "mem"
    MemoryRepo.init(root).close()
    for n in range(files):
        path = root / "topics" / f"t{n % 3}" / f"f{n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Topic {n}\n\n- Fact {n} about thing {n * 7}\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "topics")
    return MemoryRepo.open(root)


def subjects(git: Git, root: Path, count: int) -> list[str]:
    return git(root, "log", f"-{count}", "--format=%s").splitlines()


@watched
@pytest.mark.slow
def test_a_status_after_the_first_rescans_only_what_changed(tmp_path: Path, git: Git) -> None:
    with folder_with_topics(tmp_path, git) as memory:
        repo = memory.folder.repo
        scan = WorktreeScan(repo, lambda: dict(repo.status(untracked_files="all")), 3600)
        assert scan.status() == {} and scan.full_seconds is not None
        (memory.root / "topics/t1/f1.md").write_text("# changed\n", encoding="utf-8")
        assert scan.status() == {"topics/t1/f1.md": pygit2.enums.FileStatus.WT_MODIFIED}
        assert scan.full_seconds is None
        scan.watch.close()


@watched
@pytest.mark.slow
def test_writes_one_after_another_leave_git_status_clean(tmp_path: Path, git: Git) -> None:
    with folder_with_topics(tmp_path, git) as repo:
        for n in range(4):
            repo.remember(f"fact number {n}", file=f"topics/t{n % 3}/f{n}.md")
        assert git(repo.root, "status", "--porcelain") == ""
        assert subjects(git, repo.root, 5) == [
            *(f"Remember: fact number {n}" for n in (3, 2, 1, 0)),
            "topics",
        ]


@watched
@pytest.mark.slow
def test_a_save_keeping_size_and_mtime_is_committed_as_the_persons(
    tmp_path: Path, git: Git
) -> None:
    with folder_with_topics(tmp_path, git) as repo:
        repo.remember("first fact", file="topics/t0/f0.md")
        target = repo.root / "topics" / "t2" / "f2.md"
        before = target.stat()
        data = target.read_bytes()
        target.write_bytes(data.replace(b"thing 14", b"thing 41"))  # same size
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime
        repo.remember("second fact", file="topics/t1/f1.md")
        assert subjects(git, repo.root, 2)[1].startswith("Record edits made outside memrepo")
        assert b"thing 41" in (repo.root / "topics/t2/f2.md").read_bytes()
        assert git(repo.root, "show", "HEAD~1:topics/t2/f2.md").count("thing 41") == 1
        assert git(repo.root, "status", "--porcelain") == ""


@watched
@pytest.mark.parametrize(
    "edit",
    ["new folder", "staged text file", "gitignore", "commit and soft reset", "delete"],
)
@pytest.mark.slow
def test_every_kind_of_edit_between_writes_is_committed_first(
    tmp_path: Path, git: Git, edit: str
) -> None:
    with folder_with_topics(tmp_path, git) as repo:
        root = repo.root
        repo.remember("first fact", file="topics/t0/f0.md")
        if edit == "new folder":
            (root / "notes" / "deep").mkdir(parents=True)
            (root / "notes" / "deep" / "n.md").write_text("# N\n\n- a note\n")
        elif edit == "staged text file":
            # Markdown: memrepo never commits another file a person staged (issue #27).
            (root / "todo.md").write_text("# Todo\n\n- buy milk\n")
            git(root, "add", "todo.md")
        elif edit == "gitignore":
            (root / ".gitignore").write_text("drafts/\n")
            git(root, "add", ".gitignore")
            git(root, "commit", "-q", "-m", "ignore drafts")
            repo.remember("between", file="topics/t0/f0.md")
            (root / "drafts").mkdir()
            (root / "drafts" / "d.md").write_text("# D\n")  # ignored: never committed
            (root / "kept.md").write_text("# Kept\n")
            (root / ".gitignore").write_text("drafts/\nkept.md\n")
            repo.remember("after the ignore", file="topics/t1/f1.md")
            (root / ".gitignore").write_text("drafts/\n")
        elif edit == "commit and soft reset":
            (root / "topics/t2/f2.md").write_text("# Topic 2\n\n- rewritten\n")
            git(root, "commit", "-q", "-am", "mine")
            git(root, "reset", "-q", "--soft", "HEAD~1")
        elif edit == "delete":
            (root / "topics/t2/f5.md").unlink()
        repo.remember("second fact", file="topics/t1/f1.md")
        assert subjects(git, root, 2)[1].startswith("Record edits made outside memrepo")
        assert git(root, "status", "--porcelain") == ""
        tracked = git(root, "ls-files").split()
        assert ("drafts/d.md" in tracked) is False


@watched
@pytest.mark.slow
def test_a_fork_child_never_reads_the_parents_events(tmp_path: Path, git: Git) -> None:
    with folder_with_topics(tmp_path, git) as repo:
        watch = WorktreeWatch(repo.root)
        assert watch.start()
        pid = os.fork()
        if pid == 0:  # the child: the queue it inherited is the parent's
            os._exit(0 if watch.take() is None else 1)
        _, code = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(code) == 0
        (repo.root / "topics/t0/f0.md").write_text("changed\n")
        assert watch.take() == {"topics/t0/f0.md"}
        watch.close()


@pytest.mark.slow
def test_the_file_system_type_is_known_here(tmp_path: Path) -> None:
    assert file_system_type(tmp_path) != ""


OPS = st.lists(
    st.tuples(
        st.sampled_from(["append", "same size", "create", "delete", "chmod", "stage", "mkdir"]),
        st.integers(min_value=0, max_value=7),
    ),
    min_size=1,
    max_size=12,
)


@watched
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
@pytest.mark.slow
def test_the_scan_answers_as_a_full_status_after_any_edits(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]]
) -> None:
    root = tmp_path_factory.mktemp("scan")
    repo = pygit2.init_repository(str(root), initial_head="main")
    for n in range(8):
        (root / f"d{n % 2}").mkdir(exist_ok=True)
        (root / f"d{n % 2}" / f"f{n}.md").write_text(f"file {n}\n")
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "files"], check=True)
    scan = WorktreeScan(repo, lambda: dict(repo.status(untracked_files="all")))
    assert scan.status() == {}
    for op, n in ops:
        path = root / f"d{n % 2}" / f"f{n}.md"
        if op == "append":
            with path.open("a") as handle:
                handle.write("more\n")
        elif op == "same size" and path.exists():
            stat = path.stat()
            path.write_bytes(path.read_bytes()[::-1])
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        elif op == "create":
            (root / f"d{n % 2}" / f"new{n}.md").write_text("new\n")
        elif op == "delete":
            path.unlink(missing_ok=True)
        elif op == "chmod" and path.exists():
            path.chmod(0o755)
        elif op == "stage" and path.exists():
            subprocess.run(["git", "-C", str(root), "add", str(path)], check=True)
        elif op == "mkdir":
            (root / f"e{n}").mkdir(exist_ok=True)
            (root / f"e{n}" / "x.md").write_text("x\n")
        assert scan.status() == dict(repo.status(untracked_files="all")), op
    scan.watch.close()


@pytest.mark.slow
def test_closing_the_repo_gives_the_watch_back_and_the_next_write_still_sees_edits(
    tmp_path: Path,
) -> None:
    """A host that opens many memory folders in one process closes them: the inotify
    instance goes back (they are the user's, shared with editors), and a repo used after
    close scans in full, so a save made meanwhile is still the person's commit first."""
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.remember("The tram leaves at 8:10", by="user")
    watch = repo.folder.store._scan.watch
    repo.close()
    assert watch._fd is None
    (repo.root / "notes.md").write_text("- Saved while the repo was closed\n", encoding="utf-8")
    repo.remember("Deploys happen on Tuesdays", by="user")
    subjects = [c.message.splitlines()[0] for c in repo.log(limit=3)]
    assert any("notes.md" in s for s in subjects), subjects
    assert "Saved while the repo was closed" in repo.read_text("notes.md")


@watched
@pytest.mark.slow
def test_a_handle_dropped_without_close_gives_its_watch_back(tmp_path: Path) -> None:
    """A program that opens handles and forgets to close them must not use up the
    process's watches (16): each one's parts are closed when the handle is collected."""
    for n in range(17):
        repo = MemoryRepo.init(tmp_path / f"m{n}")
        repo.remember(f"Fact number {n} about the build")
        assert repo.recall("build").hits
        del repo
        gc.collect()
    assert worktree_watch._live_watches == 0
