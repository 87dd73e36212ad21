"""A memory file past the size memrepo supports is skipped by recall, and said so.

A person (or a script) can commit a MEMORY.md of a million lines with plain git. Parsing
and indexing it would take minutes and more memory than a laptop spares, so the index
leaves every file over `MAX_FILE_BYTES` out: recall keeps answering from the other files,
and says once on stderr, and in `health`, which file was skipped, its size, the limit,
and what to do. The big files here are built once per module (~6 MB, a few seconds).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.folder.limits import MAX_FILE_BYTES
from memrepo.recall.oversized import FileTooLargeWarning

from .files import commit_file

Git = Callable[..., str]
Run = Callable[..., tuple[int, str, str]]

#: One bullet per line, ~90 bytes each: enough lines to pass the limit by about 15%.
_LINE = "- note {n:07d} about the quokka migration of the warehouse fleet, batch {b}\n"
BIG_WORD = "quokka"
OTHER = "topics/other.md"


def big_memory_md(extra: str = "") -> str:
    """A MEMORY.md over the limit: a title, ~70,000 entries, then the Index."""
    lines = ["# Memory\n", "\n"]
    size, n = 0, 0
    while size <= MAX_FILE_BYTES * 1.15:
        line = _LINE.format(n=n, b=n % 97)
        lines.append(line)
        size += len(line)
        n += 1
    lines += [extra, "\n## Index\n\n", f"- [[{OTHER.removesuffix('.md')}]]\n"]
    return "".join(lines)


@pytest.fixture(scope="module")
def big_text() -> str:
    return big_memory_md()


@pytest.fixture
def big_repo(tmp_path: Path, git: Git, big_text: str) -> MemoryRepo:
    """A repo whose MEMORY.md (over the limit) and topic file were committed with git."""
    repo = MemoryRepo.init(tmp_path / "mem")
    (Path(repo.root) / "topics").mkdir()
    (Path(repo.root) / OTHER).write_text("- the zebra rota changes on fridays\n")
    commit_file(repo, git, "MEMORY.md", big_text)
    assert len((Path(repo.root) / "MEMORY.md").read_bytes()) > MAX_FILE_BYTES
    return repo


def notices(err: str) -> list[str]:
    return [line for line in err.splitlines() if "MEMORY.md" in line]


@pytest.mark.integration
@pytest.mark.slow
def test_recall_answers_from_the_other_files_and_names_the_skipped_one(
    big_repo: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    run = cli_in(big_repo.root)
    code, out, err = run("recall", "zebra rota")
    assert code == 0
    assert "the zebra rota changes on fridays" in out
    assert "Traceback" not in err
    [notice] = notices(err)  # one line, however many entries the file holds
    size = len((Path(big_repo.root) / "MEMORY.md").read_bytes())
    assert f"{size / 1024 / 1024:.1f} MiB" in notice
    assert "5 MiB" in notice
    assert "split" in notice


@pytest.mark.integration
@pytest.mark.slow
def test_the_big_files_entries_are_not_indexed_and_that_is_never_silent(
    big_repo: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    run = cli_in(big_repo.root)
    code, out, err = run("recall", BIG_WORD)
    assert code == 0
    assert out.strip() == "nothing found"
    assert len(notices(err)) == 1
    # A later recall (the index already built) still says why, once.
    code, out, err = run("recall", f"{BIG_WORD} warehouse")
    assert (code, out.strip()) == (0, "nothing found")
    assert len(notices(err)) == 1
    code, out, _err = run("reindex", "--json")
    assert json.loads(out)["folder_entries"] == 1


@pytest.mark.integration
@pytest.mark.slow
def test_health_names_the_skipped_file_and_the_index_stays_faithful(
    big_repo: MemoryRepo, cli_in: Callable[..., Run]
) -> None:
    run = cli_in(big_repo.root)
    run("recall", "zebra")  # build the index, as a person's first recall does
    _code, out, _err = run("health", "--json")
    checks = {check["name"]: check for check in json.loads(out)["checks"]}
    memory_md = checks["memory_md"]
    assert memory_md["status"] == "WARN"
    assert "MEMORY.md" in memory_md["detail"] and "5 MiB" in memory_md["detail"]
    assert "split" in (memory_md["fix"] or "")
    assert checks["index"]["status"] in ("PASS", "INFO")


@pytest.mark.slow
def test_a_file_that_grows_past_the_limit_leaves_the_index_and_comes_back(
    memory_repo: MemoryRepo, git: Git, big_text: str
) -> None:
    """The incremental path: a commit that makes a file too large drops its entries (and
    warns once in this process); one that shrinks it under the limit brings them back."""
    commit_file(memory_repo, git, "topics/log.md", "- the pelican feeder is blue\n")
    assert [h.ref for h in memory_repo.recall("pelican").hits]
    commit_file(memory_repo, git, "topics/log.md", big_text.replace("# Memory", "- pelican"))
    with pytest.warns(FileTooLargeWarning, match=r"topics/log\.md .* split"):
        assert memory_repo.recall("pelican").hits == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same skip is not told twice to one process
        assert memory_repo.recall(BIG_WORD).hits == ()
    commit_file(memory_repo, git, "topics/log.md", "- the pelican feeder is green\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        [hit] = memory_repo.recall("pelican").hits
    assert "green" in hit.text


@pytest.mark.slow
def test_an_uncommitted_edit_past_the_limit_is_skipped_too(
    memory_repo: MemoryRepo, git: Git, big_text: str
) -> None:
    commit_file(memory_repo, git, "topics/other.md", "- the heron nests by the pier\n")
    (Path(memory_repo.root) / "MEMORY.md").write_text(big_text)
    with pytest.warns(FileTooLargeWarning, match=r"MEMORY\.md"):
        [hit] = memory_repo.recall("heron").hits
    assert hit.provenance.path == "topics/other.md"
    assert memory_repo.recall(BIG_WORD).hits == ()
