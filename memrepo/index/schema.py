"""The Whoosh schema (docs/architecture.md §6) and :class:`IndexDoc`, one document per
entry or item."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields

from memrepo.formats.text import normalize_text
from memrepo.index._screen import screen_value
from memrepo.index.analysis import (
    ExactAnalyzer,
    FieldText,
    StemAnalyzer,
    analyze,
    split_groups,
)
from memrepo.index.dates import entry_date_terms
from memrepo.index.whoosh_door import BOOLEAN, ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

__all__ = ["ID_FIELDS", "SCHEMA_VERSION", "IndexDoc", "build_schema", "norm_hash"]

SCHEMA_VERSION = 5
"""Bump on any change to the fields, the analysis *or* what the projection indexes: an
index of another version is rebuilt on open (an analyzer change makes old terms
unreachable even if fields match; version 2 added the swarm and team lanes, whose files
an index built before them would never pick up; version 3 screens secrets out of every
field, so an older index, which may hold tokens from hand edits, is rebuilt and its
segment files removed; version 4 indexes each entry with its context, its date terms,
its label and subject, lemmatises before stemming, and stores a fingerprint; version 5
stores a commitment's due day, which recall and the prompt show)."""

ID_FIELDS = (
    "ref",
    "lane",
    "repo",
    "path",
    "subject",
    "workspace",
    "scope",
    "scope_ref",
    "privacy",
    "trust",
    "status",
    "by",
    "added",
    "task_id",
    "kind",
    "norm_hash",
    "audience",
)
"""Fields indexed as one untokenized term each: what search filters and excludes match."""


def build_schema() -> Schema:
    """A new Whoosh schema; every field but `exact` and `stem` is stored for hits."""
    spec: dict[str, object] = {name: ID(stored=True) for name in ID_FIELDS}
    spec["ref"] = ID(stored=True, unique=True)
    spec.update(
        line=NUMERIC(int, bits=32, stored=True, signed=False),
        text=STORED(),
        exact=TEXT(analyzer=ExactAnalyzer(), phrase=False),
        stem=TEXT(analyzer=StemAnalyzer(), phrase=False),
        date=KEYWORD(scorable=True),
        label=KEYWORD(stored=True, scorable=False),
        tainted=BOOLEAN(stored=True),
        fingerprint=STORED(),
        uncommitted=BOOLEAN(stored=True),
        source=STORED(),
        commit=STORED(),
        due=STORED(),
    )
    return Schema(**spec)


def norm_hash(text: str) -> str:
    """Hash of the normalized text (casefold, collapsed whitespace): equal facts collide."""
    data = normalize_text(text).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class IndexDoc:
    """One searchable document: a folder/team/swarm entry or a memory item.

    ``repo`` names the git repository a document came from ("main", "team:<name>"), so
    a file-level update can delete by (repo, path). Empty strings are indexed as the
    empty term, so a filter can ask for "no workspace" with ``{"workspace": {""}}``.
    ``norm_hash`` defaults to :func:`norm_hash` of ``text``. ``audience`` is who may see
    it beyond workspace and privacy: "all", "task:<id>" or "contact:<ref>", so visibility
    stays one AND of allowed values per field.
    """

    ref: str
    lane: str
    text: str
    repo: str = ""
    path: str = ""
    line: int = 0
    subject: str = ""
    workspace: str = ""
    scope: str = ""
    scope_ref: str = ""
    privacy: str = ""
    trust: str = ""
    status: str = ""
    by: str = ""
    added: str = ""
    tainted: bool = False
    source: str = ""
    commit: str = ""
    uncommitted: bool = False
    task_id: str = ""
    kind: str = ""
    norm_hash: str = field(default="")
    audience: str = "all"
    context: tuple[tuple[str, float], ...] = ()
    label: str = ""
    due: str = ""

    def __post_init__(self) -> None:
        if not self.norm_hash:
            object.__setattr__(self, "norm_hash", norm_hash(self.text))

    def to_fields(self) -> dict[str, object]:
        """Keyword arguments for Whoosh's ``add_document``/``update_document``, every
        string screened for secrets (see ``_screen``): what Whoosh writes is what a
        prompt may show."""
        values: dict[str, object] = {name: getattr(self, name) for name in _STORED_FIELDS}
        for name in _SCREENED_FIELDS:
            values[name] = screen_value(values[name])  # type: ignore[arg-type]
        text, subject = str(values["text"]), str(values["subject"])
        if text != self.text:  # a hash of the raw text would let a guess be checked
            values["norm_hash"] = norm_hash(text)
        extra = _new_words(subject, text)
        own = ((text, 1.0), (extra, 1.0)) if extra else ((text, 1.0),)
        context = tuple((screen_value(part), weight) for part, weight in self.context if part)
        values["exact"] = FieldText(own)
        values["stem"] = FieldText(own + context)
        values["date"] = " ".join(entry_date_terms(self.added, text))
        values["label"] = " ".join(label_terms(screen_value(self.label)))
        values["fingerprint"] = fingerprint(values, own + context)
        return values


def fingerprint(values: dict[str, object], segments: tuple[tuple[str, float], ...]) -> str:
    """A hash of everything a document indexes and stores, taken after screening (a hash
    of raw text would let a guessed secret be checked): a file update rewrites only the
    documents whose fingerprint changed, so catching up with many small edits costs
    what changed, not the size of the files they touched."""
    # Not the commit it was read at: an entry left as it was keeps the commit it was
    # indexed from (which holds it just the same), or every commit would rewrite it.
    plain = {k: v for k, v in values.items() if k not in ("exact", "stem", "commit")}
    data = json.dumps([sorted(plain.items()), segments], default=str, ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _new_words(subject: str, text: str) -> str:
    """The subject's words the text does not hold: searchable at the text's weight,
    without counting twice a word both hold (a fact with a subject would outscore the
    same fact without one)."""
    if not subject:
        return ""
    held = set(analyze(text))
    return " ".join(
        dict.fromkeys(w for g in split_groups(subject) for w in g.parts if w not in held)
    )


def label_terms(label: str) -> list[str]:
    """A label's words in index form: what a query term must equal to name it."""
    return list(dict.fromkeys(analyze(label)))


_STORED_FIELDS = tuple(f.name for f in fields(IndexDoc) if f.name not in ("context", "label"))
#: What `IndexStore.sync_files` compares: a document's hash of its indexed values.
FINGERPRINT = "fingerprint"
#: Every string field but the fixed vocabularies, the commit id and the text's hash.
_SCREENED_FIELDS = tuple(
    f.name
    for f in fields(IndexDoc)
    if f.type == "str" and f.name not in ("lane", "commit", "norm_hash", "label")
)
