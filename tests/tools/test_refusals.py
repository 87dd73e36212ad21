"""A refused change says what was refused (issue #28).

Every refusal used to read "forgetting it was not approved", after an edit, a move, an
undo or a review decision alike: a model told it could not forget what it tried to edit
would try the wrong thing next. Each verb is refused here through `MemoryTools.dispatch`
(what every host's call goes through), and nothing is stored.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memrepo import MemoryRepo
from memrepo.clock import FixedClock
from memrepo.errors import ApprovalDenied
from memrepo.tools import MemoryTools, ToolContext

from .helpers import RecordingApproval, ToolsFor, snapshot

#: A hand-written file a dream proposes to change (an expired note), so its changes wait
#: on a review branch for the user's decision.
SEED = "\n".join(
    (
        "# Memory",
        "",
        "## Notes",
        "- The build needs Node 20",
        "- Old person's note [expires: 2020-01-01]",
        "",
    )
)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.parametrize(
    ("verb", "refused", "kept"),
    [
        ("forget", "forgetting it", "nothing was removed"),
        ("edit", "editing it", "nothing was changed"),
        ("move", "moving it", "nothing was moved"),
        ("undo", "undoing this change", "nothing was undone"),
    ],
)
@pytest.mark.slow
def test_a_refused_change_names_its_verb_and_stores_nothing(
    repo: MemoryRepo,
    tools_for: ToolsFor,
    approval: RecordingApproval,
    verb: str,
    refused: str,
    kept: str,
) -> None:
    written = repo.remember("The user prefers tea over coffee", by="user")
    ref = repo.entries("MEMORY.md")[0].ref
    calls: dict[str, tuple[str, dict[str, Any]]] = {
        "forget": ("memory_forget", {"ref": ref}),
        "edit": ("memory_edit", {"ref": ref, "text": "The user prefers coffee"}),
        "move": ("memory_move", {"ref": ref, "file": "drinks.md"}),
        "undo": ("memory_undo", {"commit": str(written.commit)[:10]}),
    }
    before = snapshot(repo)
    name, arguments = calls[verb]
    with pytest.raises(ApprovalDenied) as denied:
        tools_for(task_id="t1").dispatch(name, arguments)
    said = str(denied.value)
    assert said.endswith(f"{refused} was not approved (the user did not approve); {kept}")
    assert "forgetting" not in said or verb == "forget"
    assert [request.action for request in approval.asked] == [verb]
    assert snapshot(repo) == before


@pytest.mark.parametrize(
    ("decision", "said"),
    [
        ("accept", "accepting this dream review was not approved (the user did not approve); "
         "nothing was merged"),
        ("reject", "rejecting this dream review was not approved (the user did not approve); "
         "the review stays as it was"),
    ],
)  # fmt: skip
def test_a_refused_review_decision_names_it_and_the_review_stays(
    tmp_path: Path, decision: str, said: str
) -> None:
    repo = MemoryRepo.init(tmp_path / "mem", clock=FixedClock(datetime(2026, 3, 1, tzinfo=UTC)))
    (repo.root / "MEMORY.md").write_text(SEED, encoding="utf-8")
    git(repo.root, "commit", "-q", "-am", "hand edit")
    review = repo.dream().review
    assert review is not None
    approval = RecordingApproval()
    head = git(repo.root, "rev-parse", "HEAD")
    tools = MemoryTools(repo, ToolContext(task_id="t1"), approval=approval)
    try:
        with pytest.raises(ApprovalDenied) as refused:
            tools.dispatch("memory_review", {"name": review, "decision": decision})
        assert str(refused.value) == f"{review}: {said}"
        assert [request.action for request in approval.asked] == [f"{decision}_review"]
        assert git(repo.root, "rev-parse", "HEAD") == head
        assert [r.name for r in repo.list_reviews()] == [review]
    finally:
        repo.close()
