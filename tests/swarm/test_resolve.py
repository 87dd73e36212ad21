"""resolve_swarm: the parent chain names the folder; bad chains and ids are clear errors."""

from __future__ import annotations

import pytest

from memrepo import InvalidArgument, MemoryRepo
from memrepo.errors import TaskCycle, TaskNotFound
from memrepo.swarm import resolve_swarm
from memrepo.swarm.paths import swarm_slug

from .conftest import CHILD, GRANDCHILD, ROOT, CommitCount, Git, HostRegistry, head


def test_every_task_of_a_tree_shares_the_root_folder(repo: MemoryRepo) -> None:
    refs = [repo.resolve_swarm(task) for task in (ROOT, CHILD, GRANDCHILD)]
    assert {ref.folder for ref in refs} == {"swarms/fix-the-flaky-ci-build-root-4f2"}
    assert refs[2].chain == (GRANDCHILD, CHILD, ROOT)
    assert refs[2].goal == "Fix the flaky CI build"
    assert repo.resolve_swarm("other-77aa88bb").folder == "swarms/write-the-release-notes-other-77"


def test_the_slug_comes_from_the_chain_never_from_the_child(repo: MemoryRepo) -> None:
    repo.add_task("sneaky", "../../MEMORY", parent=ROOT)
    assert repo.resolve_swarm("sneaky").folder == "swarms/fix-the-flaky-ci-build-root-4f2"


@pytest.mark.parametrize(
    ("title", "slug"),
    [("..", "swarm"), ("", "swarm"), ("!!! ???", "swarm"), ("Déjà vu: 東京 ✓", "déjà-vu-東京")],
)
def test_titles_that_slug_to_nothing_get_a_safe_name(title: str, slug: str) -> None:
    assert swarm_slug(title) == slug


def test_a_root_titled_dots_gets_a_folder_inside_swarms(repo: MemoryRepo, git: Git) -> None:
    repo.add_task("dots-1234567890", "..")
    result = repo.swarm_note("dots-1234567890", "finding", "Dots stay inside the folder")
    assert result.path == "swarms/swarm-dots-123/findings.md"
    assert (repo.root / "swarms" / "swarm-dots-123" / "findings.md").is_file()
    assert "swarms/swarm-dots-123/findings.md" in git(repo.root, "ls-files").splitlines()


@pytest.mark.parametrize("bad", ["../x", "a/b", "..", "", "a b", "/abs", "x\x00y"])
def test_task_ids_with_path_characters_are_refused(repo: MemoryRepo, git: Git, bad: str) -> None:
    before = head(git, repo.root)
    with pytest.raises(InvalidArgument, match="task id"):
        repo.add_task(bad, "Anything")
    with pytest.raises(InvalidArgument, match="task id"):
        repo.swarm_note(bad, "finding", "never written")
    assert head(git, repo.root) == before
    assert not (repo.root / "swarms").exists()


def test_a_host_registry_with_a_path_in_a_parent_id_is_refused() -> None:
    host = HostRegistry({"t1": ("Child", "../evil"), "../evil": ("Root", None)})
    with pytest.raises(InvalidArgument, match="task id"):
        resolve_swarm(host, "t1")


def test_unknown_task_and_missing_parent_are_task_not_found(
    repo: MemoryRepo, commit_count: CommitCount
) -> None:
    with pytest.raises(TaskNotFound, match="not registered"):
        repo.resolve_swarm("nobody")
    host = HostRegistry({"orphan": ("Orphan", "gone")})
    with pytest.raises(TaskNotFound, match="'orphan' names parent 'gone'"):
        resolve_swarm(host, "orphan")
    repo.plug_task_registry(host)
    count = commit_count(repo.root)
    with pytest.raises(TaskNotFound):
        repo.swarm_note("orphan", "finding", "not written")
    assert commit_count(repo.root) == count


def test_a_cycle_is_task_cycle() -> None:
    host = HostRegistry({"a": ("A", "b"), "b": ("B", "c"), "c": ("C", "a")})
    with pytest.raises(TaskCycle, match="a -> b -> c -> a"):
        resolve_swarm(host, "a")


def _chain(length: int) -> HostRegistry:
    """Tasks t0 (root) ... t<length>, each the parent of the next."""
    tasks: dict[str, tuple[str, str | None]] = {"t0": ("Root", None)}
    for n in range(1, length + 1):
        tasks[f"t{n}"] = (f"Task {n}", f"t{n - 1}")
    return HostRegistry(tasks)


def test_twenty_hops_reach_the_root_twenty_one_do_not() -> None:
    assert resolve_swarm(_chain(20), "t20").root_id == "t0"
    with pytest.raises(TaskCycle, match="more than 20 parent hops"):
        resolve_swarm(_chain(21), "t21")


def test_resolution_is_cached_per_task(repo: MemoryRepo) -> None:
    host = _chain(3)
    repo.plug_task_registry(host)
    first = repo.resolve_swarm("t3")
    asked = len(host.asked)
    assert asked == 4
    assert repo.resolve_swarm("t3") == first
    assert len(host.asked) == asked
