"""When two differently worded entries say the same thing.

Similarity is the Jaccard index of word unigrams plus adjacent-word bigrams, over
casefolded words without a few function words and without a plural `s`. Bigrams keep
word order in play: "use pnpm not npm" and "use npm not pnpm" share every word but no
bigram (0.4).

Three hard guards come first, because a near-duplicate merge must never change a fact:
the numbers must be the same ("port 8080" is not "port 8081"), so must the negations
("is stable" is not "is not stable"), and no word may be swapped for another: when both
texts have a word the other lacks ("deploys on Friday" / "deploys on Thursday"), they
state different values, however long the shared part. A near duplicate is a rewording
(the same words in another order or inflection) or one line adding words to the other.

The thresholds are justified on the labelled pairs in tests/dreaming/test_similarity.py:
`NEAR` is the lowest value (in steps of 0.05) with no false merge on that set; 0.05 lower
merges "Ana reviews frontend changes" into "... and backend changes" (0.7), losing a fact.
`SAME_SUBJECT` is lower because both lines already claim to hold the one value of a
subject, so one replaces the other anyway; the guards still apply.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

NEAR = 0.75
SAME_SUBJECT = 0.5

_WORD = re.compile(r"\w+", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
#: The numbers of a text in order (`numbers` sorts them).
find_numbers = _NUMBER.findall
_STOP = frozenset([
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "to", "of", "in", "on", "at",
    "for", "and", "or", "with", "by", "from", "as", "it", "its", "this", "that", "these",
    "those", "we", "our", "they", "their", "he", "she", "his", "her", "you", "your", "i", "my",
    "me",
])  # fmt: skip
_NEGATIONS = frozenset([
    "not", "no", "never", "none", "nothing", "nobody", "without", "cannot", "can't", "don't",
    "doesn't", "isn't", "aren't", "won't", "shouldn't", "mustn't", "nicht", "kein", "keine",
    "nie", "ne", "pas", "jamais",
])  # fmt: skip
_NEGATION = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(sorted(map(re.escape, _NEGATIONS), key=len, reverse=True))
    + r")(?![\w'])"
)


def tokens(text: str) -> list[str]:
    """Casefolded words without function words or a plural `s` (negations are kept)."""
    return [_stem(w) for w in _WORD.findall(text.casefold()) if w not in _STOP]


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def shingles(text: str) -> frozenset[str]:
    """Unigrams and adjacent bigrams of `tokens`."""
    words = tokens(text)
    grams = set(words)
    grams.update(map(" ".join, itertools.pairwise(words)))
    return frozenset(grams)


def guard(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """What must be equal for two texts to be the same fact: numbers and negations."""
    folded = text.casefold()
    return numbers(folded), negations(folded)


def numbers(folded: str) -> tuple[str, ...]:
    """The numbers of a casefolded text, sorted (the cheap half of the guard, so a pass
    can split thousands of texts by it before looking for negations)."""
    found = find_numbers(folded)
    if len(found) > 1:
        found.sort()
    return tuple(found)


def negations(folded: str) -> frozenset[str]:
    """The negation words of a casefolded text."""
    return frozenset(_NEGATION.findall(folded))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


@dataclass(frozen=True, slots=True)
class Shape:
    """What the comparison needs of one text, computed once per entry."""

    grams: frozenset[str]
    words: frozenset[str]
    guard: tuple[tuple[str, ...], frozenset[str]]


def shape(text: str, checked: tuple[tuple[str, ...], frozenset[str]] | None = None) -> Shape:
    """The text's shape; `checked` is its guard when the caller already has it."""
    words = tokens(text)
    grams = set(words)
    grams.update(map(" ".join, itertools.pairwise(words)))
    return Shape(frozenset(grams), frozenset(words), checked or guard(text))


def compare(a: Shape, b: Shape) -> float:
    """0..1; 0 whenever a guard fails (other numbers or negations, a swapped word)."""
    if a.guard != b.guard:
        return 0.0
    if a.words - b.words and b.words - a.words:
        return 0.0
    return jaccard(a.grams, b.grams)


def similarity(a: str, b: str) -> float:
    """`compare` for two texts."""
    return compare(shape(a), shape(b))


def threshold(same_subject: bool) -> float:
    return SAME_SUBJECT if same_subject else NEAR


def same_fact(a: str, b: str, *, same_subject: bool = False) -> bool:
    """The decision the near-duplicate pass makes for one pair."""
    return similarity(a, b) >= threshold(same_subject)


def word_sets(norms: Sequence[str]) -> list[tuple[frozenset[str], int]]:
    """For many normalized texts at once (`Fact.norm`: casefolded, whitespace collapsed):
    each one's `shape(...).words`, and a bound on its number of grams (its words and one
    bigram per adjacent pair of them, repeats counted). The near-duplicate pass needs
    this of every entry but the whole shape of few; each distinct word is stemmed once.
    """
    found = list(map(_WORD.findall, norms))
    canon = {word: "" if word in _STOP else _stem(word) for word in set().union(*found)}
    result: list[tuple[frozenset[str], int]] = []
    for words in found:
        kept = list(map(canon.__getitem__, words))
        content = len(kept) - kept.count("")
        unique = frozenset(kept) - _NOTHING
        result.append((unique, len(unique) + max(content - 1, 0)))
    return result


_NOTHING = frozenset([""])


def has_negation(text: str) -> bool:
    """Whether a text holds a negation word (`negations` is not empty): for many texts
    joined by spaces, whether any of them does."""
    return _NEGATION.search(text) is not None
