"""memory_used events, mark_used, and the ContextSource seam for team and swarm lines."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from memrepo import MemoryRepo
from memrepo.config import load_config, save_config
from memrepo.models.prompt_context import ContextRequest, InjectionDecision, MemoryUsed
from memrepo.recall.context_lines import ExtraLayer, SourceLine

from .context_helpers import build, item, texts

pytestmark = pytest.mark.slow


@pytest.fixture
def heard(memory_repo: MemoryRepo) -> list[MemoryUsed]:
    events: list[MemoryUsed] = []
    memory_repo.on_memory_used(events.append)
    return events


def test_once_per_turn_and_again_when_the_set_changes(
    memory_repo: MemoryRepo, heard: list[MemoryUsed]
) -> None:
    memory_repo.remember("The user prefers short answers", by="user")
    first = build(memory_repo, "hello", task_id="t1", turn="1")
    assert heard == [MemoryUsed(surface="chat", refs=first.refs, task_id="t1", turn="1")]
    build(memory_repo, "hello again", task_id="t1", turn="1")
    assert len(heard) == 1  # same turn, same refs
    build(memory_repo, "plan it", task_id="t1", turn="1", surface="plan_step")
    assert [event.surface for event in heard] == ["chat", "plan_step"]  # its own surface
    memory_repo.remember("Deploys go through staging first", by="user")
    changed = build(memory_repo, "hello", task_id="t1", turn="1")
    assert heard[-1].refs == changed.refs and len(changed.refs) == 2
    build(memory_repo, "hello", task_id="t1", turn="2")
    assert len(heard) == 4 and heard[-1].turn == "2"  # a new turn reports again


def test_preview_and_empty_turns_report_nothing(
    memory_repo: MemoryRepo, heard: list[MemoryUsed]
) -> None:
    build(memory_repo, "nothing stored yet")
    memory_repo.remember("The user prefers short answers", by="user")
    build(memory_repo, "hello", preview=True)
    assert heard == []


def test_mark_used_only_for_items_injected(memory_repo: MemoryRepo) -> None:
    shown = item(memory_repo, "Call me Sam", kind="identity", source="user_stated")
    recalled = item(memory_repo, "The user likes green tea", source="inferred")
    unrelated = item(memory_repo, "The office plant is a fern", source="inferred")
    build(memory_repo, "what kind of tea", preview=True)
    assert memory_repo.item(shown).item.last_used_at is None
    result = build(memory_repo, "what kind of tea")
    assert {shown, recalled} <= set(result.refs) and unrelated not in result.refs
    assert memory_repo.item(shown).item.last_used_at is not None
    assert memory_repo.item(recalled).item.last_used_at is not None
    assert memory_repo.item(unrelated).item.last_used_at is None


def test_a_listener_can_stop_and_a_broken_one_harms_nobody(
    memory_repo: MemoryRepo, heard: list[MemoryUsed], caplog: pytest.LogCaptureFixture
) -> None:
    def broken(event: MemoryUsed) -> None:
        raise RuntimeError("host bug")

    memory_repo.on_memory_used(broken)
    memory_repo.remember("The user prefers short answers", by="user")
    build(memory_repo, "hello")
    assert len(heard) == 1 and "memory_used listener" in caplog.text
    stop = memory_repo.on_memory_used(heard.append)
    stop()
    build(memory_repo, "hello")
    assert len(heard) == 2  # only the fixture's listener is left


@dataclass
class FakeTeam:
    """A source a host plugs in (the team issue brings the real one)."""

    name: str
    layer: ExtraLayer
    offered: list[SourceLine]
    asked: list[ContextRequest] = field(default_factory=list)

    def lines(self, request: ContextRequest, decision: InjectionDecision) -> Sequence[SourceLine]:
        self.asked.append(request)
        return self.offered


def test_team_lines_join_l0_deduped_and_tagged(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Use pnpm for installs", by="user")
    team = FakeTeam(
        "team:acme",
        "team",
        [
            SourceLine("team:acme:MEMORY.md#a1", "use PNPM for installs", "team:acme", "import"),
            SourceLine("team:acme:MEMORY.md#b2", "Releases on Thursdays", "team:acme", "import"),
            # A team's agent line is L1 only, as the user's own (reference §4a).
            SourceLine("team:acme:MEMORY.md#c3", "The team uses Go", "team:acme", "inferred"),
            SourceLine("team:acme:MEMORY.md#d4", "Ship at night", "team:acme", "user_stated", True),
        ],
    )
    memory_repo.plug_context_source(team)
    result = build(memory_repo)
    assert texts(result, "l0") == ["Use pnpm for installs", "Releases on Thursdays"]
    assert "team:acme:MEMORY.md#b2" in result.refs and "team:acme:MEMORY.md#a1" not in result.refs
    assert "- Releases on Thursdays (imported)" in result.text
    assert "Go" not in result.text and "night" not in result.text  # inferred; tainted
    assert build(memory_repo, gateway="group").text == "" and len(team.asked) == 1


def test_swarm_lines_make_their_own_block_only_in_a_swarm(memory_repo: MemoryRepo) -> None:
    swarm = FakeTeam(
        "swarm",
        "swarm",
        [
            SourceLine("", "Goal: migrate the billing service", "swarm", "user_stated"),
            SourceLine("swarm:billing-1a2b3c4d:findings.md#f1", "Tests pass on py3.12", "swarm"),
        ],
    )
    remove = memory_repo.plug_context_source(swarm)
    assert build(memory_repo, "billing").block("swarm") is None and swarm.asked == []
    result = build(memory_repo, "billing", swarm="billing-1a2b3c4d")
    block = result.block("swarm")
    assert block is not None and block.refs == ("swarm:billing-1a2b3c4d:findings.md#f1",)
    assert block.text.startswith("<swarm>\nPeer notes from other agents of this swarm.")
    assert block.text.endswith("</swarm>") and "- Tests pass on py3.12 (inferred)" in block.text
    remove()
    assert build(memory_repo, "billing", swarm="billing-1a2b3c4d").block("swarm") is None


def test_a_store_too_busy_to_record_use_does_not_fail_the_turn(memory_repo: MemoryRepo) -> None:
    shown = item(memory_repo, "Call me Sam", kind="identity", source="user_stated")
    config = load_config(memory_repo.folder.state_dir)
    config.store_busy_timeout_seconds = 0.05
    save_config(memory_repo.folder.state_dir, config)
    repo = MemoryRepo.open(memory_repo.root)
    holder = sqlite3.connect(repo.folder.state_dir / "items.sqlite3", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        result = build(repo, "hello")
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    assert shown in result.refs and "Call me Sam" in result.text
    assert "locked" in result.errors["mark_used"]
    assert repo.item(shown).item.last_used_at is None
    repo.close()
