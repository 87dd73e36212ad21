"""Reading a swarm folder at HEAD into notes, questions with answers, and members.

Only what the `<swarm>` block and `memrepo swarm show` need is kept: the latest findings
and the latest questions. A swarm of 10,000 notes is still read in one pass per file.
"""

from __future__ import annotations

from memrepo.errors import FormatError
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.swarm_writes import read_swarm_files
from memrepo.formats import Entry, parse
from memrepo.models.swarm import SWARM_KINDS, SwarmNote, SwarmQuestion, SwarmRef, SwarmView
from memrepo.swarm.notes import SOURCE_PREFIX, SOURCES_SEPARATOR
from memrepo.swarm.paths import FINDINGS, QUESTIONS, README, note_ref
from memrepo.swarm.readme import members as readme_members

LATEST = 10


def read_view(folder: MemoryFolder, swarm: SwarmRef, latest: int = LATEST) -> SwarmView:
    """The swarm as it is at HEAD (`exists` is False before its first note)."""
    files = read_swarm_files(folder, swarm.name)
    readme = files.get(README)
    findings = read_notes(files.get(FINDINGS), swarm.name, FINDINGS)
    asked = read_notes(files.get(QUESTIONS), swarm.name, QUESTIONS)
    questions = [note for note in asked if note.kind != "answer"]
    answers: dict[str, list[SwarmNote]] = {}
    for note in asked:
        if note.kind == "answer" and note.answers:
            answers.setdefault(note.answers, []).append(note)
    grouped = [SwarmQuestion(question=q, answers=tuple(answers.get(q.id, ()))) for q in questions]
    members = readme_members(readme)
    for note in (*findings, *asked):
        if note.task_id and note.task_id not in members:
            members.append(note.task_id)
    return SwarmView(
        swarm=swarm,
        exists=readme is not None or bool(findings) or bool(asked),
        members=tuple(members),
        findings=tuple(findings[-latest:]) if latest else (),
        questions=tuple(grouped[-latest:]) if latest else (),
        total_findings=len(findings),
        total_questions=len(questions),
        open_questions=sum(1 for q in grouped if not q.answers),
    )


def read_notes(data: bytes | None, name: str, file: str) -> list[SwarmNote]:
    """The notes of one file, in file order; an unreadable file reads as no notes
    (lint reports it), so one damaged file never hides the other."""
    if data is None:
        return []
    try:
        doc = parse(data, f"swarms/{name}/{file}")
    except FormatError:
        return []
    default = "finding" if file == FINDINGS else "question"
    return [note_of(entry, name, file, default) for entry in doc.entries if entry.text]


def note_of(entry: Entry, name: str, file: str, default_kind: str) -> SwarmNote:
    """A SwarmNote for an entry; hand-written bullets take the file's default kind."""
    meta = entry.metadata
    kind = meta.get("kind", default_kind)
    if kind not in SWARM_KINDS:
        kind = default_kind
    source = meta.get("source", "")
    task_id = source.removeprefix(SOURCE_PREFIX) if source.startswith(SOURCE_PREFIX) else ""
    sources = meta.get("sources", "")
    return SwarmNote(
        ref=note_ref(name, file, entry.id),
        id=entry.id,
        kind=kind,  # type: ignore[arg-type]
        text=entry.text,
        task_id=task_id,
        author=meta.get("author", ""),
        added=meta.get("added", ""),
        tainted=meta.get("tainted", "").casefold() == "yes",
        sources=tuple(s for s in sources.split(SOURCES_SEPARATOR) if s) if sources else (),
        answers=meta.get("answers") if kind == "answer" else None,
        line=entry.line_no + 1,
    )
