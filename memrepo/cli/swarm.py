"""Commands over swarm folders: `memrepo swarm list | show | note`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    commit_note,
    emit,
    emit_list,
    open_repo,
    written,
)
from memrepo.models.constants import SWARM_KINDS

if TYPE_CHECKING:
    from memrepo.models.swarm import SwarmNoteResult, SwarmSummary, SwarmView


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    actions = action_command(
        commands,
        "swarm",
        "Shared notes of agents working on one root task (swarms/<slug>-<root8>/).",
        [
            "memrepo swarm list",
            "memrepo swarm show task-42 --json",
            'memrepo swarm note task-42 finding "The cache key ignores the lockfile"',
            'memrepo swarm note task-42 answer "No, it floats" --answers 2b8161ac6d',
        ],
    )
    action(actions, "list", _list, "every swarm folder with its counts")
    show = action(actions, "show", _show, "a task's swarm: goal, members, latest notes")
    show.add_argument("task", metavar="TASK", help="any task of the swarm")
    show.add_argument("--block", action="store_true", help="print the <swarm> prompt block")
    note = action(actions, "note", _note, "append a note to a task's swarm")
    note.add_argument("task", metavar="TASK", help="the task writing the note")
    note.add_argument("kind", metavar="KIND", choices=SWARM_KINDS, help=", ".join(SWARM_KINDS))
    note.add_argument("text", metavar="TEXT", help="one self-contained note a peer can use")
    note.add_argument(
        "--source", action="append", default=[], metavar="S", help="where it was seen (repeat)"
    )
    note.add_argument("--answers", metavar="QUESTION", help="the question id an answer answers")
    note.add_argument("--author", metavar="NAME", help="who writes (default: the task id)")
    note.add_argument("--tainted", action="store_true", help="the task has read untrusted content")


def _list(args: argparse.Namespace) -> int:
    return emit_list(args, open_repo(args).list_swarms(), _summary_line, "no swarm folders")


def _summary_line(swarm: SwarmSummary) -> str:
    return (
        f"{swarm.folder}  root {swarm.root_id or '?'}  {swarm.members} member(s), "
        f"{swarm.findings} finding(s), {swarm.questions} question(s)  {swarm.goal}"
    )


def _show(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    if args.block:
        print(repo.swarm_block(args.task))
        return 0
    view = repo.swarm_view(args.task)
    return emit(args, view, _describe_view)


def _describe_view(view: SwarmView) -> str:
    lines = [f"{view.swarm.folder}  (root {view.swarm.root_id})", f"goal: {view.swarm.goal}"]
    if not view.exists:
        return "\n".join([*lines, "no notes yet"])
    lines.append(f"members: {', '.join(view.members)}")
    lines.append(f"findings ({len(view.findings)} latest of {view.total_findings}):")
    lines.extend(f"  [{n.kind}] {n.text}  ({n.author}; {n.ref})" for n in view.findings)
    lines.append(f"questions ({view.total_questions}, {view.open_questions} open):")
    for question in view.questions:
        q = question.question
        lines.append(f"  [{q.id}] {q.text}  ({q.author}{'' if question.answers else '; open'})")
        lines.extend(f"    -> {a.text}  ({a.author})" for a in question.answers)
    return "\n".join(lines)


def _note(args: argparse.Namespace) -> int:
    result = open_repo(args).swarm_note(
        args.task,
        args.kind,
        args.text,
        sources=args.source,
        author=args.author,
        tainted=args.tainted,
        answers=args.answers,
    )
    return emit(args, result, _describe_note)


def _describe_note(result: SwarmNoteResult) -> str:
    if not result.written:
        return f"skipped: {result.reason} (nothing written)"
    return written(result, commit_note(result.commit))
