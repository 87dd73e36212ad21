"""The meaning lane's switch: on, off and what it holds (issue #29, docs/architecture.md
§6). Local config, never pushed; with the lane off nothing of `memrepo.meaning` is
imported by a recall, and `meaning_status` reads only the config and the folder's size."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from memrepo.config import MeaningSettings, save_config
from memrepo.engine.core import Area, RepoParts
from memrepo.errors import MeaningError, MeaningExtraMissing
from memrepo.models.recall import MeaningStatus

MEANING_DIR = "meaning"


class MeaningApi(Area):
    """Switch the meaning lane of this memory root and say what it holds."""

    def meaning_on(
        self, model: str | None = None, progress: Callable[[int], None] | None = None
    ) -> MeaningStatus:
        """Switch the lane on with `model` (a fastembed model name, a local folder, or
        None: the one it had, else the default) and embed what the index holds: every
        line once, with progress; interrupted, what was embedded is kept and the next
        `meaning_on` embeds the rest. A model that cannot be loaded is one
        `ModelUnavailable`, and nothing is switched."""
        try:
            from memrepo.meaning.service import chosen_model, embedder_for
        except ImportError as exc:
            raise MeaningExtraMissing(exc.name or "numpy") from exc
        spec = chosen_model(model or self.config.meaning.model)
        embedder_for(spec)
        self._save(MeaningSettings(enabled=True, model=spec))
        self.parts.plug_meaning()
        self.parts.searcher.reindex(progress)
        return self.meaning_status()

    def meaning_off(self, *, delete_vectors: bool = False) -> MeaningStatus:
        """Switch the lane off: recall answers by words alone and loads nothing of it.
        The vectors stay (switching it on again embeds only what changed) unless
        `delete_vectors`."""
        self._save(self.config.meaning.model_copy(update={"enabled": False}))
        self.parts.plug_meaning()
        if delete_vectors:
            shutil.rmtree(self.folder.state_dir / MEANING_DIR, ignore_errors=True)
        return self.meaning_status()

    def meaning_status(self) -> MeaningStatus:
        """Whether the lane is on, its model, how many entries and items have a vector
        and how many wait for one, and the disk its vectors take."""
        return meaning_status(self.parts)

    def _save(self, settings: MeaningSettings) -> None:
        self.config.meaning = settings
        save_config(self.folder.state_dir, self.config)


def meaning_status(parts: RepoParts, *, catch_up: bool = True) -> MeaningStatus:
    """The lane's status (`MemoryRepo.meaning_status`); `catch_up=False` counts against
    the index as last committed, writing nothing (`memrepo health`)."""
    settings = parts.config.meaning
    status = MeaningStatus(
        enabled=settings.enabled,
        model=settings.model,
        vectors_bytes=_vectors_bytes(parts.folder.state_dir / MEANING_DIR),
    )
    if not settings.enabled:
        return status
    try:
        from memrepo.meaning.service import MeaningPart
    except ImportError as exc:
        return status.model_copy(update={"problem": str(MeaningExtraMissing(exc.name or ""))})
    part = parts.searcher.meaning
    if not isinstance(part, MeaningPart):
        return status
    try:
        counts = part.counts(parts.searcher.index_refs(catch_up=catch_up))
    except MeaningError as exc:
        return status.model_copy(update={"problem": str(exc)})
    return status.model_copy(update={"embedded": counts.embedded, "waiting": counts.waiting})


def _vectors_bytes(folder: Path) -> int:
    if not folder.is_dir():
        return 0
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
