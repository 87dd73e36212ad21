"""The recall verbs of `MemoryRepo`: search, expand, the index, prompt context."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from difflib import get_close_matches
from typing import TYPE_CHECKING, TypedDict, Unpack

from memrepo.engine.core import Area
from memrepo.errors import UnknownWorkspace
from memrepo.layout import WORKSPACE_DIR, workspace_slug
from memrepo.models.recall import Detail, RecallHit, RecallResult, ReindexReport

if TYPE_CHECKING:
    from memrepo.models.prompt_context import ContextBlocks, ContextRequest, MemoryUsed
    from memrepo.models.usage import MemoryUse


class ReaderContext(TypedDict, total=False):
    """Who is reading (recall's visibility arguments)."""

    workspace: str | None
    include_private: bool
    contact_ref: str | None
    task_id: str | None
    min_trust: str


class RecallApi(Area):
    """Recall: one ranked answer from every lane, and the memory blocks of a prompt."""

    def recall(
        self,
        query: str,
        *,
        limit: int = 10,
        workspace: str | None = None,
        include_private: bool = False,
        contact_ref: str | None = None,
        task_id: str | None = None,
        min_trust: str = "inferred",
        lanes: Sequence[str] | None = None,
        detail: Detail = "snippet",
        explain: bool = False,
    ) -> RecallResult:
        """Search every lane and fuse them into one ranked answer (docs/architecture.md §6).

        The query is plain text (never search syntax). Only what this reader may see is
        searched: global facts and the active workspace's, task items for `task_id`,
        private items with `include_private`, trust at least `min_trust`, nothing
        expired. `contact_ref` says the reader handles that contact: its items show,
        its private and third-party ones too (reference §4b: the default minimum trust
        leaves third-party text out "unless the surface is handling that contact"), so
        a host passes it only for the user's own agent, never for a group or public
        reply or a sub-agent. Raises RecallFailed when every lane fails. With
        `explain`, every hit says which query words matched its own text, its context,
        its date or its label, and the parts of its score (`Explanation`).
        """
        from memrepo.recall.searcher import visibility_for

        self.parts.follow_meaning_switch()
        visibility = visibility_for(
            workspace=workspace,
            include_private=include_private,
            contact_ref=contact_ref,
            task_id=task_id,
            min_trust=min_trust,
            swarm=self._swarm_audience(task_id),
        )
        return self.parts.searcher.recall(
            query, visibility, limit=limit, lanes=lanes, detail=detail, explain=explain
        )

    def recall_everywhere(
        self,
        query: str,
        *,
        limit: int = 10,
        include_private: bool = False,
        min_trust: str = "inferred",
        detail: Detail = "snippet",
        explain: bool = False,
    ) -> RecallResult:
        """Recall over the whole memory, as a person asks it (issue #31): the facts every
        workspace sees and each workspace's own, asked in turn and merged by score, each
        hit labelled with the workspace it was found in (`RecallHit.workspace`). An
        agent's recall keeps its scope (`recall`): this is for a person's own surfaces."""
        merged: dict[str, RecallHit] = {}
        errors: dict[str, str] = {}
        for workspace in (None, *self.workspaces()):
            result = self.recall(
                query, limit=limit, workspace=workspace, include_private=include_private,
                min_trust=min_trust, detail=detail, explain=explain,
            )  # fmt: skip
            errors.update(result.lane_errors)
            for hit in result.hits:
                if hit.ref not in merged:
                    merged[hit.ref] = hit.model_copy(update={"workspace": workspace})
        ranked = sorted(merged.values(), key=lambda hit: -hit.score)[:limit]
        best = ranked[0].score if ranked and ranked[0].score > 0 else 1.0
        hits = tuple(hit.model_copy(update={"relevance": hit.score / best}) for hit in ranked)
        return RecallResult(query=query, hits=hits, lane_errors=errors)

    def workspaces(self) -> list[str]:
        """Every workspace this memory knows (by slug): a workspace file, an item's
        workspace, or settings a person made."""
        folder = self.root / WORKSPACE_DIR
        names = {path.stem for path in folder.glob("*.md")} if folder.is_dir() else set()
        names.update(self.items.store.workspaces())
        names.update(self.config.workspaces)
        return sorted(names)

    def known_workspace(self, name: str) -> str:
        """`name`'s slug when this memory knows that workspace; else UnknownWorkspace
        naming the nearest known names (a misspelt `--workspace` finds nothing)."""
        slug = workspace_slug(name) or ""
        known = self.workspaces()
        if slug in known:
            return slug
        raise UnknownWorkspace(name, get_close_matches(slug, known, n=3, cutoff=0.5), known)

    def expand(self, refs: Sequence[str], **reader: Unpack[ReaderContext]) -> list[RecallHit]:
        """The full text of `refs` under the same visibility as recall (hidden: absent);
        `reader` takes recall's workspace, include_private, contact_ref, task_id and
        min_trust."""
        from memrepo.recall.searcher import visibility_for

        swarm = self._swarm_audience(reader.get("task_id"))
        whole = [self.whole_ref(ref) for ref in refs]
        return self.parts.searcher.expand(whole, visibility_for(swarm=swarm, **reader))

    def _swarm_audience(self, task_id: str | None) -> str | None:
        # Only a task can be in a swarm: a reader without one never loads the swarms.
        return self.parts.swarms.audience(task_id) if task_id else None

    def mark_used(self, refs: Sequence[str], agent: str | None = None) -> None:
        """Record that these memories were put in a prompt or quoted, and by which agent
        (the host's name for itself): recall ranks items on it, the Hub shows it."""
        self.items.mark_used(refs, agent)

    def last_uses(self, ref: str | None = None) -> dict[str, MemoryUse]:
        """Who last put each memory (or only `ref`) in a prompt or quoted it, and when:
        the newest use of the last 90 days, by ref."""
        return self.items.store.last_uses(ref)

    def reindex(self, progress: Callable[[int], None] | None = None) -> ReindexReport:
        """Rebuild the whole index from git and memory_items; `progress` hears the
        running document count every 1,000 documents."""
        return self.parts.searcher.reindex(progress)

    def context(self, request: ContextRequest) -> ContextBlocks:
        """The memory blocks of one prompt turn: gated, budgeted, sanitized
        (docs/architecture.md §7).

        A task inside a swarm gets the swarm layer without the host naming the swarm:
        the task's parent chain says which one it is (never the caller)."""
        self.parts.follow_meaning_switch()
        if request.swarm is None and request.task_id:
            swarm = self.parts.swarms.audience(request.task_id)
            if swarm is not None:
                request = request.model_copy(update={"swarm": swarm})
        return self.parts.context_builder.build(request)

    def on_memory_used(self, listener: Callable[[MemoryUsed], None]) -> Callable[[], None]:
        """Hear the refs each surface injected, once per turn and again when they
        change (attribution); returns a function that stops it."""
        return self.parts.context_builder.on_memory_used(listener)
