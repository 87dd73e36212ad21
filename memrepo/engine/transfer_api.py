"""The transfer verbs of `MemoryRepo`: export, restore, import (memrepo.transfer)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from memrepo.models.transfer import (
        ExportFormat,
        ExportResult,
        ImportFormat,
        ImportReport,
    )
    from memrepo.transfer.crypto import KdfParams


class TransferApi(Area):
    """Transfer: the whole memory in one file and back, and other agents' memories in."""

    def export(
        self,
        path: str | Path,
        *,
        encrypt: bool = False,
        include_private: bool = False,
        force: bool = False,
        format: ExportFormat = "bundle",
        passphrase: str | None = None,
        kdf: KdfParams | None = None,
    ) -> ExportResult:
        """The whole memory in one file: a git bundle with full history, memory_items rows
        and the local config (never credentials); `format="jsonl"` writes flat facts.
        `encrypt` seals it with AES-256-GCM under a scrypt key from `passphrase`, else
        $MEMREPO_PASSPHRASE, else a terminal prompt. Private items need `encrypt`."""
        from memrepo.transfer.export import export_repo

        return export_repo(
            self.parts, path, encrypt=encrypt, include_private=include_private, force=force,
            format=format, passphrase=passphrase, kdf=kdf,
        )  # fmt: skip

    def import_memory(
        self,
        path: str | Path,
        *,
        source: ImportFormat,
        dry_run: bool = False,
        progress: Callable[[int], None] | None = None,
        workspace: str | None = None,
    ) -> ImportReport:
        """Import another agent's memory (claude-code, letta, mem0, openmemory or jsonl)
        through the normal screening and routing, as one commit; importing the same
        input again adds nothing, and a changed fact supersedes its old text. Facts
        without a workspace of their own go to `workspace` when given. `progress` hears
        the running row count every 1,000 rows. The report counts every row read as
        written, already known or skipped (by reason); `dry_run` counts the same."""
        from memrepo.transfer.importing import import_memory

        return import_memory(
            self.parts, source, path, dry_run=dry_run, progress=progress, workspace=workspace
        )
