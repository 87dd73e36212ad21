"""MemoryRepo: the one object per memory root that every face (CLI, tools, MCP) calls.

It runs the write pipeline of DESIGN §3: screening (hygiene), choosing the target file
and its metadata here, then handing one entry to the folder, which owns git.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from memrepo.clock import Clock, Identity
from memrepo.config import LocalConfig
from memrepo.errors import EntryNotFound, InvalidArgument, InvalidUtf8
from memrepo.folder.lint import lint_folder
from memrepo.folder.paths import normalize_target, slugify
from memrepo.folder.repo import ENTRY_POINT, EntryWrite, MemoryFolder
from memrepo.hygiene import redact_secrets, screen
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    LintReport,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)

BY_VALUES = ("user", "agent", "dream", "import")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class MemoryRepo:
    """A memory root: remember, forget, undo, log, entries, status, lint."""

    def __init__(self, folder: MemoryFolder) -> None:
        self.folder = folder

    @classmethod
    def init(
        cls,
        path: str | Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
    ) -> MemoryRepo:
        """Create a memory repo at `path` (or adopt an existing git repo without one)."""
        return cls(MemoryFolder.init(Path(path), identity=identity, clock=clock, config=config))

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
    ) -> MemoryRepo:
        """Open an existing memory repo; NotAMemoryRepo says why when it is not one."""
        return cls(MemoryFolder.open(Path(path), identity=identity, clock=clock, config=config))

    @property
    def root(self) -> Path:
        return self.folder.root

    def remember(
        self,
        text: str,
        *,
        file: str | None = None,
        workspace: str | None = None,
        subject: str | None = None,
        source: str | None = None,
        kind: str | None = None,
        by: str = "agent",
        task_id: str | None = None,
        no_memory: bool = False,
        origin_text: str | None = None,
        expires: str | date | None = None,
        tainted: bool = False,
        origin: str = "remember",
        author: str | None = None,
    ) -> WriteResult:
        """Screen `text` and write it as one entry in one commit (or say why not)."""
        if by not in BY_VALUES:
            raise InvalidArgument(f"by={by!r}: must be one of {', '.join(BY_VALUES)}")
        path = self._target(file, workspace)  # a bad path is an error even for skipped text
        screened = screen(text, origin_text=origin_text, no_memory=no_memory)
        if screened.text is None:
            return WriteResult(status="skipped", reason=screened.skip_reason)  # type: ignore[arg-type]
        metadata = self._metadata(
            source=source,
            by=by,
            origin=origin,
            subject=subject,
            kind=kind,
            author=author,
            expires=expires,
            tainted=tainted,
        )
        title = f"Workspace: {' '.join(workspace.split())}" if workspace and file is None else None
        write = EntryWrite(
            path=path,
            text=screened.text,
            metadata=metadata,
            by=by,
            origin=origin,
            task=task_id,
            title=title,
            redacted=screened.redacted,
            truncated=screened.truncated,
        )
        return self.folder.write_entry(write)

    def _target(self, file: str | None, workspace: str | None) -> str:
        if file is not None:
            return normalize_target(self.root, file)
        if workspace and workspace.strip():
            return normalize_target(self.root, f"workspaces/{slugify(workspace)}.md")
        return ENTRY_POINT

    def _metadata(
        self,
        *,
        source: str | None,
        by: str,
        origin: str,
        subject: str | None,
        kind: str | None,
        author: str | None,
        expires: str | date | None,
        tainted: bool,
    ) -> dict[str, str]:
        meta: dict[str, str] = {}
        if source and source.strip():
            meta["source"] = _clean(redact_secrets(source)[0])
        meta["added"] = self.folder.clock.now().date().isoformat()
        meta["by"] = by
        meta["origin"] = origin
        for key, value in (("subject", subject), ("kind", kind), ("author", author)):
            if value and value.strip():
                meta[key] = _clean(redact_secrets(value)[0])
        if expires is not None:
            meta["expires"] = _date_value(expires)
        if tainted:
            meta["tainted"] = "yes"
        return meta

    def forget(self, ref: str, *, by: str = "user", task_id: str | None = None) -> ForgetResult:
        """Remove the entry `ref` (as printed by `entries`/`remember`) in one commit."""
        return self.folder.forget(ref, by=by, task=task_id)

    def undo(self, commit: str | None = None, *, by: str = "user") -> UndoResult:
        """Reverse one commit entry by entry (default: the newest memrepo write)."""
        return self.folder.undo(commit, by=by)

    def log(self, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
        """main's history, newest first."""
        return self.folder.log(limit=limit, path=path)

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry at HEAD (swarm folders excluded unless `path` names a file in one)."""
        return self.folder.entries(normalize_target(self.root, path) if path else None)

    def read_text(self, path: str) -> str:
        """A memory file as it is in the working tree (what a person sees in an editor)."""
        relative = normalize_target(self.root, path)
        try:
            data = (self.root / relative).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            raise EntryNotFound(path, "no such file in the memory repo") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(relative, exc.start) from exc

    def status(self) -> WorktreeStatus:
        """Edits people left uncommitted."""
        return self.folder.status()

    def lint(self) -> LintReport:
        """Format problems, broken links, unlisted files and secrets, with path and line."""
        return lint_folder(self.folder)


def _clean(value: str) -> str:
    return " ".join(value.split())


def _date_value(value: str | date) -> str:
    text = value.isoformat() if isinstance(value, date) else value.strip()
    if not _DATE.match(text):
        raise InvalidArgument(f"expires={value!r}: use YYYY-MM-DD")
    try:
        date.fromisoformat(text)
    except ValueError as exc:
        raise InvalidArgument(f"expires={value!r}: not a real date") from exc
    return text
