"""The pairs of entries the near-duplicate pass compares: found through an inverted index
of each entry's rarest words, so that no pair the rule accepts is missed and a dream
over many entries compares few pairs rather than all of them.

Why the index finds every accepted pair. `similarity.compare` accepts two texts only
when neither holds a word the other lacks while the other holds one it lacks: the words
of one (A) are a subset of the other's (B). So B holds A's rarest word `w`. Order every
word by rarity (the number of entries holding it, then the word). The words of B rarer
than `w` are words A lacks: there are at most `e = |B| - |A|` of them, and the threshold
bounds `e`, because those `e` words are grams of B that A lacks, so the Jaccard index of
the grams is at most `1 - e / |grams(B)|`; it reaches `t` only if `e <= (1 - t) *
|grams(B)|`. `w` is therefore among the first `floor((1 - t) * |grams(B)|) + 1` words of
B by rarity: B's prefix. Each entry is indexed under the words of its prefix; A looks up
only the entries indexed under its own rarest word, and keeps those holding every other
word of A as well (intersecting the postings of each word, rarest first). Every pair
found that way still goes through the rule; nothing the rule accepts is left out, so the
clusters are those the comparison of all pairs gives: no pair is missed by construction
(tests/dreaming/test_candidates.py checks it on fixtures and generated texts). The proof
leans on the swapped-word veto of `compare`: a rule that merged two texts each holding
a word the other lacks would need another index.

Why few pairs are compared. A word most entries hold ranks last in every entry, so it is
in the prefix of short entries only, and a probe reaches its postings only after rarer
words have narrowed the set: a template's fixed words cost nothing. What a probe keeps is
the entries holding all of its words, so it comes down to itself unless another entry
states as much. Probes share work like the prefix tree of a set-containment join
(PRETTI, Jampani and Pudi 2005): entries are visited in the order of their rarity-sorted
words, and each intersection is made once for all entries starting with the same words,
so ten thousand entries filling one template's slots cost a few intersections per slot
value. What stays proportional to a square is real: entries whose words contain one
another's (one fact restated many times over) are compared pair by pair, as they are
candidates for one merge.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping

Pair = tuple[int, int]
#: An entry's words (`similarity.Shape.words`) and a bound on its number of grams.
Words = tuple[frozenset[str], int]


def candidate_pairs(entries: Mapping[int, Words], threshold: float) -> set[Pair]:
    """The pairs (lower id first) of `entries` that `similarity.compare` may rate at or
    above `threshold`: every such pair, and few others (see the module docstring).
    Entries without words are never paired (they hold nothing to compare)."""
    frequency = Counter(itertools.chain.from_iterable(words for words, _ in entries.values()))
    by_rarity = sorted(frequency, key=lambda word: (frequency[word], word))
    rank = {word: n for n, word in enumerate(by_rarity)}
    holding: list[set[int]] = [set() for _ in by_rarity]  # rank -> entries holding it
    indexed: list[set[int]] = [set() for _ in by_rarity]  # rank -> in an entry's prefix
    ranked: list[tuple[list[int], int]] = []
    for i, (words, grams) in entries.items():
        if not words:
            continue
        ranks = sorted(map(rank.__getitem__, words))
        ranked.append((ranks, i))
        for r in ranks:
            holding[r].add(i)
        for r in ranks[: _prefix_length(grams, threshold)]:
            indexed[r].add(i)
    ranked.sort()
    pairs: set[Pair] = set()
    # The path of the prefix tree walked so far: (word rank, the entries it leaves). An
    # entry that is alone on it stops it: no entry after it starts with its words.
    path: list[tuple[int, set[int]]] = []
    for ranks, i in ranked:
        depth = 0
        while depth < len(path) and depth < len(ranks) and path[depth][0] == ranks[depth]:
            depth += 1
        del path[depth:]
        left = path[-1][1] if path else None
        for r in ranks[depth:]:
            # A set intersection walks the smaller set: once few entries are left, a
            # common word's long postings cost nothing.
            left = left & holding[r] if left is not None else indexed[r]
            path.append((r, left))
            if len(left) == 1:
                break
        if left is not None and len(path) == len(ranks) and len(left) > 1:
            pairs.update((min(i, j), max(i, j)) for j in left if j != i)
    return pairs


def _prefix_length(grams: int, threshold: float) -> int:
    """How many of an entry's rarest words it is indexed under: one more than the words
    another entry's rarest word may follow (`floor((1 - t) * grams) + 1`)."""
    return int((1.0 - threshold) * grams + 1e-9) + 1
