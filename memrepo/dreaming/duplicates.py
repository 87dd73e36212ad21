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

from collections import defaultdict
from collections.abc import Sequence

from memrepo.dreaming import similarity
from memrepo.dreaming.ops import best_by_trust, describe, make_op, merged_line
from memrepo.dreaming.snapshot import Fact, Snapshot
from memrepo.formats import normalize_text
from memrepo.models.dream import Op, PassName


def find_exact(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per group of exact duplicates."""
    groups: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for fact in snap.facts:
        if fact.key in claimed:
            continue
        norm = normalize_text(fact.entry.text)
        if norm:
            groups[(fact.group, fact.subject, norm)].append(fact)
    ops: list[Op] = []
    for facts in groups.values():
        if len(facts) > 1:
            ops.append(_merge(facts[0], facts[1:], "duplicates", "the same text"))
            claimed.update(f.key for f in facts)
    return ops


def find_near(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per cluster of near duplicates (always for review)."""
    facts = [f for f in snap.facts if f.key not in claimed and f.entry.text.strip()]
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
    """Union-find over accepted pairs. Blocks first: a pair must share its visibility
    group and its guard (numbers, negations), so only facts in one block are compared,
    and within a block only those sharing a prefix gram."""
    guards = [similarity.guard(f.entry.text) for f in facts]
    blocks: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for i, fact in enumerate(facts):
        blocks[(fact.group, guards[i])].append(i)
    shapes = {
        i: similarity.shape(facts[i].entry.text, guards[i])
        for members in blocks.values()
        if len(members) > 1
        for i in members
    }
    parent = list(range(len(facts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for members in blocks.values():
        if len(members) < 2:
            continue
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
    for i, fact in enumerate(facts):
        clusters[root(i)].append(fact)
    return [c for c in clusters.values() if len(c) > 1]


def _accept(a: Fact, b: Fact, shape_a: similarity.Shape, shape_b: similarity.Shape) -> bool:
    if not compatible(a, b):
        return False
    same_subject = bool(a.subject) and a.subject == b.subject
    return similarity.compare(shape_a, shape_b) >= similarity.threshold(same_subject)
