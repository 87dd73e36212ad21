"""The one owner of prompt budgets: the token estimate, the limits, and the cut.

Token estimate (documented because budgets are only as honest as it is): one token per
CJK / kana / hangul / full-width character, and one token per four characters of
everything else, rounded up: ``wide + ceil((len(text) - wide) / 4)``; "" is 0 tokens.
Tokenizers of the common models give English about four characters a token and spend
roughly one token (often more) on each ideograph, so the estimate is near for English and
does not undercount Chinese, Japanese or Korean the way ``len / 4`` alone would.

A line costs its rendered text plus its ref in the block's ref list. The block's own
frame (tag, header, "refs:") is not charged to the budget: it is the same few tokens on
every turn and the budget is about memory.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from memrepo.models.items import PERSON_SOURCES
from memrepo.models.prompt_context import BlockName, ContextBudgets, ContextLine, Surface

_WIDE = re.compile(
    "[\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
    "\U00020000-\U0003ffff]"
)


def estimate_tokens(text: str) -> int:
    """The token estimate of the module docstring."""
    wide = 0 if text.isascii() else len(_WIDE.findall(text))
    return wide + math.ceil((len(text) - wide) / 4)


def keep_rank(line: ContextLine) -> int:
    """0 for what the user stated or pinned, 1 for other facts, 2 for Index links (they
    only point at files recall can reach anyway)."""
    if line.section == "index":
        return 2
    return 0 if line.pinned or line.trust in PERSON_SOURCES else 1


class ContextBudget:
    """How many tokens each block may take, and which lines stay when it is full."""

    def __init__(self, budgets: ContextBudgets) -> None:
        self.budgets = budgets

    def limit(self, block: BlockName, surface: Surface) -> int:
        """The token budget of `block` on `surface` (L1 is compact except in plan steps)."""
        if block == "l0":
            return self.budgets.l0_tokens
        if block == "swarm":
            return self.budgets.swarm_tokens
        if surface == "plan_step":
            return self.budgets.l1_plan_step_tokens
        return self.budgets.l1_compact_tokens

    def fit(self, lines: Sequence[ContextLine], limit: int) -> tuple[list[ContextLine], int]:
        """The lines that fit in `limit` tokens, in their original order, and how many
        were left out. User-stated and pinned lines are taken first, then the newest;
        a line too big for what is left is skipped and smaller ones may still fit."""
        order = sorted(range(len(lines)), key=lambda i: lines[i].added, reverse=True)
        order.sort(key=lambda i: keep_rank(lines[i]))  # stable: newest first within a rank
        kept: set[int] = set()
        used = 0
        for i in order:
            if used + lines[i].tokens <= limit:
                kept.add(i)
                used += lines[i].tokens
        return [line for i, line in enumerate(lines) if i in kept], len(lines) - len(kept)
