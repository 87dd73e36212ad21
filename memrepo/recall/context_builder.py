"""Prompt context for one turn (docs/architecture.md §7): the gate, L0, L1, extra sources,
one budget.

`ContextBuilder.build(request)`:

1. asks the gate (`memrepo.recall.gate`) which layers may carry memory, unless the host
   passes its own decision;
2. L0: the cached standing memory (`memrepo.recall.context_l0`) plus team-layer sources,
   deduplicated and cut to the L0 budget;
3. L1: recall for the query with the reader's visibility (private items only when the
   gate allows them), minus what L0 carries, cut to the surface's budget;
4. the `<swarm>` block from swarm-layer sources, minus what L0 and L1 carry;
5. renders each non-empty block, then reports the injected refs to `memory_used`
   listeners once per turn and again when the set changes, marking the injected items
   used. A preview (a person looking) reports and marks nothing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from memrepo.errors import RecallFailed, StoreError
from memrepo.layout import ITEM_REF_PREFIX, workspace_slug
from memrepo.models.prompt_context import (
    BlockName,
    ContextBlock,
    ContextBlocks,
    ContextBudgets,
    ContextLine,
    ContextRequest,
    InjectionDecision,
    InjectionInputs,
    MemoryUsed,
    Surface,
)
from memrepo.models.recall import RecallHit
from memrepo.recall.context_budget import ContextBudget
from memrepo.recall.context_l0 import L0Cache, L0Key, standing_line
from memrepo.recall.context_lines import (
    ContextSource,
    ExtraLayer,
    SourceLine,
    context_lines,
    dedupe,
    without,
)
from memrepo.recall.context_render import render_block
from memrepo.recall.gate import resolve_memory_injection
from memrepo.recall.visibility import Visibility
from memrepo.stores import MemoryStores

if TYPE_CHECKING:
    from memrepo.recall.searcher import Searcher

MemoryUsedListener = Callable[[MemoryUsed], None]
#: Turns remembered for `memory_used` (one per task and surface; the oldest go first).
TURNS_KEPT = 256
_HASH_ID = re.compile(r"^[0-9a-f]{10}$")
_log = logging.getLogger(__name__)


class ContextParts(MemoryStores, Protocol):
    """What the builder reads: the stores, and the searcher for the recalled layer."""

    @property
    def searcher(self) -> Searcher: ...


class ContextBuilder:
    """Builds the memory blocks of a prompt for one memory root (one per `MemoryRepo`)."""

    def __init__(
        self,
        repo: ContextParts,
        budgets: ContextBudgets | None = None,
        sources: Iterable[ContextSource] = (),
    ) -> None:
        self.repo = repo
        self.budgets = budgets
        self.l0 = L0Cache(repo)
        self._sources: list[ContextSource] = list(sources)
        self._listeners: list[MemoryUsedListener] = []
        #: (task, surface) -> (turn, refs) last reported.
        self._turns: OrderedDict[tuple[str | None, str], tuple[str | None, tuple[str, ...]]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    @property
    def budget(self) -> ContextBudget:
        """The budget owner: the limits given to the builder, else the local config's."""
        return ContextBudget(self.budgets or self.repo.config.context)

    # --- seams --------------------------------------------------------------------------

    def add_source(self, source: ContextSource) -> Callable[[], None]:
        """Plug in extra context (team repos, a swarm); returns a function that removes it."""
        with self._lock:
            self._sources.append(source)

        def remove() -> None:
            with self._lock:
                if source in self._sources:
                    self._sources.remove(source)

        return remove

    def on_memory_used(self, listener: MemoryUsedListener) -> Callable[[], None]:
        """Hear `{surface, refs}` once per turn and again when the set changes."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    # --- building -----------------------------------------------------------------------

    def decide(self, request: ContextRequest) -> InjectionDecision:
        """The gate's decision for `request`, with the workspace's settings."""
        if request.decision is not None:
            return request.decision
        settings = self.repo.config.workspace(workspace_slug(request.workspace))
        return resolve_memory_injection(
            InjectionInputs(
                retain_memory=request.retain_memory,
                is_subagent=request.is_subagent,
                gateway=request.gateway,
                allow_shared_context_memory=request.allow_shared_context_memory,
                workspace_enabled=settings.enabled,
                workspace_privacy=settings.privacy,
                want_private=request.include_private,
                task_text=request.task_text,
                current_message=request.query,
                has_swarm=bool(request.swarm),
                has_contact=bool(request.contact_ref),
                has_task=bool(request.task_id),
            )
        )

    def build(self, request: ContextRequest) -> ContextBlocks:
        """Every memory block of the turn; `text` is exactly what goes into the prompt."""
        decision = self.decide(request)
        budget = self.budget
        errors: dict[str, str] = {}
        key = L0Key(
            workspace_slug(request.workspace),
            decision.folder_l0,
            decision.items_l0,
            decision.private_items,
            decision.workspace_private,
        )
        standing, cached = self.l0.lines(key, errors) if key.folder or key.items else ([], True)
        team = [line for line in self._extra("team", request, decision) if standing_line(line)]
        l0 = dedupe([*standing, *team])
        surface = request.surface
        blocks = [_block(budget, "l0", l0, surface)]
        if decision.recall_l1 and request.query.strip():
            recalled = self._recall(request, decision, budget.budgets.l1_hits, errors)
            fresh = without(dedupe(recalled), blocks[0].lines)
            blocks.append(_block(budget, "l1", fresh, surface))
        swarm = self._extra("swarm", request, decision)
        if swarm:
            carried = [line for block in blocks for line in block.lines]
            blocks.append(_block(budget, "swarm", without(dedupe(swarm), carried), surface))
        shown = tuple(block for block in blocks if block.lines)
        refs = tuple(dict.fromkeys(ref for block in shown for ref in block.refs))
        if not request.preview:
            self._report(request, refs, errors)
        return ContextBlocks(
            surface=request.surface,
            query=request.query,
            decision=decision,
            blocks=shown,
            refs=refs,
            tokens=sum(block.tokens for block in shown),
            text="\n\n".join(block.text for block in shown),
            l0_cached=cached,
            errors=errors,
        )

    def _extra(
        self, layer: ExtraLayer, request: ContextRequest, decision: InjectionDecision
    ) -> list[ContextLine]:
        if not decision.allows(layer):
            return []
        with self._lock:
            sources = [source for source in self._sources if source.layer == layer]
        return context_lines(line for source in sources for line in source.lines(request, decision))

    def _recall(
        self,
        request: ContextRequest,
        decision: InjectionDecision,
        hits: int,
        errors: dict[str, str],
    ) -> list[ContextLine]:
        """Recall hits as lines; a recall that fails in every lane is reported in
        `errors` (the turn keeps its L0) rather than read as "nothing remembered"."""
        shut = {"folder": decision.folder_l0, "team": decision.team, "swarm": decision.swarm}
        lanes = None
        if not all(shut.values()):
            names = [lane.name for lane in self.repo.searcher.lanes(None)]
            lanes = [name for name in names if shut.get(name, True)]
        try:
            result = self.repo.searcher.recall(
                request.query,
                reader_visibility(request, decision),
                limit=hits,
                lanes=lanes,
                detail="snippet",
            )
        except RecallFailed as exc:
            errors["recall"] = str(exc)
            return []
        errors.update({f"recall:{lane}": why for lane, why in result.lane_errors.items()})
        return context_lines(self._hit_line(hit) for hit in result.hits)

    def _hit_line(self, hit: RecallHit) -> SourceLine:
        trust = hit.provenance.trust or "inferred"
        line = SourceLine(
            ref=hit.ref,
            text=hit.text,
            origin=hit.lane,
            trust=trust,
            tainted=hit.tainted,
            added=hit.provenance.added or "",
            subject=_folder_subject(hit.ref),
            due=hit.provenance.due or "",
        )
        if not hit.ref.startswith(ITEM_REF_PREFIX):
            return line
        detail = self.repo.items.store.get(hit.ref.removeprefix(ITEM_REF_PREFIX))
        if detail is None:
            return line
        item = detail.item
        subject = "" if item.derived_subject else item.subject_key
        return SourceLine(
            ref=hit.ref,
            text=hit.text,
            origin=hit.lane,
            trust=item.source,
            tainted=item.tainted,
            pinned=item.pinned,
            added=item.updated_at.isoformat(),
            subject=subject,
            due=hit.provenance.due or "",
        )

    # --- attribution ----------------------------------------------------------------------

    def _report(
        self, request: ContextRequest, refs: tuple[str, ...], errors: dict[str, str]
    ) -> None:
        """Tell the listeners and mark what was injected used, by the request's agent; a
        store too busy to record use is
        reported in `errors`: the prompt is built and the turn goes on."""
        key = (request.task_id, request.surface)
        with self._lock:
            previous = self._turns.get(key)
            new_turn = request.turn is None or previous is None or previous[0] != request.turn
            changed = bool(refs) if new_turn else previous is not None and refs != previous[1]
            self._turns[key] = (request.turn, refs)
            self._turns.move_to_end(key)
            while len(self._turns) > TURNS_KEPT:
                self._turns.popitem(last=False)
            listeners = list(self._listeners)
        if not changed:
            return
        try:
            self.repo.items.mark_used(refs, request.agent)
        except StoreError as exc:
            errors["mark_used"] = str(exc)
        event = MemoryUsed(
            surface=request.surface,
            refs=refs,
            task_id=request.task_id,
            turn=request.turn,
            agent=request.agent,
        )
        for listener in listeners:
            try:
                listener(event)
            except Exception:
                # The prompt is built; one broken listener must not fail the turn or
                # starve the others. It is logged, not hidden.
                _log.exception("memory_used listener %r failed", listener)


def reader_visibility(request: ContextRequest, decision: InjectionDecision) -> Visibility:
    """What L1 recall may see this turn: the gate's item rules (reference §4a) made
    into recall's visibility. The handled contact and the active task count only where
    the gate allows them (never in a group or public reply; a contact never for a
    sub-agent); the swarm comes from the request (its task's parent chain)."""
    return Visibility(
        workspace=workspace_slug(request.workspace),
        include_private=decision.private_items,
        contact_ref=request.contact_ref if decision.contact_items else None,
        task_id=request.task_id if decision.task_items else None,
        swarm=request.swarm if decision.swarm else None,
        workspace_private=decision.workspace_private,
    )


def _block(
    budget: ContextBudget, name: BlockName, lines: Sequence[ContextLine], surface: Surface
) -> ContextBlock:
    limit = budget.limit(name, surface)
    kept, dropped = budget.fit(lines, limit)
    return render_block(name, kept, budget=limit, dropped=dropped)


def _folder_subject(ref: str) -> str:
    """The subject a folder, team or swarm ref names (`...#subject`); "" for a text-hash
    id (ten hex digits) and for item refs, which do not carry their subject."""
    if ref.startswith(ITEM_REF_PREFIX) or "#" not in ref:
        return ""
    entry_id = ref.rsplit("#", 1)[1]
    return "" if _HASH_ID.match(entry_id) else entry_id
