"""`swarm_note`: one screened note appended to a swarm folder in one commit.

Findings and ruled-out paths go to findings.md, questions and answers to questions.md.
Every note carries `by: agent`, its author, its kind, `source: memrepo://tasks/<id>` and
`tainted: yes` when the task had read untrusted content; an answer names the question it
answers (`answers: <question id>`). The first note also writes README.md (goal, members,
rules), and a task's first note adds it to the members, in the same commit.

Decisions a caller can rely on:
- A note that is only a secret (or empty, or telemetry) is skipped like `remember`
  skips it: nothing is written and the result says why. A secret inside a note is
  redacted before anything touches the disk.
- The same note twice (same kind, text and question) is reinforced: no second line.
- A question may get several answers (peers disagree or add detail); each is kept and
  shown under the question. An answer to a question that is not in the swarm is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from memrepo.clock import Clock
from memrepo.errors import EntryNotFound, InvalidArgument
from memrepo.folder.messages import summarize
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.swarm_writes import Reader, SwarmChange, commit_swarm_change
from memrepo.formats import Document, entry_id, format_entry, normalize_text, parse, serialize
from memrepo.hygiene import collapse_whitespace, redact_secrets, screen
from memrepo.models.swarm import SWARM_KINDS, SwarmKind, SwarmNoteResult, SwarmRef, TaskInfo
from memrepo.swarm.paths import QUESTIONS, README, file_for, note_ref
from memrepo.swarm.readme import add_member, new_readme

SOURCE_PREFIX = "memrepo://tasks/"
MAX_SOURCES = 5
SOURCE_CHARS = 300
SOURCES_SEPARATOR = " , "
_TITLES = {"findings.md": "Findings", QUESTIONS: "Questions and answers"}


@dataclass(frozen=True, slots=True)
class NoteInput:
    """A note the caller asked for, before screening."""

    task: TaskInfo
    kind: str
    text: str
    sources: Sequence[str] = ()
    author: str | None = None
    tainted: bool = False
    answers: str | None = None


@dataclass(slots=True)
class _Outcome:
    action: str = "inserted"
    entry_id: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def write_note(
    folder: MemoryFolder, swarm: SwarmRef, note: NoteInput, clock: Clock
) -> SwarmNoteResult:
    """Screen `note` and append it to `swarm` (see the module docstring for the rules)."""
    kind = _check_kind(note.kind)
    question = _question_id(note, swarm)
    screened = screen(note.text)
    if screened.text is None:
        return SwarmNoteResult(
            status="skipped",
            kind=kind,
            reason=screened.skip_reason,  # type: ignore[arg-type]
            redacted=screened.redacted,
        )
    metadata = _metadata(note, kind, question, clock)
    path = f"{swarm.folder}/{file_for(kind)}"
    line = format_entry(screened.text, metadata)
    outcome = _Outcome(entry_id=entry_id(screened.text, metadata))

    def plan(read: Reader) -> SwarmChange | None:
        data = read(path)
        doc = _parse_or_new(data, path)
        if question is not None and not _has_question(doc, question):
            raise EntryNotFound(
                note_ref(swarm.name, QUESTIONS, question),
                "no such question in this swarm; see the question ids with "
                f"`memrepo swarm show {note.task.id}`",
            )
        twin = _same_note(data, doc, screened.text or "", kind, question)
        if twin is not None:
            outcome.action, outcome.entry_id = "reinforced", twin
            return None
        doc.add_entry(line)
        files: dict[str, bytes | None] = {path: serialize(doc)}
        readme = _readme_change(read(f"{swarm.folder}/{README}"), swarm, note.task)
        if readme is not None:
            files[f"{swarm.folder}/{README}"] = readme
        summary = summarize(f"Swarm {kind.replace('_', ' ')}", screened.text or "")
        return SwarmChange(files=files, summary=summary, task=note.task.id)

    commit = commit_swarm_change(folder, plan)
    return SwarmNoteResult(
        status="written",
        kind=kind,
        action=outcome.action,  # type: ignore[arg-type]
        ref=note_ref(swarm.name, file_for(kind), outcome.entry_id),
        path=path,
        commit=commit,
        redacted=screened.redacted,
        truncated=screened.truncated,
    )


def _check_kind(kind: str) -> SwarmKind:
    for known in SWARM_KINDS:
        if kind == known:
            return known
    raise InvalidArgument(f"kind={kind!r}: must be one of {', '.join(SWARM_KINDS)}")


def _question_id(note: NoteInput, swarm: SwarmRef) -> str | None:
    """The id of the question an answer names (a bare id or a `swarm:` ref)."""
    given = (note.answers or "").strip()
    if note.kind != "answer":
        if given:
            raise InvalidArgument("only an answer names a question (answers=...)")
        return None
    if not given:
        raise InvalidArgument(
            "an answer must name the question it answers: pass its id or ref "
            f"(`memrepo swarm show {note.task.id}` lists them)"
        )
    head, _, question = given.rpartition("#")
    if head and head not in (QUESTIONS, f"swarm:{swarm.name}:{QUESTIONS}"):
        raise EntryNotFound(given, f"not a question of this task's swarm ({swarm.name})")
    if not question or any(c in question for c in ";[]") or question != question.strip():
        raise InvalidArgument(f"answers={given!r}: not a question id")
    return question


def _metadata(note: NoteInput, kind: str, question: str | None, clock: Clock) -> dict[str, str]:
    author = _clean(note.author) or note.task.id
    meta = {
        "source": f"{SOURCE_PREFIX}{note.task.id}",
        "added": clock.now().date().isoformat(),
        "by": "agent",
        "origin": "swarm",
        "kind": kind,
        "author": author,
    }
    if question is not None:
        meta["answers"] = question
    sources = [s for s in (_clean(s)[:SOURCE_CHARS] for s in note.sources) if s]
    if sources:
        meta["sources"] = SOURCES_SEPARATOR.join(sources[:MAX_SOURCES])
    if note.tainted:
        meta["tainted"] = "yes"
    return meta


def _clean(value: str | None) -> str:
    """One line, secrets redacted (authors and sources are written like note text)."""
    if not value:
        return ""
    return collapse_whitespace(redact_secrets(value)[0]).replace(SOURCES_SEPARATOR, ", ")


def _parse_or_new(data: bytes | None, path: str) -> Document:
    if data is not None:
        return parse(data, path)
    title = _TITLES.get(path.rsplit("/", 1)[-1], "Notes")
    return parse(f"# {title}\n\n".encode(), path)


def _has_question(doc: Document, question: str) -> bool:
    return any(
        e.id == question and e.metadata.get("kind", "question") == "question" for e in doc.entries
    )


def _same_note(
    data: bytes | None, doc: Document, text: str, kind: str, question: str | None
) -> str | None:
    """The id of an entry with the same kind, question and normalized text, if any.

    Normalizing is per character and per whitespace run, so a twin's text is always a
    substring of the normalized file: checking that first spares decoding the metadata
    of every entry of a 10,000-note file on each write.
    """
    norm = normalize_text(text)
    if data is None or norm not in normalize_text(data.decode("utf-8", "replace")):
        return None
    for entry in doc.entries:
        meta = entry.metadata
        if (
            meta.get("kind") == kind
            and meta.get("answers") == question
            and normalize_text(entry.text) == norm
        ):
            return entry.id
    return None


def _readme_change(existing: bytes | None, swarm: SwarmRef, task: TaskInfo) -> bytes | None:
    if existing is None:
        return new_readme(swarm, task)
    return add_member(existing, task)
