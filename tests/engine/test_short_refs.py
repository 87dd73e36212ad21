"""Refs a person can type (issue #31): a unique prefix of an entry's id works wherever
a ref is taken, from the CLI as typed; an ambiguous one is an error that says so."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.formats import entry_id

Run = Callable[..., tuple[int, str, str]]


def test_a_prefix_works_in_why_edit_confirm_and_forget(run: Run, memory_repo: MemoryRepo) -> None:
    written = memory_repo.remember("Deploys run on Tuesdays", by="agent")
    item = memory_repo.remember("Ana's phone ends in 42", private=True)
    memory_repo.close()
    root = str(memory_repo.root)
    full = written.ref or ""
    entry_id = full.rpartition("#")[2]
    code, out, err = run("--repo", root, "why", f"MEMORY.md#{entry_id[:5]}")
    assert code == 0 and out.startswith(f"{full}: Deploys run on Tuesdays"), err
    code, out, err = run("--repo", root, "why", entry_id[:7])
    assert code == 0 and out.startswith(full), err
    code, out, err = run("--repo", root, "confirm", f"folder:MEMORY.md#{entry_id[:4]}")
    assert code == 0, err
    assert "by: user" in (memory_repo.root / "MEMORY.md").read_text()
    item_id = (item.ref or "").removeprefix("memory:")
    code, out, err = run("--repo", root, "forget", item_id[:8])
    assert code == 0, err
    with MemoryRepo.open(memory_repo.root) as repo:
        assert repo.item(item.ref or "").item.status == "deleted"


def test_an_ambiguous_prefix_is_an_error_that_names_no_ref(memory_repo: MemoryRepo) -> None:
    seen: dict[str, str] = {}
    for n in range(5000):  # two facts whose ids share their first four digits
        text = f"Fact number {n} about things"
        twin = seen.setdefault(entry_id(text, {})[:4], text)
        if twin != text:
            break
    refs = [memory_repo.remember(t, by="user").ref or "" for t in (twin, text)]
    shared = refs[0].rpartition("#")[2][:4]
    with pytest.raises(
        InvalidArgument, match=f"folder:MEMORY.md#{shared} is ambiguous: it starts 2"
    ) as caught:
        memory_repo.why(f"folder:MEMORY.md#{shared}")
    assert not any(ref in str(caught.value) for ref in refs)
    memory_repo.close()
