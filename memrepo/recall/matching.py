"""Where a query's words met a hit: its own text, its context, its date or its label.

The index scores an entry's own words and its context in one field (BM25F), so a score
alone does not say why a memory came up. This module answers it from what the hit
stores (text, subject, label, ``added``) and the query: a term the own text, subject or
label holds matched there; a date term the entry's date terms hold matched the date;
a term the index matched beyond those matched the context. Recall uses it to keep a
hit found through its context alone only when that match is strong (see
`memrepo.recall.lanes`), and ``explain`` shows it to a person.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memrepo.index import PlainQuery
from memrepo.index.analysis import analyze, stem
from memrepo.index.dates import entry_date_terms

__all__ = ["Matches", "matches"]


@dataclass(frozen=True, slots=True)
class Matches:
    """The query terms that matched each part of one hit (folded query forms)."""

    text: tuple[str, ...] = ()
    label: tuple[str, ...] = ()
    date: tuple[str, ...] = ()
    context: tuple[str, ...] = ()

    @property
    def own(self) -> bool:
        """Whether anything matched beyond the context."""
        return bool(self.text or self.label or self.date)

    def as_dict(self) -> dict[str, list[str]]:
        return {name: list(getattr(self, name)) for name in ("text", "context", "date", "label")}


def matches(
    query: PlainQuery, fields: Mapping[str, Any], matched: Collection[str] | None = None
) -> Matches:
    """Which query terms matched where. ``matched`` are the index terms the search
    matched (``field:term``, from a search asked for them); without it, every distinctive
    term not found in the own text, label or date is left out of ``context``."""
    exact, stems = _own_terms(f"{fields.get('text', '')} {fields.get('subject', '')}")
    labels = set(str(fields.get("label", "")).split())
    searched = set(matched) if matched is not None else set()
    own: list[str] = []
    label: list[str] = []
    context: list[str] = []
    for term in query.distinctive:
        if term in labels:
            label.append(term)
        if term in exact or stem(term) in stems or _typed(term, query, exact):
            own.append(term)
        elif f"stem:{stem(term)}" in searched or f"exact:{term}" in searched:
            context.append(term)
    last = query.last_word
    if last and last not in query.distinctive and _typed(last, query, exact):  # a compound
        own.append(last)
    date: tuple[str, ...] = ()
    if query.dates:  # the hit's date terms are derived again only when the query asks
        dates = set(entry_date_terms(str(fields.get("added", "")), str(fields.get("text", ""))))
        date = tuple(term for term in query.dates if term in dates)
    return Matches(tuple(own), tuple(label), date, tuple(context))


@lru_cache(maxsize=4096)
def _own_terms(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A hit's own exact and stemmed terms (cached: the same memories come up again)."""
    return frozenset(analyze(text)), frozenset(analyze(text, stemmed=True))


def _typed(term: str, query: PlainQuery, exact: frozenset[str]) -> bool:
    """Whether ``term`` is the half-typed last word and the text holds a word it begins."""
    return term == query.last_word and any(word.startswith(term) for word in exact)
