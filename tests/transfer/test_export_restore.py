"""Export and restore through the public API, checked against the git CLI."""

from __future__ import annotations

import json
import os
import stat
import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.errors import (
    ArchiveCorrupt,
    DecryptionFailed,
    InvalidArgument,
    TargetExists,
    TransferError,
)
from memrepo.models.items import ItemFilters
from memrepo.transfer.crypto import KdfParams

ALL_ITEMS = ItemFilters(status="any", include_private=True)
PASSPHRASE = "correct horse battery staple"


def fast_kdf() -> KdfParams:
    """Cheap scrypt for tests (the default costs ~0.3 s per derivation)."""
    return KdfParams.fresh(n=2**10)


Git = Callable[..., str]


def history(git: Git, root: Path) -> str:
    return git(root, "log", "--branches", "--format=%H %P|%an <%ae> %at|%cn %ct|%B")


def snapshot(git: Git, root: Path) -> dict[str, object]:
    with MemoryRepo.open(root) as repo:
        return {
            "log": history(git, root),
            "refs": git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
            "entries": [e.model_dump() for e in repo.entries()],
            "items": sorted((i.model_dump() for i in repo.list_items(ALL_ITEMS)), key=str),
            "config": repo.config.model_dump(),
        }


def export_encrypted(repo: MemoryRepo, path: Path, *, include_private: bool = False) -> None:
    repo.export(
        path, encrypt=True, include_private=include_private, passphrase=PASSPHRASE, kdf=fast_kdf()
    )


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


