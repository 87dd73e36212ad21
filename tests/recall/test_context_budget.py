"""The budget owner: the token estimate, the limits per surface, and what a cut keeps."""

from __future__ import annotations

import pytest

from memrepo import MemoryRepo
from memrepo.config import load_config, save_config
from memrepo.models.prompt_context import ContextBudgets, ContextRequest, Surface
from memrepo.recall.context_budget import ContextBudget, estimate_tokens
from memrepo.recall.context_builder import ContextBuilder

from .context_helpers import build, item, texts, write


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("abcd", 1),
        ("abcde", 2),
        ("The user prefers short answers", 8),
        ("日本語", 3),
        ("日本 ab", 3),  # two ideographs + ceil(3 / 4)
        ("한국어 텍스트", 7),  # six hangul + ceil(1 / 4)
        ("\uff46\uff55\uff4c\uff4c", 4),  # full-width letters count one each
        ("Café", 1),
    ],
)
def test_token_estimate(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


@pytest.mark.parametrize(("surface", "l1"), [("plan_step", 400), ("chat", 250), ("follow_up", 250)])
def test_design_defaults(surface: Surface, l1: int) -> None:
    budget = ContextBudget(ContextBudgets())
    assert budget.limit("l0", surface) == 600
    assert budget.limit("l1", surface) == l1
    assert budget.limit("swarm", surface) == 400


@pytest.mark.slow
def test_budgets_come_from_the_local_config(memory_repo: MemoryRepo) -> None:
    config = load_config(memory_repo.folder.state_dir)
    config.context = ContextBudgets(l0_tokens=20, l1_compact_tokens=30)
    save_config(memory_repo.folder.state_dir, config)
    for n in range(6):
        memory_repo.remember(f"Fact number {n} about the release train", by="user")
    reopened = MemoryRepo.open(memory_repo.root)
    result = build(reopened, "release train")
    l0 = result.block("l0")
    assert l0 is not None and l0.budget == 20 and l0.used <= 20 and l0.dropped > 0
    l1 = result.block("l1")
    assert l1 is not None and l1.budget == 30 and l1.used <= 30
    reopened.close()


def test_a_cut_keeps_stated_and_pinned_then_newest(memory_repo: MemoryRepo) -> None:
    # Imported lines: standing but not stated (an agent's own line would not be in L0).
    write(
        memory_repo,
        "MEMORY.md",
        "# Memory\n\n"
        "- Oldest agent fact aaaa [added: 2025-01-01; by: import]\n"
        "- The user stated this long ago [added: 2020-01-01; by: user]\n"
        "- Newest agent fact bbbb [added: 2026-06-01; by: import]\n"
        "- Middle agent fact cccc [added: 2025-06-01; by: import]\n"
        "\n## Index\n",
    )
    pinned = item(memory_repo, "Pinned agent guess", source="inferred", pinned=True)
    lines = texts(build(memory_repo), "l0")
    cost = {
        line.text: line.tokens
        for line in build(memory_repo).block("l0").lines  # type: ignore[union-attr]
    }
    room = cost["The user stated this long ago"] + cost["Pinned agent guess"]
    room += cost["Newest agent fact bbbb"] + cost["Middle agent fact cccc"]
    builder = ContextBuilder(memory_repo._parts, ContextBudgets(l0_tokens=room))
    result = builder.build(ContextRequest(preview=True))
    l0 = result.block("l0")
    assert l0 is not None
    assert [line.text for line in l0.lines] == [
        "The user stated this long ago",
        "Newest agent fact bbbb",
        "Middle agent fact cccc",
        "Pinned agent guess",
    ]  # kept in their own order; the oldest agent fact is the one left out
    assert l0.dropped == 1 and l0.used == room
    assert pinned in l0.refs and len(lines) == 5


def test_a_line_too_big_for_what_is_left_lets_smaller_ones_in(memory_repo: MemoryRepo) -> None:
    write(
        memory_repo,
        "MEMORY.md",
        "# Memory\n\n- short one\n"
        f"- {'a much longer agent fact ' * 8}[added: 2026-06-01; by: import]\n"
        "- tiny fact [added: 2025-01-01; by: import]\n\n## Index\n",
    )
    cost = {line.text: line.tokens for line in build(memory_repo).block("l0").lines}  # type: ignore[union-attr]
    limit = cost["short one"] + cost["tiny fact"] + 2
    result = ContextBuilder(memory_repo._parts, ContextBudgets(l0_tokens=limit)).build(
        ContextRequest(preview=True)
    )
    assert texts(result, "l0") == ["short one", "tiny fact"]
