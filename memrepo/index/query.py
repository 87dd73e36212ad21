"""Plain-text queries: user or agent text is never parsed as Whoosh query syntax.

Quotes, ``AND``/``OR``/``NOT``, ``* ? ~ ^ :``, parentheses and field names are ordinary
characters: the text goes through the same analysis as the index
(:func:`memrepo.index.analysis.split_groups`) and query objects are built directly.

A query yields two Whoosh queries over the ``exact`` and ``stem`` fields:

* ``all_terms`` (And): every term must match. A term matches its exact form or its stem;
  a compound (``postgres-16``) matches as written or by all of its parts.
* ``any_terms`` (Or): any distinctive term may match; function words of the EN/DE/TR/FR/ES
  stopword list are dropped unless nothing else is left.

In both, the last word (two characters or more) also matches as a prefix on the exact
field, so a half-typed last word still finds. Recall runs ``all_terms`` first, then
``any_terms``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whoosh.query import And, NullQuery, Or, Prefix, Query, Term

from memrepo.index.analysis import Group, cjk_query_units, fold, split_groups, stem
from memrepo.index.stopwords import RAW_STOPWORDS

__all__ = ["MAX_TERMS", "STOPWORDS", "PlainQuery", "build_query", "distinctive_terms"]

MAX_TERMS = 64
"""At most this many terms are used (the first ones): a 10,000-character paste still
builds a query of bounded cost."""

MIN_PREFIX = 2

PREFIX_TERMS = 16
"""A half-typed last word expands to at most this many index terms (the most frequent)."""

EXACT = "exact"
STEM = "stem"

STOPWORDS: frozenset[str] = frozenset(fold(word) for word in RAW_STOPWORDS)
"""The stopword list in index form (folded like every query term)."""


@dataclass(frozen=True, slots=True)
class PlainQuery:
    """The Whoosh queries built from one plain-text query.

    ``terms`` are every query term (word parts and CJK units, deduplicated, in order);
    ``distinctive`` are the ones ``any_terms`` uses (non-stopwords, or all terms when the
    query holds only stopwords). An empty query has empty terms and ``NullQuery``s.
    """

    text: str
    terms: tuple[str, ...]
    distinctive: tuple[str, ...]
    all_terms: Query
    any_terms: Query

    @property
    def is_empty(self) -> bool:
        """True when the text holds no searchable word at all."""
        return not self.terms


class CappedPrefix(Prefix):  # type: ignore[misc]
    """A prefix that expands to at most ``PREFIX_TERMS`` index terms, the most frequent.

    Whoosh ORs every expanded term into the search; "st" over a large index expands to
    hundreds of terms, each one a posting list read in pure Python. The word as typed
    is left out: the ``exact``/``stem`` clauses beside the prefix already match it.
    """

    def _btexts(self, ixreader: Any) -> list[bytes]:
        typed = self.text.encode("utf-8")
        expanded = [btext for btext in super()._btexts(ixreader) if btext != typed]
        if len(expanded) <= PREFIX_TERMS:
            return expanded
        fieldname = self.fieldname
        frequency = {b: ixreader.doc_frequency(fieldname, b) for b in expanded}
        return sorted(expanded, key=lambda b: -frequency[b])[:PREFIX_TERMS]


def _word(term: str, *, prefix: bool) -> Query:
    """One word part: its exact form or its stem, and a prefix when it is the last word.

    When the stem is the word itself, the ``stem`` posting list holds every document of
    the ``exact`` one (every word part is in both fields), so one term, boosted to score
    like the pair, matches the same documents with half the posting lists to walk.
    """
    stemmed = stem(term)
    clauses: list[Query] = (
        [Term(STEM, term, boost=2.0)]
        if stemmed == term
        else [Term(EXACT, term), Term(STEM, stemmed)]
    )
    if prefix and len(term) >= MIN_PREFIX:
        clauses.append(CappedPrefix(EXACT, term))
    return clauses[0] if len(clauses) == 1 else Or(clauses)


def _group_units(group: Group, *, last: bool) -> list[Query]:
    units = [
        _word(part, prefix=last and i == len(group.parts) - 1 and not group.cjk)
        for i, part in enumerate(group.parts)
    ]
    units.extend(Term(EXACT, unit) for run in group.cjk for unit in cjk_query_units(run))
    return units


def _group_all(group: Group, *, last: bool) -> Query:
    units = _group_units(group, last=last)
    inner = units[0] if len(units) == 1 else And(units)
    if not group.whole:
        return inner
    written: list[Query] = [Term(EXACT, group.whole)]
    if last:  # the constant-score prefix alone would not reward the compound as written
        written.append(CappedPrefix(EXACT, group.whole))
    return Or([*written, inner])


def _capped_groups(text: str) -> list[Group]:
    groups: list[Group] = []
    count = 0
    for group in split_groups(text):
        size = len(group.parts) + sum(len(cjk_query_units(run)) for run in group.cjk)
        if count + size > MAX_TERMS and groups:
            break
        groups.append(group)
        count += size
    return groups


def _terms(groups: list[Group]) -> list[str]:
    seen: dict[str, None] = {}
    for group in groups:
        for part in group.parts:
            seen.setdefault(part, None)
        for run in group.cjk:
            for unit in cjk_query_units(run):
                seen.setdefault(unit, None)
    return list(seen)[:MAX_TERMS]


def _distinctive(terms: list[str]) -> list[str]:
    kept = [term for term in terms if term not in STOPWORDS]
    return kept or terms


def distinctive_terms(text: str) -> list[str]:
    """The query's non-stopword terms (all terms if only stopwords), for coverage scaling.

    Terms are in index form (folded, CJK as bigrams), comparable with
    :func:`memrepo.index.analysis.analyze` of a hit's text.
    """
    return _distinctive(_terms(_capped_groups(text)))


def build_query(text: str) -> PlainQuery:
    """Build the all-terms and any-term queries of a plain-text query; never raises."""
    groups = _capped_groups(text)
    terms = _terms(groups)
    if not terms:
        return PlainQuery(text, (), (), NullQuery, NullQuery)
    distinctive = _distinctive(terms)
    last_index = len(groups) - 1
    all_terms = And([_group_all(g, last=i == last_index) for i, g in enumerate(groups)])

    last_part = groups[-1].parts[-1] if groups[-1].parts and not groups[-1].cjk else None
    words = {part for g in groups for part in g.parts}
    wanted = set(distinctive)
    any_clauses: list[Query] = [
        _word(term, prefix=term == last_part) if term in words else Term(EXACT, term)
        for term in distinctive
    ]
    for i, group in enumerate(groups):
        if group.whole and wanted.intersection(group.parts):
            any_clauses.append(Term(EXACT, group.whole))
            if i == last_index:
                any_clauses.append(CappedPrefix(EXACT, group.whole))
    return PlainQuery(text, tuple(terms), tuple(distinctive), all_terms, Or(any_clauses))
