"""L0, the standing memory of every turn, read from the folder and memory_items, cached.

Folder part: the entries of MEMORY.md (a bullet a person appended below its Index too),
the Index itself (each linked
path with the `description` of that file's frontmatter) and the entries of the
workspace's file. Files people edited without committing are read from the working
tree, as recall reads them. What the agent saved on its own is L1 only, in the folder as
in memory_items (reference §4a): a `by: agent` line stays out of L0 until a person
confirms it (`memrepo confirm REF`, which makes it `by: user`, or an edit that removes
`by: agent`), and a `tainted: yes` line (written after the agent read untrusted
content) never enters L0 whoever wrote it. Both are still recalled into L1 when a turn
asks about them. Item part: active global and workspace items that are
pinned, stated or confirmed by the user, curated, identity / rule / commitment facts,
or named preferences. What the agent inferred on its own (or a third party said) stays
out whatever its kind, until someone pins, states or confirms it (`MemoryRepo.confirm`):
one web page the agent read must not plant a standing rule. A tainted item stays out
until confirmed (which clears the taint) or pinned. Expired entries and items are left
out.

Reading all that costs file reads, YAML and a query; a turn costs none of it while the
hot-memory version stands: main's commit, the working-tree edits (path, size, mtime),
the item store's hot version and the date (for expiry). Any write moves one of them.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.errors import FormatError, StoreError
from memrepo.folder.paths import link_target, resolve_link
from memrepo.folder.repo import MemoryFolder, make_ref
from memrepo.formats import Document, Entry, parse
from memrepo.items.due import due_date
from memrepo.layout import ENTRY_POINT, workspace_file
from memrepo.models.items import EXPLICIT_SOURCES, ItemFilters, MemoryItem
from memrepo.models.prompt_context import ContextLine
from memrepo.recall.context_lines import SourceLine, context_lines, dedupe
from memrepo.recall.oversized import is_too_large
from memrepo.routing import BY_TO_SOURCE

if TYPE_CHECKING:
    from memrepo.stores import MemoryStores

#: Kinds that are standing rules or facts about who the user is.
STANDING_KINDS = frozenset({"identity", "rule", "commitment"})
UNTRUSTED = frozenset({"inferred", "third_party"})
CACHE_SIZE = 32
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class L0Key:
    """What L0 depends on besides the stored memory: the reader and the gate."""

    workspace: str | None
    folder: bool
    items: bool
    private: bool
    #: The workspace's own private items (strict privacy mode) without the others.
    workspace_private: bool = False


def standing(item: MemoryItem) -> bool:
    """True when an item belongs in every prompt (see the module docstring)."""
    if item.pinned:
        return True
    if item.source in UNTRUSTED:
        return False
    if item.tainted:
        return False  # written after untrusted input: a standing line only once confirmed
    if item.source in EXPLICIT_SOURCES or item.kind in STANDING_KINDS:
        return True
    return item.kind == "preference" and not item.derived_subject


def standing_entry(metadata: dict[str, str]) -> bool:
    """True when a folder line may stand in every prompt: not the agent's own unconfirmed
    line (`by: agent`) and not tainted. A line without `by` is a person's."""
    if metadata.get("tainted", "").strip().casefold() == "yes":
        return False
    return metadata.get("by", "user").strip().casefold() != "agent"


def standing_line(line: ContextLine) -> bool:
    """True when a line from another L0 source (a team repo) may stand in every prompt:
    pinned, or neither an inference nor third-party text nor tainted."""
    if line.pinned:
        return True
    return line.trust not in UNTRUSTED and "tainted" not in line.tags


