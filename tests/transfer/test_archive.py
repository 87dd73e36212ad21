"""The container and its chunks: round trips, and every kind of damage caught."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest

from memrepo.errors import ArchiveCorrupt, DecryptionFailed, TransferError
from memrepo.transfer.archive import ArchiveWriter, Header, read_sections
from memrepo.transfer.crypto import KdfParams

FAST_KDF = KdfParams(salt=b"0123456789abcdef", n=2**4, r=8, p=1)
KEY = FAST_KDF.derive("right horse battery")
CHUNK = 64
SECTIONS = {"manifest": b'{"a": 1}', "bundle": bytes(range(256)) * 3, "empty": b""}


def build(key: bytes | None, chunk: int = CHUNK, sections: dict[str, bytes] = SECTIONS) -> bytes:
    out = io.BytesIO()
    writer = ArchiveWriter(out, Header(chunk_size=chunk, kdf=FAST_KDF if key else None), key)
    for name, data in sections.items():
        writer.add_bytes(name, data)
    writer.close()
    return out.getvalue()


def unpack(data: bytes, tmp_path: Path, key: bytes | None = KEY) -> dict[str, bytes]:
    into = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
    into.mkdir()
    found = read_sections(io.BytesIO(data), into, lambda header: key)
    return {name: path.read_bytes() for name, path in found.items()}


def frames(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of each frame of an archive."""
    (header_len,) = struct.unpack(">I", data[16:20])
    offset = 20 + header_len
    out = []
    while offset < len(data):
        _, length = struct.unpack(">BI", data[offset : offset + 5])
        out.append((offset, 5 + length))
        offset += 5 + length
    return out


@pytest.mark.parametrize("key", [KEY, None], ids=["encrypted", "plain"])
@pytest.mark.parametrize("chunk", [1, 7, CHUNK, 1 << 20])
def test_sections_round_trip_at_any_chunk_size(
    tmp_path: Path, key: bytes | None, chunk: int
) -> None:
    assert unpack(build(key, chunk), tmp_path, key) == SECTIONS


def test_encrypted_body_does_not_contain_the_plaintext() -> None:
    secret = b"the launch code is swordfish"
    data = build(KEY, sections={"items": secret * 4})
    assert secret not in data
    assert secret in build(None, sections={"items": secret * 4})


def test_a_wrong_key_is_a_decryption_error(tmp_path: Path) -> None:
    data = build(KEY)
    with pytest.raises(DecryptionFailed, match="wrong passphrase"):
        unpack(data, tmp_path, FAST_KDF.derive("wrong"))


@pytest.mark.slow
@pytest.mark.parametrize("key", [KEY, None], ids=["encrypted", "plain"])
def test_every_single_flipped_byte_is_caught(tmp_path: Path, key: bytes | None) -> None:
    data = build(key, sections={"manifest": b"{}", "bundle": b"x" * 150})
    assert len(frames(data)) >= 3
    for position in range(len(data)):
        damaged = bytearray(data)
        damaged[position] ^= 0x40
        with pytest.raises((ArchiveCorrupt, DecryptionFailed)):
            unpack(bytes(damaged), tmp_path, key)


@pytest.mark.slow
@pytest.mark.parametrize("key", [KEY, None], ids=["encrypted", "plain"])
def test_every_truncation_is_caught(tmp_path: Path, key: bytes | None) -> None:
    data = build(key, sections={"bundle": b"y" * 200})
    for cut in range(len(data)):
        with pytest.raises((ArchiveCorrupt, DecryptionFailed)):
            unpack(data[:cut], tmp_path, key)


def test_a_file_cut_at_a_chunk_boundary_is_reported_as_truncated(tmp_path: Path) -> None:
    data = build(KEY)
    offset, _ = frames(data)[-1]
    with pytest.raises(ArchiveCorrupt, match="truncated"):
        unpack(data[:offset], tmp_path)


@pytest.mark.parametrize("key", [KEY, None], ids=["encrypted", "plain"])
def test_reordered_and_dropped_chunks_are_caught(tmp_path: Path, key: bytes | None) -> None:
    data = build(key)
    spans = frames(data)
    start = spans[0][0]
    pieces = [data[o : o + n] for o, n in spans]
    swapped = pieces[:]
    swapped[1], swapped[2] = swapped[2], swapped[1]
    dropped = pieces[:1] + pieces[2:]
    for body in (swapped, dropped):
        with pytest.raises(ArchiveCorrupt, match="chunk 1"):
            unpack(data[:start] + b"".join(body), tmp_path, key)


def test_a_chunk_from_another_export_does_not_fit(tmp_path: Path) -> None:
    """Same key and position, different archive: the header digest differs (another
    random salt would too), so the chunk does not authenticate."""
    one = build(KEY, sections={"manifest": b"1" * 100})
    two = build(KEY, sections={"manifest": b"2" * 100, "extra": b""})
    spans_one, spans_two = frames(one), frames(two)
    o, n = spans_two[1]
    mixed = one[: spans_one[1][0]] + two[o : o + n] + one[spans_one[1][0] + spans_one[1][1] :]
    with pytest.raises(ArchiveCorrupt):
        unpack(mixed, tmp_path)


def test_data_after_the_final_chunk_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ArchiveCorrupt, match="after its last chunk"):
        unpack(build(None) + b"\x00", tmp_path, None)


def test_not_an_export_says_so(tmp_path: Path) -> None:
    with pytest.raises(ArchiveCorrupt, match="not a memrepo export"):
        unpack(b"PK\x03\x04 a zip file", tmp_path)


def test_crafted_scrypt_cost_is_refused_before_deriving() -> None:
    huge = {"kdf": "scrypt", "salt": "MDEyMzQ1Njc4OWFiY2RlZg==", "n": 2**30, "r": 8, "p": 1}
    with pytest.raises(ArchiveCorrupt, match="out of range"):
        KdfParams.from_json(huge)


def test_errors_are_transfer_errors() -> None:
    assert issubclass(ArchiveCorrupt, TransferError)
    assert issubclass(DecryptionFailed, TransferError)
