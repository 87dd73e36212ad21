"""`restore`: a new memory repo from an export file, all or nothing.

Order matters: the whole file is read, authenticated and decoded into a staging folder
first (every chunk, every item row, the config, the manifest). Only then is the repository
built, still inside staging, and finally renamed onto the target in one step. Any error on
the way removes staging, so the target is exactly as it was: absent (or empty).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from memrepo.config import LocalConfig, save_config
from memrepo.errors import (
    ArchiveCorrupt,
    NotAMemoryRepo,
    StoreError,
    TargetExists,
    TransferError,
)
from memrepo.folder.repo import STATE_DIR, MemoryFolder
from memrepo.items import ItemStore
from memrepo.items.dump import load_rows
from memrepo.layout import DREAM_STATE
from memrepo.models.transfer import RestoreResult
from memrepo.transfer import gitcli
from memrepo.transfer.archive import Header, read_sections
from memrepo.transfer.export import (
    SECTION_BUNDLE,
    SECTION_CONFIG,
    SECTION_DREAM,
    SECTION_ITEMS,
    SECTION_MANIFEST,
)
from memrepo.transfer.passphrase import resolve_passphrase

_REQUIRED = (SECTION_MANIFEST, SECTION_BUNDLE, SECTION_ITEMS, SECTION_CONFIG)
_MAX_SMALL_SECTION = 16 << 20


def restore_archive(
    path: str | Path, target: str | Path, *, passphrase: str | None = None
) -> RestoreResult:
    """Build a memory repo at `target` from the export at `path`; see `MemoryRepo.restore`."""
    source = Path(path).expanduser()
    target = Path(target).expanduser().absolute()
    if not source.is_file():
        raise TransferError(f"{source}: no such export file")
    if target.exists() and not (target.is_dir() and not any(target.iterdir())):
        raise TargetExists(f"{target} already exists and is not an empty folder; choose a new one")
    with _parents_of(target), _staging(target) as staging:
        sections, encrypted = _verify(source, staging, passphrase)
        manifest = _json_section(sections[SECTION_MANIFEST], "manifest")
        config = _config(sections[SECTION_CONFIG])
        items = _items(sections[SECTION_ITEMS])
        built = staging / "repo"
        head, branches = _build(sections[SECTION_BUNDLE], built, manifest, config, items)
        _restore_dream_state(sections.get(SECTION_DREAM), built / ".git" / STATE_DIR)
        os.replace(built, target)
    return RestoreResult(
        root=str(target), head=head, branches=branches, items=len(items[1]), encrypted=encrypted
    )


def _verify(source: Path, staging: Path, passphrase: str | None) -> tuple[dict[str, Path], bool]:
    """Authenticate and unpack every section; also says whether the file was encrypted."""
    into = staging / "sections"
    into.mkdir()
    used_key: list[bytes] = []

    def key_for(header: Header) -> bytes:
        assert header.kdf is not None
        key = header.kdf.derive(resolve_passphrase(passphrase, confirm=False))
        used_key.append(key)
        return key

    with open(source, "rb") as src:
        sections = read_sections(src, into, key_for)
    missing = [name for name in _REQUIRED if name not in sections]
    if missing:
        raise ArchiveCorrupt(f"the export has no {', '.join(missing)} section")
    return sections, bool(used_key)


def _build(
    bundle: Path,
    built: Path,
    manifest: dict[str, Any],
    config: LocalConfig,
    items: tuple[list[str], list[list[Any]]],
) -> tuple[str, int]:
    # Exports made before the manifest named its branch were all of main.
    branch = str(manifest.get("branch") or "main")
    if branch.startswith("-") or branch not in (manifest.get("branches") or {}):
        raise ArchiveCorrupt(f"the export's manifest names branch {branch!r} but not its commit")
    gitcli.init_repo(built, branch)
    state_dir = built / ".git" / STATE_DIR
    with ThreadPoolExecutor(1) as pool:
        # git unpacks the history in its own process while this one loads the items.
        fetching = pool.submit(gitcli.fetch_bundle, bundle, built, branch)
        try:
            _load_items(state_dir, items)
        finally:
            fetching.result()
    branches = gitcli.branch_heads(built)
    if branches != manifest.get("branches"):
        raise ArchiveCorrupt("the export's git bundle lacks branches its manifest names")
    _refuse_links(built, branch)
    try:
        MemoryFolder.open(built)  # the checks MemoryRepo.open makes
    except NotAMemoryRepo as exc:
        raise ArchiveCorrupt(f"the export's history is not a memory repo: {exc}") from exc
    save_config(state_dir, config)
    return branches[branch], len(branches)


def _restore_dream_state(section: Path | None, state_dir: Path) -> None:
    """Dreaming's memory (rejected and undone changes) as the export carried it; an
    export without it (made before it was carried) starts afresh. It is checked to be a
    JSON object, so a damaged one fails the restore before anything is moved into place."""
    if section is None:
        return
    _json_section(section, "dream state")
    shutil.copyfile(section, state_dir / DREAM_STATE)


def _refuse_links(built: Path, branch: str) -> None:
    """A memory is regular files: a symlink or submodule on `branch` (checked out in
    staging only, never followed) refuses the restore, as sync refuses it (issue #27)."""
    listing = gitcli.run_git(built, "ls-tree", "-r", "-z", branch, corrupt=True)
    odd = [rec.partition("\t")[2] for rec in listing.split("\0") if rec[:6] in ("120000", "160000")]
    if odd:
        raise ArchiveCorrupt(
            f"the export's {branch} holds {', '.join(odd[:3])} as a symlink or submodule; "
            "memrepo restores only regular files, so nothing was restored"
        )


def _load_items(state_dir: Path, items: tuple[list[str], list[list[Any]]]) -> None:
    with ItemStore.open(state_dir) as store:
        try:
            load_rows(store, *items)
        except (ValueError, StoreError) as exc:
            raise ArchiveCorrupt(f"the export's memory_items rows cannot be loaded: {exc}") from exc


def _json_section(path: Path, what: str) -> dict[str, Any]:
    if path.stat().st_size > _MAX_SMALL_SECTION:
        raise ArchiveCorrupt(f"the export's {what} is implausibly large")
    try:
        data = json.loads(path.read_bytes())
    except ValueError as exc:
        raise ArchiveCorrupt(f"the export's {what} is not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ArchiveCorrupt(f"the export's {what} is not a JSON object")
    return data


def _config(path: Path) -> LocalConfig:
    try:
        return LocalConfig.model_validate(_json_section(path, "config"))
    except ValidationError as exc:
        raise ArchiveCorrupt(f"the export's config is not valid: {exc}") from exc


def _items(path: Path) -> tuple[list[str], list[list[Any]]]:
    """The column names and rows of the items section (JSON arrays, one per line)."""
    lines: list[Any] = []
    with open(path, "rb") as rows:
        for number, line in enumerate(rows, 1):
            try:
                lines.append(json.loads(line))
            except ValueError as exc:
                raise ArchiveCorrupt(f"export item line {number} is not JSON ({exc})") from exc
    if not lines or not isinstance(lines[0], list):
        raise ArchiveCorrupt("the export's items section does not start with its columns")
    return lines[0], lines[1:]


@contextmanager
def _staging(target: Path) -> Iterator[Path]:
    """A private folder next to the target (same file system, so the final rename is
    atomic), removed whatever happens."""
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.restore-", dir=target.parent))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextmanager
def _parents_of(target: Path) -> Iterator[None]:
    """Create the target's missing parent folders, and remove them again on failure."""
    created: list[Path] = []
    parent = target.parent
    while not parent.exists():
        created.append(parent)
        parent = parent.parent
    for folder in reversed(created):
        folder.mkdir()
    try:
        yield
    except BaseException:
        for folder in created:
            folder.rmdir()
        raise
