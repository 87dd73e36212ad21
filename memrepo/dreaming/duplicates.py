"""Exact and near-duplicate entries, merged into one line that keeps every source.

Exact: the same normalized text (casefold, collapsed whitespace, metadata stripped) in
one visibility group and under the same subject (or none). The copy kept is the first in
file order (MEMORY.md first), and the merged line carries every `source` (as `sources`),
the earliest `added` and the highest `by`.

Near: a pair of facts in one group that `similarity.same_fact` accepts, where either
both carry the same subject or at most one carries any: entries about different subjects
are never merged, however alike they read. Candidate pairs come from prefix filtering
(see `similarity.prefix`), so the pass stays near linear on thousands of entries.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from memrepo.dreaming import similarity
from memrepo.dreaming.ops import best_by_trust, describe, make_op, merged_line
from memrepo.dreaming.snapshot import Fact, Snapshot
from memrepo.models.dream import Op, PassName

#: What two texts must share to be one fact: their numbers and their negations.
Guard = tuple[tuple[str, ...], frozenset[str]]


def find_exact(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per group of exact duplicates."""
    # Nearly every text is unique: count them first (a pass in C), group only repeats.
    seen = Counter(fact.norm for fact in snap.facts)
    groups: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for fact in snap.facts:
        if seen[fact.norm] > 1 and fact.norm and fact.key not in claimed:
            groups[(fact.group, fact.subject, fact.norm)].append(fact)
    ops: list[Op] = []
    for facts in groups.values():
        if len(facts) > 1:
            ops.append(_merge(facts[0], facts[1:], "duplicates", "the same text"))
            claimed.update(f.key for f in facts)
    return ops


def find_near(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per cluster of near duplicates (always for review)."""
    facts = [f for f in snap.facts if f.norm and (f.path, f.line_no) not in claimed]
    ops: list[Op] = []
    for cluster in _clusters(facts):
        kept = best_by_trust(cluster)
        others = [f for f in cluster if f is not kept]
        ops.append(_merge(kept, others, "near_duplicates", "nearly the same text"))
        claimed.update(f.key for f in cluster)
    return ops


def _merge(kept: Fact, others: Sequence[Fact], found_by: PassName, how: str) -> Op:
    names = "; ".join(describe(f) for f in others)
    return make_op(
        "merge",
        found_by,
        kept.path,
        f"{how} as {names}; kept {describe(kept)} with every source",
        targets=[kept.ref, *(f.ref for f in others)],
        text=merged_line(kept, others),
        sources=[f.handle for f in (kept, *others)],
    )


def compatible(a: Fact, b: Fact) -> bool:
    """Same group, and never two different subjects."""
    if a.group != b.group:
        return False
    return not (a.subject and b.subject and a.subject != b.subject)


def _clusters(facts: Sequence[Fact]) -> list[list[Fact]]:
    """Union-find over accepted pairs. Only facts in one block are compared (see
    `_blocks`), and within a block only those sharing a prefix gram."""
    parent = list(range(len(facts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    compared: list[int] = []
    for checked, members in _blocks(facts):
        compared += members
        shapes = {i: similarity.shape(facts[i].text, checked) for i in members}
        frequency = similarity.count(shapes[i].grams for i in members)
        index: dict[str, list[int]] = defaultdict(list)
        for i in members:
            candidates: set[int] = set()
            for gram in similarity.prefix(shapes[i].grams, frequency, similarity.SAME_SUBJECT):
                candidates.update(index[gram])
                index[gram].append(i)
            for j in candidates:
                if _accept(facts[i], facts[j], shapes[i], shapes[j]):
                    parent[root(i)] = root(j)
    clusters: dict[int, list[Fact]] = defaultdict(list)
    for i in sorted(compared):
        clusters[root(i)].append(facts[i])
    return [c for c in clusters.values() if len(c) > 1]


def _blocks(facts: Sequence[Fact]) -> list[tuple[Guard, list[int]]]:
    """Facts that may be near duplicates: the same visibility group and the same guard
    (numbers, then negations). Numbers split first because they are cheap to find and
    nearly always tell facts apart; negations are looked for only in what is left."""
    keys = [(f.group, numbers) for f, numbers in zip(facts, _numbers(facts), strict=True)]
    seen = Counter(keys)
    by_numbers: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        if seen[key] > 1:
            by_numbers[key].append(i)
    blocks: list[tuple[Guard, list[int]]] = []
    for (_group, numbers), members in by_numbers.items():
        if len(members) < 2:
            continue
        by_negations: dict[frozenset[str], list[int]] = defaultdict(list)
        for i in members:
            by_negations[similarity.negations(facts[i].norm)].append(i)
        blocks += [((numbers, neg), same) for neg, same in by_negations.items() if len(same) > 1]
    return blocks


def _numbers(facts: Sequence[Fact]) -> list[tuple[str, ...]]:
    """`similarity.numbers` of every fact, as one `map` (this runs over every entry)."""
    found = list(map(similarity.find_numbers, [f.norm for f in facts]))
    for numbers in found:
        if len(numbers) > 1:
            numbers.sort()
    return list(map(tuple, found))


def _accept(a: Fact, b: Fact, shape_a: similarity.Shape, shape_b: similarity.Shape) -> bool:
    if not compatible(a, b):
        return False
    same_subject = bool(a.subject) and a.subject == b.subject
    return similarity.compare(shape_a, shape_b) >= similarity.threshold(same_subject)