@pytest.mark.slow
def test_restore_gives_the_same_log_entries_items_and_config(
    rich_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    before = snapshot(git, rich_repo.root)
    export_encrypted(rich_repo, tmp_path / "backup.mrx", include_private=True)
    result = MemoryRepo.restore(tmp_path / "backup.mrx", tmp_path / "back", passphrase=PASSPHRASE)
    assert snapshot(git, tmp_path / "back") == before
    assert result.encrypted and result.branches == 2 and result.items == 6
    assert git(tmp_path / "back", "status", "--porcelain") == ""
    assert git(tmp_path / "back", "remote") == ""  # no remote pointing at a temp file
    with MemoryRepo.open(tmp_path / "back") as restored:
        assert restored.recall("kestrel").hits[0].text == "The staging cluster is called kestrel"
        assert restored.remember("A new fact after restore").commit is not None


def test_a_plain_export_leaves_private_items_out(
    rich_repo: MemoryRepo, tmp_path: Path, git: Git
) -> None:
    result = rich_repo.export(tmp_path / "plain.mrx")
    assert not result.encrypted and result.items == 5
    assert b"surprise party" not in (tmp_path / "plain.mrx").read_bytes()
    MemoryRepo.restore(tmp_path / "plain.mrx", tmp_path / "back")
    with MemoryRepo.open(tmp_path / "back") as restored:
        contents = {i.content for i in restored.list_items(ALL_ITEMS)}
    assert "Planning a surprise party for Ana" not in contents
    assert "Ana's phone is 555 0142" in contents
    assert history(git, tmp_path / "back") == history(git, rich_repo.root)


def test_include_private_requires_encryption(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="include_private needs encrypt"):
        rich_repo.export(tmp_path / "x.mrx", include_private=True)
    assert not (tmp_path / "x.mrx").exists()


def test_an_existing_target_is_refused_unless_forced(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    target = tmp_path / "backup.mrx"
    target.write_bytes(b"precious")
    with pytest.raises(TargetExists, match="--force"):
        rich_repo.export(target)
    assert target.read_bytes() == b"precious"
    rich_repo.export(target, force=True)
    assert target.read_bytes().startswith(b"memrepo-export")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_a_wrong_passphrase_leaves_no_target(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    export_encrypted(rich_repo, tmp_path / "b.mrx")
    with pytest.raises(DecryptionFailed, match="wrong passphrase"):
        MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "new" / "back", passphrase="guess")
    assert not (tmp_path / "new").exists()
    assert leftovers(tmp_path) == []


def _frames(data: bytes) -> list[tuple[int, int]]:
    (header_len,) = struct.unpack(">I", data[16:20])
    offset, out = 20 + header_len, []
    while offset < len(data):
        _, length = struct.unpack(">BI", data[offset : offset + 5])
        out.append((offset, 5 + length))
        offset += 5 + length
    return out


def _damaged(data: bytes, how: str) -> bytes:
    spans = _frames(data)
    if how == "truncated":
        return data[: len(data) - 100]
    if how == "flipped":
        offset, length = spans[len(spans) // 2]
        return (
            data[: offset + length // 2]
            + bytes([data[offset + length // 2] ^ 1])
            + data[offset + length // 2 + 1 :]
        )
    (a, la), (b, lb) = spans[1], spans[2]
    return data[:a] + data[b : b + lb] + data[a : a + la] + data[b + lb :]


@pytest.mark.parametrize("how", ["truncated", "flipped", "reordered"])
def test_a_damaged_export_restores_nothing(rich_repo: MemoryRepo, tmp_path: Path, how: str) -> None:
    for i in range(30):  # enough data for many chunks of a small chunk size
        rich_repo.remember(f"Filler fact number {i} " + "x" * 40, private=True)
    path = tmp_path / "b.mrx"
    export_encrypted(rich_repo, path, include_private=True)
    small = _rechunk(path.read_bytes(), tmp_path / "work")
    assert len(_frames(small)) > 10
    path.write_bytes(small)
    restored = MemoryRepo.restore(path, tmp_path / "intact", passphrase=PASSPHRASE)
    assert restored.items == 36
    path.write_bytes(_damaged(small, how))
    (tmp_path / "empty").mkdir()
    with pytest.raises((ArchiveCorrupt, DecryptionFailed)):
        MemoryRepo.restore(path, tmp_path / "empty", passphrase=PASSPHRASE)
    assert list((tmp_path / "empty").iterdir()) == []
    assert leftovers(tmp_path) == []


def _rechunk(data: bytes, work: Path) -> bytes:
    """The same archive re-sealed with 512-byte chunks, so it has many frames."""
    import io

    from memrepo.transfer.archive import ArchiveWriter, Header, read_sections

    kdf = fast_kdf()
    key = kdf.derive(PASSPHRASE)
    work.mkdir()
    found = read_sections(
        io.BytesIO(data), work, lambda header: header.kdf.derive(PASSPHRASE) if header.kdf else None
    )
    out = io.BytesIO()
    writer = ArchiveWriter(out, Header(chunk_size=512, kdf=kdf), key)
    for name, path in found.items():
        writer.add_file(name, path)
    writer.close()
    return out.getvalue()


def test_restore_refuses_a_folder_that_is_not_empty(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    rich_repo.export(tmp_path / "b.mrx")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    with pytest.raises(TargetExists):
        MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "busy")
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["keep.txt"]
    (tmp_path / "empty").mkdir()
    assert MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "empty").root == str(
        tmp_path / "empty"
    )


def test_the_passphrase_comes_from_the_environment(
    rich_repo: MemoryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMREPO_PASSPHRASE", "from the environment")
    rich_repo.export(tmp_path / "b.mrx", encrypt=True, kdf=fast_kdf())
    MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "back")
    monkeypatch.delenv("MEMREPO_PASSPHRASE")
    with pytest.raises(TransferError, match="MEMREPO_PASSPHRASE"):
        MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "again")
    with pytest.raises(TransferError, match="MEMREPO_PASSPHRASE"):
        rich_repo.export(tmp_path / "c.mrx", encrypt=True)
    assert not (tmp_path / "again").exists() and not (tmp_path / "c.mrx").exists()


def test_credentials_never_leave_in_the_config(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    config = rich_repo.root / ".git" / "memrepo" / "config.json"
    data = json.loads(config.read_text())
    data["sync"] = {"remote": "https://ana:s3cr3t-pw@git.example.com/mem.git", "token": "abc123"}
    config.write_text(json.dumps(data))
    with MemoryRepo.open(rich_repo.root) as repo:
        repo.export(tmp_path / "b.mrx")
    MemoryRepo.restore(tmp_path / "b.mrx", tmp_path / "back")
    restored = json.loads((tmp_path / "back" / ".git" / "memrepo" / "config.json").read_text())
    assert restored["sync"] == {"remote": "https://git.example.com/mem.git"}
    assert restored["workspaces"]["secret-project"]["privacy"] == "strict"


def test_uncommitted_edits_are_named_in_the_result(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    (rich_repo.root / "draft.md").write_text("# Draft\n\n- not committed yet\n")
    result = rich_repo.export(tmp_path / "b.mrx")
    assert result.uncommitted == ("draft.md",)


def test_jsonl_export_writes_flat_facts(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    result = rich_repo.export(tmp_path / "facts.jsonl", format="jsonl")
    rows = [json.loads(line) for line in (tmp_path / "facts.jsonl").read_text().splitlines()]
    texts = {row["text"] for row in rows}
    assert "Prefers pnpm over npm" in texts and "Ana's phone is 555 0142" in texts
    assert "Planning a surprise party for Ana" not in texts  # private stays home
    assert "Ana's phone is 555 0199" not in texts  # superseded revisions are history
    assert result.entries + result.items == len(rows)
    folder_row = next(r for r in rows if r["text"] == "Deploys happen on Tuesdays")
    assert folder_row["workspace"] == "platform" and folder_row["path"] == "workspaces/platform.md"
    with pytest.raises(InvalidArgument):
        rich_repo.export(tmp_path / "x.jsonl", format="jsonl", encrypt=True, passphrase="p")


def test_jsonl_export_imports_into_another_repo(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    rich_repo.export(tmp_path / "facts.jsonl", format="jsonl")
    with MemoryRepo.init(tmp_path / "other") as other:
        report = other.import_memory(tmp_path / "facts.jsonl", source="jsonl")
        assert report.skipped == {} and report.written == report.facts
        assert {e.text for e in other.entries()} >= {e.text for e in rich_repo.entries()}
        contacts = other.list_items(ItemFilters(scope="contact"))
        assert {i.content for i in contacts} == {
            "Ana's phone is 555 0100",
            "Ana's phone is 555 0142",
        }


def test_file_mode_is_owner_only(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    rich_repo.export(tmp_path / "f.jsonl", format="jsonl")
    assert stat.S_IMODE(os.stat(tmp_path / "f.jsonl").st_mode) == 0o600
