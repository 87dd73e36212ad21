"""The meaning lane switched on for one memory root (issue #29, docs/architecture.md §6).

`MeaningPart` is what a handle's searcher holds when the lane is on (the engine builds
it from the local config; with the lane off nothing of `memrepo.meaning` is imported):

- recall asks it for the lane (`lane(lanes)`), over the index lanes that recall searches
  for this reader, so a lane the context gate shuts (team, swarm) is shut for meaning too;
- the index tells it each document it writes and each commit (`IndexListener`): the
  documents' recipes are noted as they go by and applied after the commit, embedding at
  most `INLINE_LINES` new lines (a `remember` embeds one), so a write never waits for a
  first embed; a rebuild asked for (`eager`: `memrepo reindex`, `memrepo meaning on`)
  embeds them all, with progress, and can be interrupted and resumed;
- what cannot be used (the model, the vector file) is said once per process, as a
  warning, and recall answers by its words alone meanwhile: never a traceback.

The model is loaded once per process (`embedder_for`), on first need, and the vectors are
shared by the handles of the process (`vectorfile_sync.vector_file`).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memrepo.errors import MeaningError, MemrepoError, VectorsDamaged
from memrepo.index import IndexDoc, IndexStore, PlainQuery
from memrepo.meaning.embed import Recipes
from memrepo.meaning.lane import MeaningLane, MeaningSearch
from memrepo.meaning.model import DEFAULT_MODEL, TextEmbedder, load_embedder
from memrepo.meaning.packaged import PACKAGED_MODEL, packaged_model_folder
from memrepo.meaning.vectorfile_sync import VectorFile, vector_file
from memrepo.recall.lanes import LaneHit
from memrepo.recall.visibility import Visibility

#: Lines one write's catch-up embeds at most (about 12 ms each); more wait for an
#: explicit pass, so a rebuild of the index on a recall never turns into a first embed.
INLINE_LINES = 64


class MeaningLaneWarning(UserWarning):
    """The meaning lane cannot be used for now; recall answers by words alone."""


def chosen_model(configured: str | None) -> str:
    """The model a person gets without naming one: all-MiniLM-L6-v2 as the PyPI packages
    of the `meaning` extra ship it (offline, nothing to download), else the same model
    by its fastembed name (downloaded once, to fastembed's cache)."""
    if configured:
        return configured
    try:
        packaged_model_folder()
    except MemrepoError:
        return DEFAULT_MODEL
    return PACKAGED_MODEL


_MODELS: dict[str, TextEmbedder] = {}
_MODELS_LOCK = threading.Lock()


def embedder_for(spec: str) -> TextEmbedder:
    """The model `spec` names, loaded once per process (`ModelUnavailable` if it cannot
    be): `PACKAGED_MODEL` is the packaged folder, anything else `load_embedder`'s."""
    with _MODELS_LOCK:
        found = _MODELS.get(spec)
        if found is None:
            where = str(packaged_model_folder()) if spec == PACKAGED_MODEL else spec
            found = _MODELS[spec] = load_embedder(where)
        return found


@dataclass(frozen=True, slots=True)
class MeaningCounts:
    """What the lane holds: entries with a vector, and those waiting for one."""

    embedded: int
    waiting: int


class MeaningPart:
    """The meaning lane of one handle's searcher (see the module docstring)."""

    def __init__(
        self,
        state_dir: Path,
        spec: str,
        index: Callable[[], IndexStore],
        lock_timeout: float,
    ) -> None:
        self.state_dir = state_dir
        self.spec = spec
        self._index = index
        self._lock_timeout = lock_timeout
        self._pending = Recipes()
        self._gone: list[str] = []
        self._complete = False
        self._eager = False
        self._search: MeaningSearch | None = None

    # -- the parts, on first need --------------------------------------------------------

    def embedder(self) -> TextEmbedder:
        return embedder_for(self.spec)

    def vectors(self) -> VectorFile:
        return vector_file(self.state_dir, self.embedder(), self._lock_timeout)

    # -- recall --------------------------------------------------------------------------

    def lane(self, lanes: Collection[str]) -> GuardedLane | None:
        """The lane over the index lanes `lanes` for one recall; None (said once) when
        the model or the vectors cannot be used."""
        if not lanes:
            return None
        try:
            embedder = self.embedder()
            file = self.vectors()
            file.refresh()
        except MeaningError as exc:
            tell(exc)
            return None
        search = self._search
        if search is None or search.embedder is not embedder:
            search = self._search = MeaningSearch(self._index, file.store, embedder)
        search.vectors = file.store
        return GuardedLane(search.lane(lanes), file)

    # -- the index's listener --------------------------------------------------------------

    def note(self, doc: IndexDoc) -> None:
        self._pending.note(doc)

    def committed(self, gone: Collection[str], *, complete: bool) -> None:
        self._gone.extend(gone)
        if complete:
            self._complete = True
        if not self._eager:  # a rebuild asked for embeds once the index is done
            self.flush()

    def flush(self) -> None:
        """Apply what the index took since the last flush; kept for the next one when
        the vectors are busy (a first embed in another process) or cannot be used."""
        if not (self._pending or self._gone or self._complete):
            return
        try:
            file = self.vectors()
            embedder = self.embedder()
            try:
                report = self._apply(file, embedder)
            except VectorsDamaged:
                if not self._complete:
                    raise
                file.rebuild()  # a complete pass is a rebuild: start from nothing
                report = self._apply(file, embedder)
        except MeaningError as exc:
            tell(exc)
            return
        if report:
            self._pending, self._gone, self._complete = Recipes(), [], False

    def _apply(self, file: VectorFile, embedder: TextEmbedder) -> bool:
        report = file.apply(
            self._pending, embedder, gone=tuple(self._gone), complete=self._complete,
            most=None if self._eager else INLINE_LINES, wait=self._eager,
        )  # fmt: skip
        return report is not None

    @contextmanager
    def eager(self) -> Iterator[None]:
        """Inside: every line the index takes is embedded (a rebuild a person asked
        for), once the index is done (an interrupted embed never leaves the index
        half-built), waiting for the vectors if another process holds them."""
        self._eager = True
        try:
            yield
            self.flush()
        finally:
            self._eager = False

    # -- status ----------------------------------------------------------------------------

    def counts(self, index_refs: Collection[str]) -> MeaningCounts:
        """How many of `index_refs` (the documents the index holds) have a vector."""
        file = self.vectors()
        file.refresh()
        with file.guard:
            waiting = set(file.store.refs_waiting())
            embedded = sum(
                1
                for ref in index_refs
                if ref not in waiting and file.store.entry_parts(ref) is not None
            )
        return MeaningCounts(embedded, len(index_refs) - embedded)


class GuardedLane:
    """A `MeaningLane` whose searches hold the vectors' guard: the handles of a server
    share the vectors, and a write's catch-up may add to them meanwhile."""

    calibrated: Literal[True] = True

    def __init__(self, lane: MeaningLane, file: VectorFile) -> None:
        self.inner = lane
        self.name = lane.name
        self.weight = lane.weight
        self._file = file

    def prepare(self, query: PlainQuery) -> None:
        """The inner lane's head start: the rows are read under the guard, the question
        embedded and multiplied on a worker thread that never takes it."""
        with self._file.guard:
            self.inner.prepare(query)

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        with self._file.guard:
            return self.inner.search(query, visibility, limit)

    def scores(
        self, query: PlainQuery, visibility: Visibility, hits: Sequence[LaneHit]
    ) -> list[float | None]:
        with self._file.guard:
            return self.inner.scores(query, visibility, hits)


_TOLD: set[str] = set()


def tell(exc: MemrepoError) -> None:
    """Say once per process why the lane is not used (recall goes on by words)."""
    text = f"the meaning lane is not used: {exc}; recall answers by words alone"
    if text not in _TOLD:
        _TOLD.add(text)
        warnings.warn(MeaningLaneWarning(text), stacklevel=3)
