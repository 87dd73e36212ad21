"""`export`: the whole memory in one file (git bundle + memory_items + local config), or
flat JSONL facts for tools that want them.

The file is written next to its target under a temporary name and renamed into place, so
an interrupted export never leaves a half file under the name the user gave. Exports are
created readable by their owner only: they hold the user's memory.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from memrepo import progress as reporting
from memrepo.diskio import atomic_output
from memrepo.errors import InvalidArgument, TargetExists
from memrepo.hygiene import redact_secrets
from memrepo.items.dump import dump_rows
from memrepo.layout import DREAM_STATE, workspace_of
from memrepo.models.items import ItemFilters, MemoryItem
from memrepo.models.transfer import ExportFormat, ExportResult
from memrepo.transfer import gitcli
from memrepo.transfer.archive import ArchiveWriter, Header
from memrepo.transfer.crypto import KdfParams
from memrepo.transfer.passphrase import resolve_passphrase

if TYPE_CHECKING:
    from memrepo.stores import MemoryStores

SECTION_MANIFEST = "manifest"
SECTION_BUNDLE = "bundle"
SECTION_ITEMS = "items"
SECTION_CONFIG = "config"
#: What dreaming remembers (`.git/memrepo/dream.json`: rejected and undone changes, never
#: proposed again), carried as it is; optional, so older exports restore too.
SECTION_DREAM = "dream"
_CREDENTIAL_KEY = re.compile(
    r"(?:^|[_-])(?:credentials?|password|passphrase|secret|token|auth|api[_-]?key)$", re.IGNORECASE
)
_URL_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
# One encoder for every row: `json.dumps` with options builds a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def export_repo(
    repo: MemoryStores,
    path: str | Path,
    *,
    encrypt: bool = False,
    include_private: bool = False,
    force: bool = False,
    format: ExportFormat = "bundle",
    passphrase: str | None = None,
    kdf: KdfParams | None = None,
) -> ExportResult:
    """Write the export; see `MemoryRepo.export` for the contract."""
    _refuse_options(format, encrypt=encrypt, include_private=include_private)
    target = Path(path).expanduser()
    check_target(target, force)
    if format == "jsonl":
        return _export_jsonl(repo, target)
    secret = resolve_passphrase(passphrase, confirm=True) if encrypt else None
    kdf = (kdf or KdfParams.fresh()) if encrypt else None
    return _export_bundle(repo, target, include_private, kdf, secret)


def _refuse_options(format: str, *, encrypt: bool, include_private: bool) -> None:
    """Options that do not go together, refused before anything is read or asked."""
    if include_private and not encrypt:
        raise InvalidArgument(
            "include_private needs encrypt: private facts never leave the machine in the clear"
        )
    if format not in ("bundle", "jsonl"):
        raise InvalidArgument(f"format={format!r}: use bundle or jsonl")
    if format == "jsonl" and encrypt:
        raise InvalidArgument("a jsonl export is plain text for other tools; encrypt a bundle")


def _export_bundle(
    repo: MemoryStores,
    target: Path,
    include_private: bool,
    kdf: KdfParams | None,
    secret: str | None,
) -> ExportResult:
    """The archive: the git bundle with full history, the items, the local config and
    the dream state, sealed under a key from `secret` when `kdf` is given."""
    uncommitted = repo.folder.status()
    with (
        reporting.task("exporting"),
        tempfile.TemporaryDirectory(prefix="memrepo-export-") as work,
        repo.folder.lock,
        ThreadPoolExecutor(1) as pool,
    ):
        bundle = Path(work) / "history.bundle"
        # git packs the history in its own process while this one derives the key and
        # dumps the items: the two largest costs of an export overlap.
        bundling = pool.submit(gitcli.create_bundle, repo.root, bundle)
        key = None
        if kdf is not None and secret is not None:
            with reporting.task("deriving the key"):
                key = kdf.derive(secret)
        items_file = Path(work) / "items.jsonl"
        items = _dump_items(repo, items_file, include_private)
        with reporting.task("packing the git history"):
            bundling.result()
        branches = gitcli.branch_heads(repo.root)
        commits = gitcli.commit_count(repo.root)
        # The branch memrepo writes to (a repo made on `master` keeps it): a restore
        # checks it out again.
        branch = repo.folder.store.branch_ref.removeprefix("refs/heads/")
        manifest = {
            "created_at": repo.folder.clock.now().isoformat(),
            "head": branches.get(branch),
            "branch": branch,
            "branches": branches,
            "items": items,
            "include_private": include_private,
        }
        _write_archive(repo, target, Header(kdf=kdf), key, manifest, bundle, items_file)
    return ExportResult(
        path=str(target),
        format="bundle",
        encrypted=kdf is not None,
        include_private=include_private,
        bytes=target.stat().st_size,
        head=branches.get(branch),
        branches=len(branches),
        commits=commits,
        items=items,
        uncommitted=(*uncommitted.modified, *uncommitted.added, *uncommitted.deleted),
        private_left_out=0 if include_private else _private_count(repo),
    )


def _write_archive(
    repo: MemoryStores,
    target: Path,
    header: Header,
    key: bytes | None,
    manifest: Mapping[str, object],
    bundle: Path,
    items: Path,
) -> None:
    """Every section into the archive, replacing `target` only once it is whole."""
    with reporting.task("writing the archive"), atomic_file(target) as out:
        writer = ArchiveWriter(out, header, key)
        writer.add_bytes(SECTION_MANIFEST, json.dumps(manifest).encode("utf-8"))
        writer.add_file(SECTION_BUNDLE, bundle)
        writer.add_file(SECTION_ITEMS, items)
        writer.add_bytes(SECTION_CONFIG, json.dumps(safe_config(repo)).encode("utf-8"))
        dream = repo.folder.state_dir / DREAM_STATE
        if dream.is_file():
            writer.add_file(SECTION_DREAM, dream)
        writer.close()


def _private_count(repo: MemoryStores) -> int:
    """Active private items, which an export without `include_private` leaves out."""
    store = repo.items.store
    return store.count(ItemFilters(include_private=True)) - store.count(ItemFilters())


def check_target(target: Path, force: bool) -> None:
    """Refuse an existing target unless `force`; never replace a directory, a device, a
    pipe or a socket (`--force` onto /dev/full once replaced the device file), nor
    anything through a symlink."""
    if target.is_dir():
        raise TargetExists(f"{target} is a directory; name a file to export to")
    if target.is_symlink():
        raise TargetExists(f"{target} is a symlink; name the file itself to export to")
    if target.exists() and not target.is_file():
        raise TargetExists(f"{target} is not a regular file (a device, pipe or socket)")
    if target.exists() and not force:
        raise TargetExists(f"{target} already exists; choose another name or use --force")


@contextmanager
def atomic_file(target: Path) -> Iterator[BinaryIO]:
    """A new file that appears under `target` only once it is completely written."""
    with atomic_output(target, private=True) as out:  # 0600: only its owner reads it
        yield out


def _dump_items(repo: MemoryStores, target: Path, include_private: bool) -> int:
    """Every memory_items row as stored: a line of column names, then a line per row."""
    columns, rows = dump_rows(repo.items.store, include_private=include_private)
    with (
        reporting.task("memory items", len(rows)) as bar,
        open(target, "w", encoding="utf-8") as out,
    ):
        out.write(_ENCODER.encode(list(columns)) + "\n")
        for row in rows:
            out.write(_ENCODER.encode(row) + "\n")
            bar.advance()
    return len(rows)


def safe_config(repo: MemoryStores) -> dict[str, Any]:
    """The local config without anything that could be a credential."""
    cleaned = _scrub(repo.config.model_dump(mode="json"))
    assert isinstance(cleaned, dict)
    return cleaned


def _scrub(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _scrub(v) for k, v in value.items() if not _CREDENTIAL_KEY.search(str(k))}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, str):
        return redact_secrets(_URL_USERINFO.sub("", value))[0]
    return value


# --- flat JSONL --------------------------------------------------------------------------


def _export_jsonl(repo: MemoryStores, target: Path) -> ExportResult:
    """One JSON object per fact: folder entries at HEAD, then active non-private items."""
    entries = items = 0
    with reporting.task("reading entries and items"):
        views = repo.folder.entries(None)
        active = repo.items.store.list(ItemFilters(status="active"))
    with (
        reporting.task("exporting facts", len(views) + len(active)) as bar,
        atomic_file(target) as out,
    ):
        for view in views:
            out.write(_line(_entry_fact(view.text, view.ref, view.path, view.line, view.metadata)))
            entries += 1
            bar.advance()
        for item in active:
            out.write(_line(_item_fact(item)))
            items += 1
            bar.advance()
    head = repo.folder.store.main_id() or None
    return ExportResult(
        path=str(target),
        format="jsonl",
        encrypted=False,
        include_private=False,
        bytes=target.stat().st_size,
        head=head,
        entries=entries,
        items=items,
        private_left_out=_private_count(repo),
    )


def _line(fact: dict[str, object]) -> bytes:
    clean = {k: v for k, v in fact.items() if v is not None}
    return (json.dumps(clean, ensure_ascii=False) + "\n").encode("utf-8")


def _entry_fact(
    text: str, ref: str, path: str, line: int, metadata: dict[str, str]
) -> dict[str, object]:
    workspace = workspace_of(path) or None
    return {
        "text": text,
        "ref": ref,
        "store": "folder",
        "path": path,
        "line": line,
        "created_at": metadata.get("added"),
        "by": metadata.get("by"),
        "subject": metadata.get("subject"),
        "kind": metadata.get("kind"),
        "source": metadata.get("source"),
        "workspace": workspace,
    }


def _item_fact(item: MemoryItem) -> dict[str, object]:
    return {
        "text": item.content,
        "ref": item.ref,
        "store": "items",
        "created_at": item.created_at.isoformat(),
        "trust": item.source,
        "subject": None if item.derived_subject else item.subject_key,
        "kind": item.kind,
        "scope": item.scope,
        "workspace": item.workspace_id,
        "contact": item.scope_ref if item.scope == "contact" else None,
        "task_id": item.task_id,
    }
