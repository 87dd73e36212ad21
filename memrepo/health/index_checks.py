"""Is the search index a faithful projection of HEAD, the working tree and memory_items?

The index catches up lazily on the next recall, so an index that reflects an older
commit is normal (INFO). What is wrong is an index that claims to reflect the current
state but holds a different number of documents than that state has: that fails, and
`memrepo reindex` rebuilds it. Nothing is rebuilt or synced here.
"""

from __future__ import annotations

import json

from memrepo.errors import FormatError
from memrepo.folder.refs import commits_behind
from memrepo.formats import Document, parse
from memrepo.health.grading import graded, plural, skipped
from memrepo.health.readings import HealthContext
from memrepo.index.readonly import IndexFacts, read_index_facts
from memrepo.models.health import HealthCheck
from memrepo.recall import expiry
from memrepo.recall.documents import indexed_path
from memrepo.recall.expiry import ExpiryWatch
from memrepo.recall.projection import ITEMS_KEY, MAIN, WORKTREE_KEY
from memrepo.recall.searcher import INDEX_DIR, INDEX_LANES

_FIX = "memrepo reindex"


#: The lanes the projection fills from the memory repo's own files (team repos have their
#: own clones and are not compared here).
FILE_LANES = ("folder", "swarm")


def _doc_count(doc: Document, watch: ExpiryWatch) -> int:
    """Documents the projection makes of a file: one per distinct entry id with text,
    entries past their `expires:` date left out."""
    return len(
        {
            entry.id
            for entry in doc.entries
            if entry.text and not watch.entry_expired(doc.path, entry.metadata)
        }
    )


def expected_folder_docs(ctx: HealthContext, dirty: set[str]) -> int:
    """Folder and swarm documents of HEAD, files edited in the working tree read there."""
    watch = ExpiryWatch(ctx.now)
    total = sum(
        _doc_count(doc, watch)
        for path, doc in ctx.head_docs.items()
        if indexed_path(path) and path not in dirty
    )
    for path in dirty:
        data = ctx.folder.store.read_worktree(path)
        if data is None:
            continue
        try:
            total += _doc_count(parse(data, path), watch)
        except FormatError:
            continue
    return total


def index_consistency(ctx: HealthContext) -> HealthCheck:
    limit = ctx.limits.index
    facts = read_index_facts(ctx.folder.state_dir / INDEX_DIR, INDEX_LANES)
    if not facts.exists:
        return skipped("index", "no search index yet (the first recall builds it)")
    if facts.problem is not None:
        return HealthCheck(
            name="index",
            status=limit.level,
            detail=f"the index cannot be used: {facts.problem}; the next recall rebuilds it",
            fix=_FIX,
        )
    if (
        facts.reflected.get(MAIN)
        and commits_behind(ctx.folder, facts.reflected[MAIN], ctx.folder.store.main_id()) is None
    ):
        return HealthCheck(
            name="index",
            status=limit.level,
            detail=f"the commit the index reflects ({facts.reflected[MAIN][:10]}) is no longer "
            "in the repo (history rewritten); the next recall re-reads the folder",
            fix=_FIX,
        )
    behind = _behind(ctx, facts)
    if behind is not None:
        return HealthCheck(name="index", status="INFO", detail=behind)
    return _compare_counts(ctx, facts)


def _dirty(ctx: HealthContext) -> set[str]:
    return {p for p in ctx.pending.paths if indexed_path(p)}


def _behind(ctx: HealthContext, facts: IndexFacts) -> str | None:
    """Why the index does not reflect the current state yet (None: it does)."""
    head = ctx.folder.store.main_id()
    reflected = facts.reflected.get(MAIN, "")
    if reflected != head:
        count = commits_behind(ctx.folder, reflected, head)
        gap = (
            f"{plural(count, 'commit')} behind main" if count is not None else "reflects no commit"
        )
        return f"the index is {gap}; the next recall catches up"
    try:
        was_dirty = set(json.loads(facts.reflected.get(WORKTREE_KEY) or "[]"))
    except ValueError:
        was_dirty = set()
    if was_dirty != _dirty(ctx):
        return "uncommitted edits changed since the index was synced; the next recall reads them"
    _pending, come = expiry.split_due(expiry.load(facts.reflected.get(expiry.EXPIRY_KEY)), ctx.now)
    if come:
        return "memory expired since the index was synced; the next recall leaves it out"
    hot = ctx.store.hot_version if ctx.store.present else None
    reflected_items = facts.reflected.get(ITEMS_KEY)
    if hot is not None and reflected_items != str(hot):
        return "memory_items changed since the index was synced; the next recall catches up"
    return None


def _compare_counts(ctx: HealthContext, facts: IndexFacts) -> HealthCheck:
    want_folder = expected_folder_docs(ctx, _dirty(ctx))
    want_items = ctx.store.live
    have_folder = sum(facts.lane_counts.get(lane, 0) for lane in FILE_LANES)
    have_items = facts.lane_counts.get("memory", 0)
    off = abs(have_folder - want_folder) + abs(have_items - want_items)
    return graded(
        "index",
        off,
        ctx.limits.index,
        unit="documents off",
        detail=f"index holds {have_folder} folder and swarm + {have_items} item documents; "
        f"HEAD has {want_folder} unexpired entries, the store {want_items} active unexpired "
        "items",
        fix=_FIX,
    )
