# ruff: noqa: RUF001, RUF002, RUF003 - this module is about look-alike letters (ı, σ, ...)
"""How text becomes index terms: Unicode words, folding, CJK split, optional stemming.

One pure function, :func:`split_groups`, cuts text into *groups*; the Whoosh tokenizer
(for indexing) and the query builder (for searching) both use it, so a query can only ask
for terms the index holds.

Steps, in order:

1. Sanitize: lone surrogates and control characters become spaces (a Python ``str`` may
   hold ``"\\ud800"``; Whoosh could not encode it as UTF-8).
2. NFKC: full-width forms, ligatures and superscripts become their plain letters.
3. Words: a word is a run of letters, digits and combining marks in any script (Latin,
   Cyrillic, Greek, Arabic, Hebrew, CJK, ...). Runs joined by a connector without spaces
   (``- . _ / : @ + # '``) form a *compound*: ``postgres-16``, ``v1.2.3``, ``AKS-42``,
   ``alice@example.com``. A compound is indexed as written *and* by its parts, so
   ``v1.2.3`` finds it exactly and ``postgres`` finds ``postgres-16``.
4. Casefold (``str.casefold``): ``ß`` becomes ``ss``, final ``ς`` becomes ``σ``. Casefold
   is not Turkish-aware: ``İ`` (dotted capital) folds to ``i`` + U+0307 COMBINING DOT
   ABOVE, ``I`` folds to ``i``, and ``ı`` (dotless small) is left alone. Step 5 removes the
   combining dot and maps ``ı`` to ``i``, so ``İstanbul``, ``istanbul``, ``ISTANBUL`` and
   ``ıstanbul`` all index as ``istanbul``: a search is forgiving about Turkish i, at the
   price of not telling the Turkish words *kır* and *kir* apart.
5. Latin accent folding: combining marks on a Latin letter are dropped (``café`` ->
   ``cafe``, ``Müller`` -> ``muller``) and the letters without a decomposition are mapped
   (``ø`` -> ``o``, ``æ`` -> ``ae``, ``ł`` -> ``l``, ...). Marks on other scripts are kept:
   Cyrillic ``й`` stays ``й`` and Greek ``ά`` stays ``ά``.
6. CJK (Han, Kana, Hangul): a run is indexed as single characters *and* overlapping
   bigrams, so ``東京都庁`` holds ``東``, ``京``, ``都``, ``庁``, ``東京``, ``京都``,
   ``都庁``. Queries ask for the bigrams (or the single character of a one-character run).
7. The ``stem`` field adds English (Snowball/Porter2) stemming of alphabetic ASCII words,
   after irregular forms are mapped to their lemma (``went`` -> ``go``, ``children`` ->
   ``child``: :mod:`memrepo.index.lemmas`); it holds no compounds and no CJK units (the
   ``exact`` field answers those).

A field value may be a :class:`FieldText`: the entry's own words plus weighted segments
(its neighbours, heading, description). Each term's weight is the sum of its segments'
weights, so Whoosh's BM25F scores own words and context in one field, the context counting
less (two fields would sum two BM25 scores, which is not BM25F: see
``../shared/research/recall.md``).

Nothing is ever dropped as a stopword here: stopwords are a query-time matter
(:mod:`memrepo.index.stopwords`), so "May", "us" and "yet" stay findable.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memrepo.index._marks import MARKS
from memrepo.index.lemmas import lemma
from memrepo.index.whoosh_door import Token, Tokenizer, stemmer_for_language

__all__ = [
    "ExactAnalyzer",
    "FieldText",
    "Group",
    "StemAnalyzer",
    "analyze",
    "fold",
    "sanitize",
    "split_groups",
    "stem",
]

MAX_TERM_CHARS = 128
"""Longer parts are cut and longer compounds are not indexed whole (base64 blobs, URLs)."""

# Snowball English (Porter2): Whoosh's older `porter.stem` turns "running" into "runn".
_english_stem = stemmer_for_language("en")

_CONNECTORS = "-._/:@+#'\u2019"


_WORD = rf"(?:[^\W_]|[{MARKS}])+"
_COMPOUND = re.compile(rf"{_WORD}(?:[{re.escape(_CONNECTORS)}]{_WORD})*")
_CONNECTOR_SPLIT = re.compile(rf"[{re.escape(_CONNECTORS)}]")
_CJK = re.compile(
    "([\u1100-\u11ff\u3005-\u3007\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+)"
)
# Surrogates (lone ones cannot be encoded) and C0/C1 controls.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

# Latin letters with no canonical decomposition; the rest fold by dropping marks.
_LATIN_EXTRA = str.maketrans(
    {
        "ı": "i",
        "ø": "o",
        "æ": "ae",
        "œ": "oe",
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "ħ": "h",
        "ŧ": "t",
        "ŀ": "l",
        "ĸ": "q",
    }
)


def _is_latin(char: str) -> bool:
    code = ord(char)
    return code < 0x250 or 0x1E00 <= code < 0x1F00 or 0x2C60 <= code < 0x2C80


def sanitize(text: str) -> str:
    """Replace lone surrogates and control characters with spaces; NFKC the rest."""
    text = _UNSAFE.sub(" ", text)
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


@lru_cache(maxsize=65536)
def _fold_non_ascii(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.casefold())
    kept: list[str] = []
    base = ""
    for char in decomposed:
        if unicodedata.combining(char) or unicodedata.category(char).startswith("M"):
            if base and _is_latin(base):
                continue
        else:
            base = char
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept).translate(_LATIN_EXTRA))


def fold(word: str) -> str:
    """Casefold and Latin-accent-fold one word (see the module docstring, steps 4-5)."""
    if word.isascii():
        return word.lower()
    return _fold_non_ascii(word)


@lru_cache(maxsize=65536)
def stem(term: str) -> str:
    """The English stem of a folded term's lemma; non-alphabetic or non-ASCII terms are kept."""
    if term.isascii() and term.isalpha():
        return str(_english_stem(lemma(term)))
    return term


