"""Subjects holding several values: a contradiction, resolved by trust, then recency.

A `subject` names a single-valued fact ("deploy-day"), so two different values for it in
the files one session reads disagree. The winner is the most trusted statement (a
person's over an import's over an agent's), then the newest; the others are proposed for
removal. Resolving a contradiction is always a review change.
"""

from __future__ import annotations

from collections import defaultdict

from memrepo.dreaming.ops import best_by_trust, describe, make_op
from memrepo.dreaming.snapshot import Fact, Snapshot
from memrepo.models.dream import Op


def find_contradictions(snap: Snapshot, claimed: set[tuple[str, int]]) -> list[Op]:
    """One remove op per subject with several values, naming the value kept."""
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in snap.with_subject:
        if fact.key not in claimed:
            groups[(fact.group, fact.subject)].append(fact)
    ops: list[Op] = []
    for (_group, subject), facts in groups.items():
        if len({f.norm for f in facts}) < 2:
            continue
        kept = best_by_trust(facts)
        losers = [f for f in facts if f is not kept]
        claimed.update(f.key for f in facts)
        ops.append(
            make_op(
                "remove",
                "subjects",
                losers[0].path,
                f"subject {subject!r} holds {len(facts)} values; keeping {describe(kept)}, "
                "the most trusted, then newest",
                targets=losers,
                sources=[kept.handle],
            )
        )
    return ops
