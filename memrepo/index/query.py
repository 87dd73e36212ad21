"""Plain-text queries: user or agent text is never parsed as Whoosh query syntax.

Quotes, ``AND``/``OR``/``NOT``, ``* ? ~ ^ :``, parentheses and field names are ordinary
characters: the text goes through the same analysis as the index
(:func:`memrepo.index.analysis.split_groups`) and query objects are built directly.

A query is one any-word query (``PlainQuery.words``), ranked by BM25F: each distinctive
term (function words of the EN/DE/TR/FR/ES stopword list dropped unless nothing else is
left) asks the ``stem`` field for its lemma's stem, where the entry's own words and its
context are weighted in one field; a compound (``postgres-16``) or a CJK unit also asks
the ``exact`` field, as written. The dates the query names ask the ``date`` field
(:mod:`memrepo.index.dates`). An all-words pass, an exact term beside every stem and a
prefix on every query's last word were measured to cost time and lose recall
(``../shared/research/recall.md``): the last word becomes a prefix only when the index
does not hold it as a word (``PlainQuery.with_prefix``), so a half-typed word still finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from memrepo.index.analysis import Group, cjk_query_units, fold, split_groups, stem
from memrepo.index.dates import query_date_terms
from memrepo.index.stopwords import RAW_STOPWORDS
from memrepo.index.whoosh_door import NullQuery, Or, Prefix, Query, Term

#: A built search query, opaque above `index/` (what `IndexStore.search` takes).
SearchQuery = Query

__all__ = ["MAX_TERMS", "STOPWORDS", "PlainQuery", "build_query", "distinctive_terms"]

MAX_TERMS = 64
"""At most this many terms are used (the first ones): a 10,000-character paste still
builds a query of bounded cost."""

MIN_PREFIX = 2

PREFIX_TERMS = 16
"""A half-typed last word expands to at most this many index terms (the most frequent)."""
PREFIX_BOOST = 0.5
"""A word the last one may complete counts half a word: it is a guess."""

EXACT = "exact"
STEM = "stem"
DATE = "date"
DATE_BOOST = 1.0
"""How much a date the query names counts beside its words (tuned on REALTALK 1-5)."""

STOPWORDS: frozenset[str] = frozenset(fold(word) for word in RAW_STOPWORDS)
"""The stopword list in index form (folded like every query term)."""


@dataclass(frozen=True, slots=True)
class PlainQuery:
    """The Whoosh query built from one plain-text query.

    ``terms`` are every query term (word parts and CJK units, deduplicated, in order);
    ``distinctive`` are the ones searched (non-stopwords, or all terms when the query
    holds only stopwords). ``words`` is the query, ``dates`` the date terms it names,
    ``last_word`` the word that may be half-typed. An empty query has empty terms and
    ``NullQuery``.
    """

    text: str
    terms: tuple[str, ...]
    distinctive: tuple[str, ...]
    words: Query
    dates: tuple[str, ...] = ()
    last_word: str | None = None

    @property
    def is_empty(self) -> bool:
        """True when the text holds no searchable word at all."""
        return not self.terms

    def with_prefix(self) -> Query:
        """``words`` with the last word also matched as a prefix of indexed words."""
        if self.last_word is None:
            return self.words
        return AnyWord([self.words, CappedPrefix(EXACT, self.last_word, boost=PREFIX_BOOST)])


class AnyWord(Or):  # type: ignore[misc]
    """Whoosh's ``Or``, always matched as a tree of unions.

    On an index of under 5,000 documents Whoosh's ``Or`` preloads every match of every
    word into arrays and scores them all; the tree of unions it uses on larger indexes
    skips posting blocks that cannot reach the top hits. On the REALTALK repos (about
    900 entries each) the tree made the 705 recalls 30% faster (4.2 s -> 2.9 s) and
    returned the same hits in the same order.
    """

    matcher_type = Or.DEFAULT_MATCHER


class CappedPrefix(Prefix):  # type: ignore[misc]
    """A prefix that expands to at most ``PREFIX_TERMS`` index terms, the most frequent,
    each scored like the word it completes at ``boost``.

    Whoosh ORs every expanded term into the search; "st" over a large index expands to
    hundreds of terms, each one a posting list read in pure Python. The word as typed
    is left out: the ``exact``/``stem`` clauses beside the prefix already match it.
    Whoosh's own Prefix scores one expansion fully and several as a constant; a
    half-typed "use" completing to "user" would then rank like the word itself.
    """

    def _btexts(self, ixreader: Any) -> list[bytes]:
        typed = self.text.encode("utf-8")
        expanded = [btext for btext in super()._btexts(ixreader) if btext != typed]
        if len(expanded) <= PREFIX_TERMS:
            return expanded
        fieldname = self.fieldname
        frequency = {b: ixreader.doc_frequency(fieldname, b) for b in expanded}
        return sorted(expanded, key=lambda b: -frequency[b])[:PREFIX_TERMS]

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        words = self._btexts(searcher.reader())
        if not words:
            return NullQuery.matcher(searcher, context)
        terms = [Term(self.fieldname, word.decode("utf-8"), boost=self.boost) for word in words]
        return AnyWord(terms).matcher(searcher, context)


def _word(term: str) -> Query:
    """One word part: its lemma's stem in the ``stem`` field (own words and context)."""
    return Term(STEM, stem(term))


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
    """The query's non-stopword terms (all terms if only stopwords), the ones searched.

    Terms are in index form (folded, CJK as bigrams), comparable with
    :func:`memrepo.index.analysis.analyze` of a hit's text.
    """
    return _distinctive(_terms(_capped_groups(text)))


def build_query(text: str, today: date | None = None) -> PlainQuery:
    """Build the query of a plain-text query; never raises. ``today`` resolves relative
    dates ("last month"); without it only the dates the text writes out are asked for."""
    groups = _capped_groups(text)
    terms = _terms(groups)
    if not terms:
        return PlainQuery(text, (), (), NullQuery)
    distinctive = _distinctive(terms)
    words = {part for g in groups for part in g.parts}
    wanted = set(distinctive)
    clauses: list[Query] = [
        _word(term) if term in words else Term(EXACT, term) for term in distinctive
    ]
    for group in groups:
        if group.whole and wanted.intersection(group.parts):
            clauses.append(Term(EXACT, group.whole))
    dates = tuple(query_date_terms(text, today))
    clauses.extend(Term(DATE, term, boost=DATE_BOOST) for term in dates)
    last = groups[-1]
    last_word = None
    if not last.cjk and last.parts and len(last.parts[-1]) >= MIN_PREFIX:
        last_word = last.whole or last.parts[-1]
    return PlainQuery(text, tuple(terms), tuple(distinctive), AnyWord(clauses), dates, last_word)