class FieldText(str):
    """A field value of weighted parts: ``str`` is the whole text (what a plain analyzer
    would see); ``segments`` are (text, weight) pairs the memrepo tokenizer weights.

    A ``str`` subclass because Whoosh hands field values to the analyzer untouched.
    """

    segments: tuple[tuple[str, float], ...]

    def __new__(cls, segments: tuple[tuple[str, float], ...]) -> FieldText:
        value = super().__new__(cls, " ".join(text for text, _weight in segments))
        value.segments = segments
        return value


@dataclass(frozen=True, slots=True)
class Group:
    """One compound (or plain word) of the text, already folded.

    ``whole`` is the compound as written ("v1.2.3"), empty for a single word. ``parts``
    are its words; ``cjk`` holds the CJK runs inside it, each as one string.
    """

    whole: str
    parts: tuple[str, ...]
    cjk: tuple[str, ...]


def split_groups(text: str) -> Iterator[Group]:
    """Cut ``text`` into folded groups (the one tokenization every field and query uses)."""
    if text.isascii():
        return _ascii_groups(text)
    return _general_groups(text)


def _general_groups(text: str) -> Iterator[Group]:
    """Any text: the steps of the module docstring, one compound at a time."""
    for match in _COMPOUND.finditer(sanitize(text)):
        raw = match.group()
        parts: list[str] = []
        cjk: list[str] = []
        for word in _CONNECTOR_SPLIT.split(raw):
            for index, piece in enumerate(_CJK.split(word)):
                if not piece:
                    continue
                if index % 2:
                    cjk.append(piece)
                    continue
                folded = fold(piece)[:MAX_TERM_CHARS]
                if any(char.isalnum() for char in folded):
                    parts.append(folded)
        whole = ""
        if len(parts) > 1 and not cjk and len(raw) <= MAX_TERM_CHARS:
            whole = fold(raw)
        if parts or cjk:
            yield Group(whole, tuple(parts), tuple(cjk))


# ASCII text (most memory lines) takes a shorter road to the same groups: a word is
# [A-Za-z0-9]+ (what ``[^\W_]`` matches there; no marks, no CJK), controls separate
# words as the spaces `sanitize` would put there do, and folding is ``str.lower``, so
# the text is lowered once. A word without a connector is alphanumeric, one ``isalnum``.
_ASCII_CONNECTORS = "".join(c for c in _CONNECTORS if c.isascii())
_ASCII_COMPOUND = re.compile(rf"[A-Za-z0-9]+(?:[{re.escape(_ASCII_CONNECTORS)}][A-Za-z0-9]+)*")
_ASCII_SPLIT = re.compile(rf"[{re.escape(_ASCII_CONNECTORS)}]")


