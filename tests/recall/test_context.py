"""Prompt context: what L0 and L1 hold, tags, dedupe across sources, the gate's effect."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextRequest, InjectionInputs
from memrepo.recall.gate import resolve_memory_injection

from .context_helpers import build, item, texts, write

Git = Callable[..., str]

MEMORY = """# Memory

- The user prefers short answers
- Deploys need a green CI run [added: 2026-01-05; by: agent]

## Index
- [[tools/js]]
- [[people]]
"""


@pytest.fixture
def repo(memory_repo: MemoryRepo, git: Git) -> MemoryRepo:
    write(memory_repo, "MEMORY.md", MEMORY)
    write(memory_repo, "tools/js.md", "---\ndescription: JavaScript tooling\n---\n- Use pnpm\n")
    write(memory_repo, "people.md", "- Ana runs the standup on Mondays\n")
    git(memory_repo.root, "add", "-A")
    git(memory_repo.root, "commit", "-q", "-m", "hand-written memory")
    memory_repo.remember("Deploys go through staging first", workspace="Web shop", by="user")
    memory_repo.remember("Clinic deploys need sign-off", workspace="Clinic", by="user")
    return memory_repo


def test_l0_holds_memory_md_the_index_and_the_workspace_file(repo: MemoryRepo) -> None:
    result = build(repo, workspace="Web shop")
    # "Deploys need a green CI run" is the agent's own (by: agent): L1 only (§4a).
    assert texts(result, "l0") == [
        "The user prefers short answers",
        "tools/js: JavaScript tooling",
        "people",
        "workspaces/web-shop",
        "workspaces/clinic",
        "Deploys go through staging first",
    ]
    block = result.block("l0")
    assert block is not None
    assert "Index (files memory_recall can search):\n- tools/js: JavaScript tooling" in block.text
    assert result.block("l1") is None  # no query, no recall


def test_other_workspaces_and_topic_files_stay_out_of_l0(repo: MemoryRepo) -> None:
    l0 = texts(build(repo), "l0")
    assert "Deploys go through staging first" not in l0
    assert "Clinic deploys need sign-off" not in l0
    assert "Use pnpm" not in l0


@pytest.mark.slow
def test_tags_say_who_did_not_state_it(repo: MemoryRepo) -> None:
    repo.remember("Builds run on Fridays", tainted=True)
    repo.remember("Imported: the office is in Lyon", by="import")
    result = build(repo, "deploys builds green fridays")
    l0, l1 = result.block("l0"), result.block("l1")
    assert l0 is not None and l1 is not None
    standing = l0.text.splitlines()
    assert "- The user prefers short answers" in standing
    assert "- Imported: the office is in Lyon (imported)" in standing
    # The agent's own lines are L1 only (reference §4a), and tagged there.
    recalled = l1.text.splitlines()
    assert "- Deploys need a green CI run (inferred)" in recalled
    assert "- Builds run on Fridays (inferred) (tainted)" in recalled


def test_expired_entries_stay_out(repo: MemoryRepo) -> None:
    repo.remember("The freeze lasts until spring", expires="2020-01-01", by="user")
    repo.remember("The launch is in June", expires="2999-01-01", by="user")
    l0 = texts(build(repo), "l0")
    assert "The launch is in June" in l0 and "The freeze lasts until spring" not in l0


def test_only_standing_items_join_l0(repo: MemoryRepo) -> None:
    item(repo, "User said: call me Sam", kind="identity", source="user_stated")
    item(repo, "Agent guessed the user is a nurse", kind="identity", source="inferred")
    item(repo, "Agent note the user pinned", source="inferred", pinned=True)
    item(repo, "Always answer in English", kind="rule", source="import")
    item(repo, "The system saw a login", source="system")
    item(repo, "Keep replies under 100 words", kind="preference", source="system",
         subject_key="response_length")  # fmt: skip
    item(repo, "Confirmed: likes dark mode", kind="preference", source="user_confirmed")
    item(repo, "Shop items ship from Lyon", scope="workspace", workspace_id="web-shop",
         source="user_stated")  # fmt: skip
    item(repo, "Clinic opens at 8", scope="workspace", workspace_id="clinic", source="user_stated")
    item(repo, "Scratch branch is wip-42", scope="task", scope_ref="t1", source="user_stated")
    item(repo, "Home address is 1 Main St", source="user_stated", privacy="private")
    l0 = texts(build(repo, workspace="Web shop", task_id="t1"), "l0")
    kept = {
        "User said: call me Sam",
        "Agent note the user pinned",
        "Always answer in English",
        "Keep replies under 100 words",
        "Confirmed: likes dark mode",
        "Shop items ship from Lyon",
    }
    items_seen = {text for text in l0 if text in kept or "Agent" in text or "address" in text}
    assert items_seen == kept
    for absent in ("The system saw a login", "Clinic opens at 8", "Scratch branch is wip-42"):
        assert absent not in l0
    private = texts(build(repo, include_private=True), "l0")
    assert "Home address is 1 Main St" in private


def test_a_subject_once_highest_trust_then_newest(repo: MemoryRepo) -> None:
    repo.remember("Deploy day is Friday", subject="deploy-day")  # agent: inferred
    item(repo, "Deploy day is Tuesday", subject_key="deploy-day", source="user_stated")
    write(
        repo,
        "workspaces/web-shop.md",
        "- Standup at 9 [subject: standup; by: user; added: 2026-01-01]\n"
        "- Standup at 10 [subject: standup; by: user; added: 2026-03-01]\n"
        "- Use PNPM   for installs\n",
    )
    repo.remember("use pnpm for installs")
    l0 = texts(build(repo, workspace="Web shop"), "l0")
    assert "Deploy day is Tuesday" in l0 and "Deploy day is Friday" not in l0
    assert "Standup at 10" in l0 and "Standup at 9" not in l0
    assert sum(text.casefold().split() == ["use", "pnpm", "for", "installs"] for text in l0) == 1


@pytest.mark.slow
def test_l1_is_recall_minus_l0(repo: MemoryRepo) -> None:
    result = build(repo, "use pnpm going through staging first", workspace="Web shop")
    l1 = result.block("l1")
    assert l1 is not None
    assert [line.text for line in l1.lines] == ["Use pnpm"]
    assert l1.refs == (l1.lines[0].ref,) and l1.refs[0].startswith("folder:tools/js.md#")
    assert "Deploys go through staging first" in texts(result, "l0")
    assert set(result.refs) >= set(l1.refs)


@pytest.mark.slow
def test_private_items_reach_l1_only_when_the_gate_allows(repo: MemoryRepo) -> None:
    repo.remember("The user's blood type is AB", private=True)  # inferred: L1 only
    query = "what is the blood type"
    assert texts(build(repo, query), "l1") == []
    assert texts(build(repo, query, include_private=True), "l1") == ["The user's blood type is AB"]
    assert texts(build(repo, query, include_private=True, is_subagent=True), "l1") == []
    shared = {"gateway": "group", "allow_shared_context_memory": True}
    assert texts(build(repo, query, include_private=True, **shared), "l1") == []
    assert texts(build(repo, query, **shared), "l0")  # shared context still gets the folder


@pytest.mark.slow
def test_contact_and_task_items_come_through_recall(repo: MemoryRepo) -> None:
    repo.remember("Ana prefers calls after 6pm", contact_ref="mail:ana")
    assert "Ana prefers calls after 6pm" not in texts(build(repo, "Ana calls"), "l1")
    found = texts(build(repo, "Ana calls", contact_ref="mail:ana"), "l1")
    assert found[0] == "Ana prefers calls after 6pm"


def test_no_memory_and_memory_off_give_nothing(repo: MemoryRepo) -> None:
    result = build(repo, "use pnpm <no-memory>", workspace="Web shop")
    assert result.blocks == () and result.text == "" and result.refs == ()
    assert result.decision.reasons["folder_l0"] == "<no-memory> in the current message"
    assert build(repo, task_text="secret task <no-memory>").text == ""
    repo.set_workspace("Web shop", memory=False)
    off = build(repo, "use pnpm", workspace="Web shop")
    assert (
        off.text == "" and off.decision.reasons["recall_l1"] == "memory is off for this workspace"
    )
    assert build(repo, "use pnpm", retain_memory=False).text == ""
    assert build(repo, "use pnpm", gateway="public").text == ""


def test_strict_workspace_shows_its_private_facts_in_the_users_own_chat(repo: MemoryRepo) -> None:
    repo.set_workspace("Clinic", privacy="strict")
    repo.remember("Patients are seen from 8", workspace="Clinic", by="user")
    assert "Patients are seen from 8" in texts(build(repo, workspace="Clinic"), "l0")
    sub = build(repo, workspace="Clinic", is_subagent=True)
    assert "Patients are seen from 8" not in texts(sub, "l0")


@pytest.mark.slow
def test_a_host_decision_is_used_as_given(repo: MemoryRepo) -> None:
    decision = resolve_memory_injection(InjectionInputs()).model_copy(
        update={"folder_l0": False, "reasons": {}}
    )
    result = repo.context(ContextRequest(query="pnpm", decision=decision))
    assert result.decision is decision
    assert texts(result, "l0") == []
    assert texts(result, "l1") == []  # recall leaves the folder lane out too


@pytest.mark.slow
def test_a_damaged_item_store_leaves_the_folder_and_says_why(repo: MemoryRepo) -> None:
    repo.close()
    database = repo.folder.state_dir / "items.sqlite3"
    database.write_bytes(b"not a database at all" * 100)
    damaged = database.read_bytes()
    reopened = MemoryRepo.open(repo.root)
    result = build(reopened, "use pnpm", workspace="Web shop")
    assert "Deploys go through staging first" in texts(result, "l0")
    assert texts(result, "l1") == ["Use pnpm"]
    assert "not a readable memory_items database" in result.errors["memory_items"]
    assert "StoreCorrupt" in result.errors["recall:memory"]
    assert not build(reopened, "use pnpm").l0_cached  # a partial L0 is never cached
    assert database.read_bytes() == damaged
    reopened.close()
