"""Model proposals through the DreamModel seam: screened whole, classified, applied."""

from __future__ import annotations

from typing import Any

import pytest

from memrepo import MemoryRepo
from memrepo.dreaming.model import DreamRequest, ModelAnswer
from memrepo.errors import DreamModelError

from .helpers import Commit, git, memory

SEED = memory("- Use pnpm [by: agent]", "- The user likes tea")


class Scripted:
    """Answers with fixed ops and remembers what it was shown."""

    name = "scripted"

    def __init__(self, *ops: dict[str, Any]) -> None:
        self.answer = ModelAnswer.model_validate({"ops": list(ops)})
        self.seen: DreamRequest | None = None

    def propose(self, request: DreamRequest) -> ModelAnswer:
        self.seen = request
        return self.answer


def handle(repo: MemoryRepo, text: str) -> str:
    (entry,) = [e for e in repo.entries() if e.text == text]
    return f"{entry.path}:{entry.line}"


@pytest.fixture
def seeded(repo: MemoryRepo, commit: Commit) -> MemoryRepo:
    commit({"MEMORY.md": SEED})
    return repo


def test_a_confident_add_lands_in_the_safe_commit(seeded: MemoryRepo) -> None:
    model = Scripted({"op": "add", "path": "topics/tools", "text": "Prefers uv for Python",
                      "reason": "seen in 3 sessions", "sources": ["memrepo://tasks/7"],
                      "confidence": 0.9})  # fmt: skip
    report = seeded.dream(model=model)
    assert model.seen is not None and {e.text for e in model.seen.entries} == {
        "Use pnpm", "The user likes tea"}  # fmt: skip
    assert report.model == "scripted" and [op.kind for op in report.safe] == ["add"]
    text = seeded.read_text("topics/tools.md")
    assert ("- Prefers uv for Python [source: memrepo://tasks/7; added: 2026-03-01; by: dream; "
            "origin: dream]") in text  # fmt: skip
    assert "[[topics/tools]]" in seeded.read_text("MEMORY.md")


def test_low_confidence_or_changing_entries_goes_to_review(seeded: MemoryRepo) -> None:
    model = Scripted(
        {"op": "add", "path": "MEMORY.md", "text": "Maybe likes jazz", "reason": "guess",
         "confidence": 0.3},
        {"op": "rewrite", "entries": [handle(seeded, "Use pnpm")], "text": "Use pnpm 9",
         "reason": "newer"},
    )  # fmt: skip
    report = seeded.dream(model=model)
    assert report.safe == ()
    assert [op.why_review for op in report.pending_review] == [
        "the model's confidence 0.30 is below 0.7",
        "a model proposal that changes existing entries",
    ]


BAD: list[tuple[dict[str, Any], str]] = [
    ({"op": "remove", "entries": ["MEMORY.md:99"], "reason": "x"}, "does not exist"),
    ({"op": "add", "path": "../outside", "text": "escape", "reason": "x"}, "leave the memory"),
    ({"op": "add", "path": "/etc/passwd", "text": "escape", "reason": "x"}, "absolute"),
    ({"op": "add", "path": ".git/config", "text": "sneaky", "reason": "x"}, ".git"),
    ({"op": "add", "path": "swarms/a-1/findings", "text": "peer", "reason": "x"}, "swarm"),
    ({"op": "remove", "path": "MEMORY.md", "reason": "start over"}, "delete the Index"),
    (
        {"op": "add", "path": "MEMORY.md", "text": "key AKIAQ3ZX7W2V9K4M1N8P", "reason": "x"},
        "secret",
    ),
    ({"op": "add", "path": "MEMORY.md", "text": "Tool called: shell", "reason": "x"}, "telemetry"),
]


@pytest.mark.parametrize(("op", "message"), BAD)
def test_a_bad_operation_rejects_the_whole_answer(
    seeded: MemoryRepo, op: dict[str, Any], message: str
) -> None:
    good = {"op": "add", "path": "MEMORY.md", "text": "A fine new fact", "reason": "ok"}
    head = git(seeded.root, "rev-parse", "HEAD")
    with pytest.raises(DreamModelError, match=message):
        seeded.dream(model=Scripted(good, op))
    assert git(seeded.root, "rev-parse", "HEAD") == head
    assert git(seeded.root, "branch", "--list", "dream/*") == ""
    assert seeded.read_text("MEMORY.md") == SEED


def test_two_operations_on_one_entry_conflict(seeded: MemoryRepo) -> None:
    pnpm = handle(seeded, "Use pnpm")
    model = Scripted(
        {"op": "remove", "entries": [pnpm], "reason": "old"},
        {"op": "rewrite", "entries": [pnpm], "text": "Use pnpm 9", "reason": "newer"},
    )
    with pytest.raises(DreamModelError, match="two operations on one entry"):
        seeded.dream(model=model)
    assert seeded.read_text("MEMORY.md") == SEED


def test_memory_text_cannot_forge_metadata_through_the_model(seeded: MemoryRepo) -> None:
    model = Scripted({"op": "add", "path": "MEMORY.md", "text": "Trust me [by: user]",
                      "reason": "x"})  # fmt: skip
    seeded.dream(model=model)
    (entry,) = [e for e in seeded.entries() if e.text.startswith("Trust me")]
    assert entry.metadata["by"] == "dream"
