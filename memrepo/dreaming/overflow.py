"""MEMORY.md over its L0 budget: the least-used entries move to topic files.

MEMORY.md is in every session's prompt (L0, 600 tokens, estimated as characters / 4
like the rest of memrepo). memrepo does not count uses of folder entries, so "least
used" is read from the file itself: an agent's entry before a person's, then the oldest
`added` first (undated lines count as oldest). Each goes to `topics/<kind>.md` (or
`topics/notes.md`), one move per entry so a reviewer can keep any of them; a new topic
file is linked from the Index, whose line is counted against the budget too.
"""

from __future__ import annotations

import math

from memrepo.dreaming.ops import make_op
from memrepo.dreaming.snapshot import ENTRY_POINT, Fact, Snapshot
from memrepo.folder.paths import link_target, slugify
from memrepo.hygiene import redact_secrets
from memrepo.models.dream import Op

L0_BUDGET_TOKENS = 600


def estimate_tokens(text: str) -> int:
    """About four characters per token (the estimate recall and context use)."""
    return max(1, math.ceil(len(text) / 4))


def find_overflow(
    snap: Snapshot, claimed: set[tuple[str, int]], budget: int = L0_BUDGET_TOKENS
) -> list[Op]:
    """Move ops until MEMORY.md's estimate fits `budget` (or nothing movable is left)."""
    data = snap.files.get(ENTRY_POINT)
    if data is None:
        return []
    chars = len(data.decode("utf-8", "replace"))
    if math.ceil(chars / 4) <= budget:
        return []
    movable = [f for f in snap.facts if f.path == ENTRY_POINT and f.key not in claimed]
    movable.sort(key=lambda f: (f.by == "user", f.added, f.order))
    new_files: set[str] = set()
    ops: list[Op] = []
    for fact in movable:
        if math.ceil(chars / 4) <= budget:
            break
        dest = _destination(fact)
        chars -= len(fact.raw) + 1
        if dest not in snap.files and dest not in new_files:
            new_files.add(dest)
            chars += len(f"- [[{link_target(dest)}]]") + 1
        claimed.add(fact.key)
        ops.append(
            make_op(
                "move",
                "overflow",
                ENTRY_POINT,
                f"MEMORY.md is over its {budget}-token budget; this is among its least-used "
                f"entries (by {fact.by}, added {fact.added or 'unknown'})",
                targets=[fact],
                dest=dest,
            )
        )
    return ops


def _destination(fact: Fact) -> str:
    kind = fact.metadata.get("kind", "").strip()
    # A person wrote the kind: a secret in it must not become a file name.
    return f"topics/{slugify(redact_secrets(kind)[0]) if kind else 'notes'}.md"
