"""Reading a swarm folder at HEAD into notes, questions with answers, and members.

Only what the `<swarm>` block and `memrepo swarm show` need is kept: the latest findings
and the latest questions. A swarm of 10,000 notes is still read in one pass per file, and
only the notes shown are decoded in full.
"""

from __future__ import annotations

from typing import NamedTuple

from memrepo.errors import FormatError
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.swarm_writes import read_swarm_files
from memrepo.formats import Document, Entry, entry_id, parse
from memrepo.formats.metadata import decode_group, split_group
from memrepo.models.swarm import SWARM_KINDS, SwarmNote, SwarmQuestion, SwarmRef, SwarmView
from memrepo.swarm.notes import SOURCE_PREFIX, SOURCES_SEPARATOR
from memrepo.swarm.paths import FINDINGS, QUESTIONS, README, note_ref
from memrepo.swarm.readme import members as readme_members

LATEST = 10


def read_view(folder: MemoryFolder, swarm: SwarmRef, latest: int = LATEST) -> SwarmView:
    """The swarm as it is at HEAD (`exists` is False before its first note).

    Every note counts (totals, members, which questions are answered), but only the
    latest become `SwarmNote`s: a view is asked for on every turn of every task in the
    swarm, and building a model per note made 15,000 notes cost 0.3 s a turn.
    """
    files = read_swarm_files(folder, swarm.name)
    readme = files.get(README)
    findings = _Scan(files.get(FINDINGS), swarm.name, FINDINGS)
    asked = _Scan(files.get(QUESTIONS), swarm.name, QUESTIONS)
    questions: list[_Row] = []
    answers: dict[str, list[_Row]] = {}
    ids: dict[int, str] = {}
    for row in asked.rows:
        metadata = row.metadata
        if _kind(metadata, "question") != "answer":
            questions.append(row)
            ids[row.line_no] = entry_id(row.text, metadata)
        elif target := metadata.get("answers"):
            answers.setdefault(target, []).append(row)
    members = readme_members(readme)
    for row in (*findings.rows, *asked.rows):
        task = row.task_id
        if task and task not in members:
            members.append(task)
    shown = questions[-latest:] if latest else []
    return SwarmView(
        swarm=swarm,
        exists=readme is not None or bool(findings.rows) or bool(asked.rows),
        members=tuple(members),
        findings=tuple(findings.note(row) for row in findings.rows[-latest:]) if latest else (),
        questions=tuple(
            SwarmQuestion(
                question=asked.note(row),
                answers=tuple(asked.note(a) for a in answers.get(ids[row.line_no], ())),
            )
            for row in shown
        ),
        total_findings=len(findings.rows),
        total_questions=len(questions),
        open_questions=sum(1 for row in questions if ids[row.line_no] not in answers),
    )


def count_notes(files: dict[str, bytes], name: str) -> tuple[int, int]:
    """(findings, questions) of a swarm folder's files, without building any note."""
    findings = _Scan(files.get(FINDINGS), name, FINDINGS).rows
    asked = _Scan(files.get(QUESTIONS), name, QUESTIONS).rows
    return len(findings), sum(1 for row in asked if _kind(row.metadata, "question") == "question")


class _Row(NamedTuple):
    """One note of a file, read only as far as a view needs it for every note."""

    line_no: int
    text: str
    meta: str

    @property
    def metadata(self) -> dict[str, str]:
        return decode_group(self.meta) if self.meta else {}

    @property
    def task_id(self) -> str:
        if SOURCE_PREFIX not in self.meta:
            return ""
        source = self.metadata.get("source", "")
        return source.removeprefix(SOURCE_PREFIX) if source.startswith(SOURCE_PREFIX) else ""


class _Scan:
    """The notes of one file as rows; `note` makes the full `SwarmNote` of one row."""

    def __init__(self, data: bytes | None, name: str, file: str) -> None:
        self.name, self.file = name, file
        self.default = "finding" if file == FINDINGS else "question"
        self.doc = _parse(data, name, file)
        self.rows: list[_Row] = []
        for line_no, raw in self.doc.entry_lines() if self.doc is not None else ():
            text, meta = split_group(raw.lstrip(" ")[1:])  # marker as Document reads it
            if text:
                self.rows.append(_Row(line_no, text, meta or ""))

    def note(self, row: _Row) -> SwarmNote:
        assert self.doc is not None
        entry = self.doc.entry_at(row.line_no)
        assert entry is not None
        return note_of(entry, self.name, self.file, self.default)


def _parse(data: bytes | None, name: str, file: str) -> Document | None:
    if data is None:
        return None
    try:
        return parse(data, f"swarms/{name}/{file}")
    except FormatError:
        return None  # lint reports it; one damaged file never hides the other


def _kind(metadata: dict[str, str], default_kind: str) -> str:
    kind = metadata.get("kind", default_kind)
    return kind if kind in SWARM_KINDS else default_kind


def note_of(entry: Entry, name: str, file: str, default_kind: str) -> SwarmNote:
    """A SwarmNote for an entry; hand-written bullets take the file's default kind."""
    meta = entry.metadata
    kind = _kind(meta, default_kind)
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
