"""What memrepo reads from the working tree or from commits people made is screened
before it is indexed or put in a prompt (issue #15).

A person's hand edit holding a token is refused by every write (SecretInEdit), yet
`recall` and `context` served the line as it was, and the Whoosh segments kept the token
after the line was deleted (a deleted document stays in its segment until a merge). The
index is the layer that owns what is stored in it, so it screens every document it is
given: the token never reaches a segment file at all.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.index import IndexDoc, IndexStore, build_query

from .conftest import doc

pytestmark = pytest.mark.slow

# Built at runtime so the test file itself holds no credential-shaped string.
TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
MARKER = "[redacted github_token]"
Run = Callable[..., tuple[int, str, str]]


def _state_holds(root: Path, secret: str) -> list[str]:
    """Files of the local state (index segments, index.json, SQLite) holding `secret`."""
    needle = secret.casefold().encode()
    state = root / ".git" / "memrepo"
    return [
        path.relative_to(state).as_posix()
        for path in sorted(state.rglob("*"))
        if path.is_file() and needle in path.read_bytes().lower()
    ]


def _add_line(root: Path, line: str) -> None:
    memory_md = root / "MEMORY.md"
    memory_md.write_text(memory_md.read_text().replace("## Index", f"{line}\n\n## Index"))


def test_a_secret_in_a_hand_edit_is_served_redacted_and_never_indexed(
    run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "mem"
    repo = ["--repo", str(root)]
    assert run("init", str(root))[0] == 0
    assert run(*repo, "remember", "Deploys go through staging")[0] == 0
    original = (root / "MEMORY.md").read_text()
    _add_line(root, f"- the deploy token is {TOKEN}")

    code, _out, err = run(*repo, "remember", "Another fact for the record")
    assert code == 1 and "MEMORY.md" in err and TOKEN not in err  # memrepo will not commit it

    code, out, err = run(*repo, "recall", "deploy token")
    assert code == 0, err
    assert f"the deploy token is {MARKER}" in out and TOKEN not in out
    code, out, err = run(*repo, "recall", "deploy token", "--full", "--json")
    assert code == 0, err
    assert MARKER in out and TOKEN not in out
    code, out, err = run(*repo, "context", "deploy token")
    assert code == 0, err
    assert MARKER in out and TOKEN not in out
    assert _state_holds(root, TOKEN) == []

    (root / "MEMORY.md").write_text(original)  # the person deletes the line
    code, out, _err = run(*repo, "recall", "deploy token")
    assert "the deploy token" not in out
    assert _state_holds(root, TOKEN) == []


def test_a_secret_committed_with_plain_git_is_served_redacted(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "mem"
    repo = ["--repo", str(root)]
    assert run("init", str(root))[0] == 0
    (root / "ops.md").write_text(
        f"# Ops\n\n- CI pulls with {TOKEN} [subject: ci {TOKEN}]\n- Builds run nightly\n"
    )
    _add_line(root, "- [[ops]]")
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "by hand"], check=True)

    code, out, err = run(*repo, "recall", "CI pulls", "--json", "--full")
    assert code == 0, err
    assert MARKER in out and TOKEN not in out
    code, out, err = run(*repo, "context", "what does CI pull with")
    assert code == 0, err
    assert TOKEN not in out
    assert _state_holds(root, TOKEN) == []


def test_an_index_built_by_an_earlier_version_is_rebuilt(tmp_path: Path) -> None:
    """An index of the previous schema may hold tokens from before screening: it is
    rebuilt on open (its segments removed), never read."""
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        repo.remember("Deploys go through staging")
        assert repo.recall("deploys").hits
    meta = root / ".git" / "memrepo" / "index.json"
    text = meta.read_text()
    from memrepo.index import SCHEMA_VERSION

    meta.write_text(text.replace(f'"schema_version": {SCHEMA_VERSION}', '"schema_version": 2'))
    assert SCHEMA_VERSION > 2
    with pytest.warns(Warning, match="schema version 2"), MemoryRepo.open(root) as repo:
        assert repo.recall("deploys").hits


def _secret_doc(**fields: object) -> IndexDoc:
    values: dict[str, object] = {
        "subject": f"ci {TOKEN}",
        "path": f"notes/{TOKEN}.md",
        "source": f"https://ci.example.com/?token={TOKEN}",
        "kind": f"rule {TOKEN}",
        "workspace": "",
    }
    values.update(fields)
    return doc(f"folder:notes/{TOKEN}.md#ci {TOKEN}", f"CI pulls with {TOKEN}", **values)


def test_the_index_screens_every_stored_field(store: IndexStore, index_path: Path) -> None:
    store.replace([_secret_doc()])
    hits = store.search(build_query("CI pulls").words, limit=5)
    assert len(hits) == 1
    stored = repr(dict(hits[0].fields)) + hits[0].ref
    assert MARKER in stored and TOKEN not in stored
    assert not any(
        TOKEN.casefold().encode() in path.read_bytes().lower()
        for path in index_path.parent.rglob("*")
        if path.is_file()
    )
    # The token itself finds nothing: its terms were never indexed.
    assert store.search(build_query(TOKEN).words, limit=5) == []


def test_a_file_update_deletes_by_the_same_screened_path(store: IndexStore) -> None:
    store.replace([_secret_doc()])
    store.replace([], delete_paths=[("main", f"notes/{TOKEN}.md")])
    assert store.search(build_query("CI pulls").words, limit=5) == []


def test_a_rebuild_screens_too(store: IndexStore) -> None:
    store.bulk_load([_secret_doc()])
    hits = store.search(build_query("CI pulls").words, limit=5)
    assert hits and TOKEN not in repr(dict(hits[0].fields))
