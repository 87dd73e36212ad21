"""Exact and near-duplicate entries, merged into one line that keeps every source.

Exact: the same normalized text (casefold, collapsed whitespace, metadata stripped) in
one visibility group and under the same subject (or none). The copy kept is the first in
file order (MEMORY.md first), and the merged line carries every `source` (as `sources`),
the earliest `added` and the highest `by`.

Near: a pair of facts in one group that `similarity.same_fact` accepts, where either
both carry the same subject or at most one carries any: entries about different subjects
are never merged, however alike they read. Only the pairs an inverted index of each
entry's rarest words yields are compared (`candidates`): all the pairs the rule can
accept, and few others, so the pass stays near linear on many thousand entries.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations, compress
from operator import attrgetter

from memrepo.dreaming import similarity
from memrepo.dreaming.candidates import Words, candidate_pairs
from memrepo.dreaming.ops import best_by_trust, describe, make_op, merged_line
from memrepo.dreaming.snapshot import Fact, Snapshot
from memrepo.models.dream import Op, PassName

#: What two texts must share to be one fact: their numbers and their negations.
Guard = tuple[tuple[str, ...], frozenset[str]]

_NORM = attrgetter("norm")
#: Blocks this small are compared pair by pair (most blocks: numbers tell facts apart).
_ALL_PAIRS_UP_TO = 8
#: `_digit_runs`' byte map: ASCII digits kept, "\n" (the separator) to "|", all else " ".
_DIGITS_AND_SEPARATOR = bytes(
    byte if ord("0") <= byte <= ord("9") else ord("|") if byte == ord("\n") else ord(" ")
    for byte in range(256)
)


def find_exact(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per group of exact duplicates."""
    # Nearly every text is unique: count them (a pass in C) and walk only the facts whose
    # text repeats (`compress` picks them in C too, keeping file order).
    norms = list(map(_NORM, snap.facts))
    seen = Counter(norms)
    repeated = {norm for norm, n in seen.items() if n > 1 and norm}
    groups: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for fact in compress(snap.facts, map(repeated.__contains__, norms)):
        if fact.key not in claimed:
            groups[(fact.group, fact.subject, fact.norm)].append(fact)
    ops: list[Op] = []
    for facts in groups.values():
        if len(facts) > 1:
            ops.append(_merge(facts[0], facts[1:], "duplicates", "the same text"))
            claimed.update(f.key for f in facts)
    return ops


