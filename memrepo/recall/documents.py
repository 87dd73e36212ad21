"""What the index holds for each memory: one document per folder entry and per item.

A folder entry's document carries its context (neighbours, headings, description:
`memrepo.recall.entry_context`), its trust from `by`, its workspace from its path; a
swarm note's document is the same, relabelled into the swarm lane and seen only inside
its swarm; an item's document carries its scope, privacy class and audience
(docs/architecture.md §6).
"""

from __future__ import annotations

from dataclasses import replace

from memrepo.errors import FormatError
from memrepo.folder.repo import make_ref
from memrepo.formats import parse
from memrepo.index import IndexDoc
from memrepo.items.due import due_date
from memrepo.layout import (
    SWARM_DIR,
    split_note_path,
    swarm_audience,
    swarm_note_ref,
    workspace_of,
)
from memrepo.models.items import MemoryItem
from memrepo.recall.entry_context import entry_contexts
from memrepo.recall.expiry import ExpiryWatch
from memrepo.recall.oversized import is_too_large
from memrepo.recall.visibility import privacy_class
from memrepo.routing import BY_TO_SOURCE

#: The repo field of the user's own folder documents (team ones: `team:<name>`).
MAIN = "main"


def entry_docs(
    path: str,
    data: bytes,
    *,
    commit: str,
    uncommitted: bool,
    expiry: ExpiryWatch | None = None,
) -> list[IndexDoc]:
    """The index documents of one markdown file (none when it is not readable or over
    the size memrepo indexes, `memrepo.recall.oversized`); with `expiry`, entries whose
    `expires:` date is past are left out (`memrepo.recall.expiry`)."""
    if is_too_large(data):
        return []  # the projection records and reports it; a team's file is skipped
    try:
        doc = parse(data, path)
    except FormatError:
        return []  # lint and health report it; the other files stay searchable
    workspace = workspace_of(path)
    contexts = entry_contexts(doc)
    docs: dict[str, IndexDoc] = {}
    for entry in doc.entries:
        ref = make_ref(path, entry.id)
        if ref in docs or not entry.text:
            continue  # a repeated fact in one file is one document
        meta = entry.metadata
        if expiry is not None and expiry.entry_expired(path, meta):
            continue
        by = meta.get("by", "user")  # a bullet without metadata was written by a person
        context = contexts.get(entry.line_no)
        docs[ref] = IndexDoc(
            ref=ref,
            lane="folder",
            text=entry.text,
            repo=MAIN,
            path=path,
            line=entry.line_no + 1,
            subject=meta.get("subject", ""),
            workspace=workspace,
            scope="workspace" if workspace else "global",
            privacy="normal",
            trust=BY_TO_SOURCE.get(by, "inferred"),
            status="active",
            by=by,
            added=meta.get("added", ""),
            tainted=meta.get("tainted", "").casefold() == "yes",
            source=meta.get("source", ""),
            commit=commit,
            uncommitted=uncommitted,
            kind=meta.get("kind", ""),
            due=meta.get("due", ""),
            context=context.segments if context else (),
            label=context.label if context else "",
        )
    swarm = split_note_path(path)
    if swarm is not None:  # a swarm's notes: their own lane, seen only inside the swarm
        return [swarm_doc(doc, *swarm) for doc in docs.values()]
    return list(docs.values())


def swarm_doc(doc: IndexDoc, name: str, file: str) -> IndexDoc:
    """`doc` (read from `swarms/<name>/<file>`) as a document of the swarm lane: ref
    `swarm:<folder>:<file>#<id>`, and the audience only readers inside that swarm match."""
    entry_id = doc.ref.rpartition("#")[2]
    return replace(doc, lane="swarm", ref=swarm_note_ref(name, file, entry_id),
                   audience=swarm_audience(name))  # fmt: skip


def item_doc(item: MemoryItem) -> IndexDoc:
    """The index document of one active memory item."""
    audience = "all"
    if item.scope in ("task", "contact") and item.scope_ref:
        audience = f"{item.scope}:{item.scope_ref}"
    return IndexDoc(
        ref=item.ref,
        lane="memory",
        text=item.content,
        subject="" if item.derived_subject else item.subject_key,
        workspace=item.workspace_id or "",
        scope=item.scope,
        scope_ref=item.scope_ref or "",
        privacy=privacy_class(item.privacy, item.scope, item.workspace_id),
        trust=item.source,
        status=item.status,
        by=item.source,
        added=item.created_at.date().isoformat(),
        tainted=item.tainted,
        source=f"{item.source_ref.store}:{item.source_ref.id}" if item.source_ref else "",
        task_id=item.task_id or "",
        kind=item.kind,
        audience=audience,
        label=_contact_name(item.scope_ref) if item.scope == "contact" else "",
        due=_due_of(item),
    )


def _due_of(item: MemoryItem) -> str:
    """A commitment's due day (its `due` source alias), "" for anything else."""
    day = due_date(item)
    return day.isoformat() if day is not None else ""


def _contact_name(ref: str | None) -> str:
    """The name in a contact ref (``mail:ana@example.com`` -> ``ana``): what a query
    about that person says, so it labels the contact's items."""
    name = (ref or "").partition(":")[2] or (ref or "")
    return name.partition("@")[0]


def indexed_path(path: str) -> bool:
    """Markdown files, and of swarm folders only the notes (never README.md)."""
    in_swarm = path.startswith(SWARM_DIR)
    return path.endswith(".md") and (not in_swarm or split_note_path(path) is not None)