def _ascii_groups(text: str) -> Iterator[Group]:
    for raw in _ASCII_COMPOUND.findall(text.lower()):
        if raw.isalnum():
            yield Group("", (raw[:MAX_TERM_CHARS],), ())
            continue
        parts = tuple(part[:MAX_TERM_CHARS] for part in _ASCII_SPLIT.split(raw))
        yield Group(raw if len(raw) <= MAX_TERM_CHARS else "", parts, ())


def cjk_units(run: str) -> list[str]:
    """Index units of a CJK run: every character, then every overlapping bigram."""
    return list(run) + [run[i : i + 2] for i in range(len(run) - 1)]


def cjk_query_units(run: str) -> list[str]:
    """Query units of a CJK run: its bigrams, or the character of a one-character run."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def analyze(text: str, *, stemmed: bool = False) -> list[str]:
    """The terms the ``exact`` (or, with ``stemmed``, the ``stem``) field indexes for text."""
    return list(_terms(text, stemmed))


_CACHED_CHARS = 1024
"""Texts up to this long keep their terms (`_kept_terms`): entry lines and the context
an entry lends (at most 600 characters, `memrepo.recall.entry_context`), not a pasted
blob whose terms would sit in the cache."""


def _terms(text: str, stemmed: bool) -> tuple[str, ...]:
    if len(text) <= _CACHED_CHARS:
        return _kept_terms(text, stemmed)
    return _analyzed(text, stemmed)


@lru_cache(maxsize=4096)
def _kept_terms(text: str, stemmed: bool) -> tuple[str, ...]:
    """`analyze`, kept: a rebuild analyzes each entry's words up to six times, as its own
    (both fields) and as the context of the four neighbours beside it."""
    return _analyzed(text, stemmed)


def _analyzed(text: str, stemmed: bool) -> tuple[str, ...]:
    if text.isascii():
        return _ascii_terms(text, stemmed)
    return _general_terms(text, stemmed)


def _general_terms(text: str, stemmed: bool) -> tuple[str, ...]:
    """The terms of any text through the general groups (the ASCII road must match it)."""
    terms: list[str] = []
    for group in _general_groups(text):
        if stemmed:
            terms.extend(stem(part) for part in group.parts)
            continue
        if group.whole:
            terms.append(group.whole)
        terms.extend(group.parts)
        for run in group.cjk:
            terms.extend(cjk_units(run))
    return tuple(terms)


def _ascii_terms(text: str, stemmed: bool) -> tuple[str, ...]:
    """`analyze` of ASCII text, the groups of `_ascii_groups` unrolled into terms."""
    terms: list[str] = []
    for raw in _ASCII_COMPOUND.findall(text.lower()):
        if raw.isalnum():
            terms.append(stem(raw[:MAX_TERM_CHARS]) if stemmed else raw[:MAX_TERM_CHARS])
            continue
        parts = [part[:MAX_TERM_CHARS] for part in _ASCII_SPLIT.split(raw)]
        if stemmed:
            terms.extend(stem(part) for part in parts)
            continue
        if len(raw) <= MAX_TERM_CHARS:
            terms.append(raw)
        terms.extend(parts)
    return tuple(terms)


class _MemrepoTokenizer(Tokenizer):  # type: ignore[misc]
    """A Whoosh tokenizer over :func:`analyze` (one pass, no filter chain).

    Positions count terms; character offsets are not tracked (the fields keep no
    positions, and snippets are made from the stored text).
    """

    stemmed = False

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def weighted(self, value: str) -> Iterator[tuple[str, float]]:
        """Each term of ``value`` with its segment's weight, in order: the tokens this
        tokenizer yields (a rebuild counts them without Whoosh's token objects,
        `memrepo.index._bulk`)."""
        segments = value.segments if isinstance(value, FieldText) else ((value, 1.0),)
        stemmed = self.stemmed
        for text, weight in segments:
            for term in _terms(text, stemmed):
                yield term, weight

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for pos, (term, weight) in enumerate(self.weighted(value), start_pos):
            token.text = term
            token.boost = weight
            token.stopped = False
            if keeporiginal:
                token.original = term
            if positions:
                token.pos = pos
            if chars:
                token.startchar = token.endchar = start_char
            yield token


class ExactAnalyzer(_MemrepoTokenizer):
    """Analyzer of the ``exact`` field: words, compounds and CJK units, no stemming."""


class StemAnalyzer(_MemrepoTokenizer):
    """Analyzer of the ``stem`` field: word parts with English stemming."""

    stemmed = True