def find_near(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One merge op per cluster of near duplicates (always for review)."""
    ops: list[Op] = []
    for cluster in _clusters(snap.facts, _blocks(snap.facts, claimed)):
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
        targets=[kept, *others],
        text=merged_line(kept, others),
        sources=[f.handle for f in (kept, *others)],
    )


def compatible(a: Fact, b: Fact) -> bool:
    """Same group, and never two different subjects."""
    if a.group != b.group:
        return False
    return not (a.subject and b.subject and a.subject != b.subject)


def _clusters(facts: Sequence[Fact], blocks: list[tuple[Guard, list[int]]]) -> list[list[Fact]]:
    """Union-find over accepted pairs. Only facts in one block are compared (see
    `_blocks`), and within a block only the pairs `_candidates` finds; only the facts in
    such a pair have their whole shape worked out."""
    parent = list(range(len(facts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    compared: list[int] = []
    for checked, members in blocks:
        compared += members
        shapes: dict[int, similarity.Shape] = {}
        for i, j in _candidates(facts, members):
            for k in (i, j):
                if k not in shapes:
                    shapes[k] = similarity.shape(facts[k].text, checked)
            if _accept(facts[i], facts[j], shapes[i], shapes[j]):
                parent[root(i)] = root(j)
    clusters: dict[int, list[Fact]] = defaultdict(list)
    for i in sorted(compared):
        clusters[root(i)].append(facts[i])
    return [c for c in clusters.values() if len(c) > 1]


def _candidates(facts: Sequence[Fact], members: list[int]) -> set[tuple[int, int]]:
    """Every pair of one block the rule may accept (`candidates.candidate_pairs`): at
    `similarity.NEAR` over the block, and at the lower `SAME_SUBJECT` bar among the
    facts sharing a subject. A block of a few facts is compared pair by pair: that is
    cheaper than its index. The clusters do not depend on the order of this set."""
    if len(members) <= _ALL_PAIRS_UP_TO:
        return set(combinations(members, 2))
    norms = [facts[i].norm for i in members]
    words = dict(zip(members, similarity.word_sets(norms), strict=True))
    pairs = candidate_pairs(words, similarity.NEAR)
    by_subject: dict[str, dict[int, Words]] = defaultdict(dict)
    for i in members:
        if facts[i].subject:
            by_subject[facts[i].subject][i] = words[i]
    for same in by_subject.values():
        if len(same) > 1:
            pairs |= candidate_pairs(same, similarity.SAME_SUBJECT)
    return pairs


def _blocks(facts: Sequence[Fact], claimed: set[tuple[str, int]]) -> list[tuple[Guard, list[int]]]:
    """The facts (by index) that may be near duplicates, unclaimed and with a text: the
    same visibility group and the same guard (numbers, then negations).

    Numbers split first because they nearly always tell facts apart, but reading them
    with a regular expression entry by entry cost more than the rest of the pass. So
    facts are first told apart by their digit runs (`_digit_runs`, in C over all texts),
    which two texts with the same numbers always share; only the facts sharing their
    runs with another have their numbers read. Negations are looked for only in what is
    left.
    """
    runs = _digit_runs(list(map(_NORM, facts)))
    seen = Counter(runs)
    repeated = {run for run, n in seen.items() if n > 1}
    by_numbers: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(list)
    for i in compress(range(len(facts)), map(repeated.__contains__, runs)):
        fact = facts[i]
        if fact.norm and fact.key not in claimed:
            # No ASCII digit and nothing but ASCII: no number at all, no regex needed.
            plain = runs[i] == b"\t" and fact.norm.isascii()
            by_numbers[(fact.group, () if plain else similarity.numbers(fact.norm))].append(i)
    blocks: list[tuple[Guard, list[int]]] = []
    for (_group, numbers), members in by_numbers.items():
        if len(members) < 2:
            continue
        if not similarity.has_negation(" ".join([facts[i].norm for i in members])):
            blocks.append(((numbers, frozenset()), members))
            continue
        by_negations: dict[frozenset[str], list[int]] = defaultdict(list)
        for i in members:
            by_negations[similarity.negations(facts[i].norm)].append(i)
        blocks += [((numbers, neg), same) for neg, same in by_negations.items() if len(same) > 1]
    return blocks


def _digit_runs(norms: list[str]) -> list[bytes]:
    r"""Per text, its runs of ASCII digits, sorted: a key that two texts with the same
    `similarity.numbers` always share (each run lies whole inside one number, so the
    numbers fix the runs), found for all texts at once by str and bytes methods in C.

    The texts are joined around "\n" (never inside a normalized text: its whitespace is
    collapsed) and encoded; every byte but an ASCII digit becomes a space and the
    separator a "|". Splitting that at whitespace leaves digit runs and separators;
    joined with tabs and split at "|", it gives one key per text: b"\t" without digits,
    b"\t8080\t" with one run. Only keys of several runs are sorted here, in Python. A
    key shared by texts with other numbers (non-ASCII digits, "1.2" and "1 2") costs a
    closer look in `_blocks`, never a wrong block.
    """
    data = " \n ".join(["", *norms, ""]).encode("utf-8", "surrogatepass")
    runs = b"\t".join(data.translate(_DIGITS_AND_SEPARATOR).split()).split(b"|")[1:-1]
    if len(runs) != len(norms):  # a text with a line break after all: one by one
        return [_digit_runs([" ".join(norm.split())])[0] for norm in norms]
    return [run if run.count(b"\t") < 3 else b"\t".join(sorted(run.split(b"\t"))) for run in runs]


def _accept(a: Fact, b: Fact, shape_a: similarity.Shape, shape_b: similarity.Shape) -> bool:
    """The rule for one pair; a text of function words alone is never merged (it holds
    nothing to compare, and `compare` rates two empty texts alike)."""
    if not shape_a.words or not shape_b.words or not compatible(a, b):
        return False
    same_subject = bool(a.subject) and a.subject == b.subject
    return similarity.compare(shape_a, shape_b) >= similarity.threshold(same_subject)
