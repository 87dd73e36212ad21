"""The swarm as a source of the context builder's `<swarm>` block (docs/architecture.md §7, §10).

`memrepo.recall.context_builder` owns the block: the gate, the header saying peer notes are
data, sanitizing, tagging, dedupe against L0 and L1, and the budget. This source only
hands it the lines of the requesting task's swarm: the goal and members (pinned, so the
budget keeps them), then the latest findings and questions with their answers, newest
first. The swarm is always the one the task's parent chain names; `request.swarm` only
tells the gate that the host wants the layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memrepo.errors import SwarmError
from memrepo.models.prompt_context import ContextRequest, InjectionDecision
from memrepo.models.swarm import SwarmNote, SwarmView
from memrepo.recall.context_lines import ExtraLayer, SourceLine

if TYPE_CHECKING:
    from memrepo.swarm.service import Swarms

ORIGIN = "swarm"
_LABELS = {"finding": "finding", "ruled_out": "ruled out", "question": "question"}


class SwarmContextSource:
    """The engine gives it to the prompt-context builder it builds (`RepoParts`)."""

    name = "swarm"
    layer: ExtraLayer = "swarm"

    def __init__(self, swarms: Swarms) -> None:
        self.swarms = swarms

    def lines(self, request: ContextRequest, decision: InjectionDecision) -> Sequence[SourceLine]:
        """The lines of the task's swarm; none without a task, before the first note,
        or when the host's task chain cannot be resolved (swarm_note reports that)."""
        if not request.task_id:
            return []
        try:
            view = self.swarms.view(request.task_id)
        except SwarmError:
            return []
        return swarm_lines(view) if view.exists else []


def swarm_lines(view: SwarmView) -> list[SourceLine]:
    """Goal and members first (pinned), then notes newest first."""
    out = [
        SourceLine(ref="", text=f"Goal: {view.swarm.goal}", origin=ORIGIN, pinned=True),
        SourceLine(ref="", text=f"Members: {', '.join(view.members)}", origin=ORIGIN, pinned=True),
    ]
    out.extend(_line(note, _LABELS.get(note.kind, "finding")) for note in reversed(view.findings))
    for question in reversed(view.questions):
        state = "answered" if question.answers else "open"
        out.append(_line(question.question, f"question {question.question.id}, {state}"))
        out.extend(
            _line(answer, f"answer to {question.question.id}")
            for answer in reversed(question.answers)
        )
    return out


def _line(note: SwarmNote, label: str) -> SourceLine:
    who = note.author or note.task_id
    return SourceLine(
        ref=note.ref,
        text=f"[{label}] {note.text} ({who})",
        origin=ORIGIN,
        tainted=note.tainted,
        added=note.added,
    )
