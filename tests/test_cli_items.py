"""The memory_items commands: remember routing flags, items, retention, workspace."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import InvalidArgument, MemoryRepo

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(cli_in: Callable[..., Run], memory_repo: MemoryRepo) -> Run:
    return cli_in(memory_repo.root)


def test_contact_fact_goes_to_items(run: Run, memory_repo: MemoryRepo) -> None:
    code, out, _ = run("remember", "Ana prefers calls after 6pm", "--contact", "mail:ana")
    assert code == 0
    assert out.startswith("inserted memory:") and "not in git" in out
    assert "Ana" not in (memory_repo.root / "MEMORY.md").read_text()
    code, out, _ = run("items", "list", "--json")
    (item,) = json.loads(out)
    assert item["scope"] == "contact" and item["scope_ref"] == "mail:ana"
    assert item["privacy"] == "normal"


def test_private_items_need_the_flag_to_be_listed(run: Run) -> None:
    run("remember", "My blood type is AB", "--private")
    assert run("items", "list")[1].strip() == "no items"
    code, out, _ = run("items", "list", "--private")
    assert code == 0 and "My blood type is AB" in out and "private" in out


def test_show_why_forget(run: Run) -> None:
    _, out, _ = run("remember", "Bo likes tea", "--contact", "bo", "--json")
    ref = json.loads(out)["ref"]
    code, out, _ = run("items", "show", ref)
    assert code == 0 and "Bo likes tea" in out
    code, out, _ = run("items", "why", ref)
    assert code == 0 and "user" in out.lower()
    code, out, _ = run("items", "forget", ref)
    assert code == 0 and out.startswith(f"forgot {ref}")
    code, _, err = run("items", "forget", ref)
    assert code == 1 and "no such memory item" in err


def test_task_scope_and_bad_source_kind(run: Run) -> None:
    code, out, _ = run("remember", "Draft is in branch wip-42", "--task", "t-42", "--scope", "task")
    assert code == 0 and "memory:" in out
    code, _, err = run("remember", "Some fact here", "--source-kind", "rumour")
    assert code == 1 and "source_kind" in err


def test_workspace_memory_off(run: Run) -> None:
    code, out, _ = run("workspace", "set", "Web shop", "--memory", "off")
    assert code == 0 and "memory off" in out
    code, out, err = run("remember", "Agent guess", "--workspace", "Web shop", "--by", "agent")
    assert code == 3 and out == "" and err.strip() == "memrepo: skipped: memory_disabled"
    code, out, _ = run("remember", "User says ship Fridays", "--workspace", "Web shop")
    assert code == 0 and out.startswith("inserted folder:")


def test_retention_reports_counts(run: Run) -> None:
    _, out, _ = run("remember", "Temp fact to drop", "--private", "--json")
    run("forget", json.loads(out)["ref"])
    code, out, _ = run("retention", "--json")
    assert code == 0 and json.loads(out)["tombstones"] == 1


def test_item_ids_print_short_and_unique_prefixes_name_them(run: Run) -> None:
    _, out, _ = run("remember", "The dentist is on Friday at nine", "--private", "--json")
    full = json.loads(out)["ref"]
    _, listed, _ = run("items", "list", "--private")
    short = listed.split()[0]
    assert short == full[: len("memory:") + 10] and len(short) < len(full)
    code, shown, _ = run("items", "show", short)
    assert code == 0 and "dentist" in shown
    code, _, err = run("items", "show", full[: len("memory:") + 3])
    assert code == 1 and "no such memory item" in err  # too short to stand for an id
    code, out, _ = run("forget", short, "--json")
    assert code == 0 and json.loads(out)["ref"] == full


def test_an_ambiguous_prefix_names_the_candidates(tmp_path: Path) -> None:
    with MemoryRepo.init(tmp_path / "mem") as repo:
        written = repo.remember("The dentist is on Friday at nine", private=True)
        original = repo.item(str(written.ref)).item
        with repo._parts.items.store.transaction() as tx:
            for n in range(2):
                copy = original.model_copy(
                    update={"id": f"abcdef{n}" + "0" * 25, "content_hash": f"h{n}",
                            "subject_key": f"s{n}"}
                )  # fmt: skip
                tx.insert(copy)
        with pytest.raises(InvalidArgument, match="ambiguous: abcdef0"):
            repo.item("memory:abcdef")
        assert repo.item("memory:abcdef1").item.id == "abcdef1" + "0" * 25


def test_edit_supersedes_an_item(run: Run, memory_repo: MemoryRepo) -> None:
    _, out, _ = run("remember", "Ana prefers calls after 6pm", "--contact", "ana", "--json")
    old = json.loads(out)["ref"]
    code, out, _ = run("items", "edit", old[:14], "Ana prefers calls after 8pm")
    assert code == 0 and out.startswith("superseded by memory:")
    new = out.split()[2]
    assert new != old and memory_repo.item(new).item.source == "user_stated"
    code, out, _ = run("items", "show", new)
    assert "replaced" in out and "6pm" in out
    code, _, err = run("items", "edit", new, " ")
    assert code == 3 and err.startswith("memrepo: skipped:")
    code, _, err = run("items", "edit", old, "Ana prefers calls after 9pm")
    assert code == 1 and "no such active memory item" in err


def test_pin_and_unpin(run: Run, memory_repo: MemoryRepo) -> None:
    _, out, _ = run("remember", "Bo likes tea", "--contact", "bo", "--by", "agent", "--json")
    ref = json.loads(out)["ref"]
    code, out, _ = run("items", "pin", ref)
    assert code == 0 and out.startswith("pinned (in every prompt) memory:")
    assert memory_repo.item(ref).item.pinned
    code, out, _ = run("items", "unpin", ref, "--json")
    assert code == 0 and json.loads(out)["item"]["pinned"] is False
    assert not memory_repo.item(ref).item.pinned
    code, _, err = run("items", "pin", "memory:00000000abcd")
    assert code == 1 and "no such" in err and "Traceback" not in err