class L0Cache:
    """L0 lines per reader, rebuilt only when the hot-memory version moves.

    `builds` counts rebuilds, so a test (or a curious host) can see that turns without
    writes reuse the cache.
    """

    def __init__(self, repo: MemoryStores) -> None:
        self.repo = repo
        self.builds = 0
        self._cache: OrderedDict[L0Key, tuple[object, list[ContextLine]]] = OrderedDict()
        self._lock = threading.Lock()

    def lines(self, key: L0Key, errors: dict[str, str]) -> tuple[list[ContextLine], bool]:
        """The L0 lines for `key` and whether they came from the cache; a store that
        cannot be read is reported in `errors` (and that answer is not cached)."""
        folder_version, dirty = self._folder_version() if key.folder else (None, set())
        version: tuple[object, ...] = (folder_version, self._today())
        if key.items:
            try:
                version += (self.repo.items.hot_version,)
            except StoreError as exc:
                errors["memory_items"] = str(exc)
                return self._build(key, dirty, errors), False
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] == version:
                self._cache.move_to_end(key)
                return hit[1], True
        built = self._build(key, dirty, errors)
        if not errors:
            with self._lock:
                self._cache[key] = (version, built)
                self._cache.move_to_end(key)
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
        return built, False

    def _today(self) -> str:
        return self.repo.folder.clock.now().date().isoformat()

    def _folder_version(self) -> tuple[object, set[str]]:
        store = self.repo.folder.store
        pending = store.pending_edits()
        dirty = {*pending.modified, *pending.added, *pending.deleted}
        stamps = tuple(sorted((path, _stamp(self.repo.root / path)) for path in dirty))
        return (store.main_id(), stamps), dirty

    def _build(self, key: L0Key, dirty: set[str], errors: dict[str, str]) -> list[ContextLine]:
        self.builds += 1
        raw: list[SourceLine] = []
        today = self._today()
        if key.folder:
            raw += FolderReader(self.repo.folder, dirty).l0_lines(key.workspace, today)
        if key.items and "memory_items" not in errors:
            try:
                raw += item_lines(self.repo, key, self.repo.folder.clock.now())
            except StoreError as exc:
                errors["memory_items"] = str(exc)
        return dedupe(context_lines(raw))


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class FolderReader:
    """Reads memory files as a person sees them: HEAD, or the working tree when edited."""

    def __init__(self, folder: MemoryFolder, dirty: set[str]) -> None:
        self.folder = folder
        self.dirty = dirty

    def read(self, path: str) -> bytes | None:
        if path in self.dirty:
            return self.folder.store.read_worktree(path)
        return self.folder.store.read(path)

    def document(self, path: str) -> Document | None:
        data = self.read(path)
        if data is None or is_too_large(data):
            return None  # too large: recall and health say so; L0 stays within budget
        try:
            return parse(data, path)
        except FormatError:
            return None  # lint reports it; the rest of L0 stays

    def l0_lines(self, workspace: str | None, today: str) -> list[SourceLine]:
        lines: list[SourceLine] = []
        root = self.document(ENTRY_POINT)
        if root is not None:
            # Every entry, also a bullet a person appended below the Index (theirs: it
            # stands as the ones above do until `lint --fix` moves it up).
            lines += entry_lines(ENTRY_POINT, root.entries, today)
            lines += [self.index_line(link.target) for link in root.index_links]
        if workspace:
            path = workspace_file(workspace)
            own = self.document(path)
            if own is not None:
                lines += entry_lines(path, own.entries, today)
        return lines

    def index_line(self, target: str) -> SourceLine:
        path = resolve_link(target)
        description = self.description(path)
        text = f"{link_target(path)}: {description}" if description else link_target(path)
        return SourceLine(ref="", text=text, origin="index", trust="user_stated", section="index")

    def description(self, path: str) -> str:
        data = self.read(path) if path.endswith(".md") else None
        if data is None or not data.startswith(b"---"):
            return ""  # no frontmatter: skip the parse (and YAML) entirely
        try:
            header = parse(data, path).frontmatter
        except FormatError:
            return ""
        value = header.data.get("description") if header is not None else None
        return value.strip() if isinstance(value, str) else ""


def entry_lines(path: str, entries: list[Entry], today: str) -> list[SourceLine]:
    """Folder entries as standing lines: expired ones, the agent's own unconfirmed lines
    and tainted lines left out (see the module docstring)."""
    lines: list[SourceLine] = []
    for entry in entries:
        meta = entry.metadata
        expires = meta.get("expires", "")
        if _DATE.match(expires) and expires < today:
            continue
        if not standing_entry(meta):
            continue
        lines.append(
            SourceLine(
                ref=make_ref(path, entry.id),
                text=entry.text,
                origin="folder",
                trust=BY_TO_SOURCE.get(meta.get("by", "user"), "inferred"),
                tainted=meta.get("tainted", "").casefold() == "yes",
                added=meta.get("added", ""),
                subject=meta.get("subject", ""),
                due=meta.get("due", ""),
            )
        )
    return lines


def item_lines(repo: MemoryStores, key: L0Key, now: datetime) -> list[SourceLine]:
    """Standing items of the global scope and of the reader's workspace."""
    store = repo.items.store
    found = store.list(ItemFilters(scope="global", include_private=key.private))
    if key.workspace:
        own_private = key.private or key.workspace_private
        found += store.list(
            ItemFilters(scope="workspace", workspace_id=key.workspace, include_private=own_private)
        )
    return [
        SourceLine(
            ref=item.ref,
            text=item.content,
            origin="memory",
            trust=item.source,
            tainted=item.tainted,
            pinned=item.pinned,
            added=item.updated_at.isoformat(),
            subject="" if item.derived_subject else item.subject_key,
            due=_due(item),
        )
        for item in found
        if item.workspace_id in (None, key.workspace)
        and standing(item)
        and (item.expires_at is None or item.expires_at > now)
    ]


def _due(item: MemoryItem) -> str:
    """A commitment's due day, "" for anything else."""
    day = due_date(item)
    return day.isoformat() if day is not None else ""
