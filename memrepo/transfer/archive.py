"""The one-file export container: a plain header, then named sections in sealed chunks.

Layout::

    magic (16 bytes) | header length (u32) | header (JSON) | frames (see `crypto`)

The header says whether the body is encrypted and how the key is derived; its digest is
bound to every chunk, so changing it breaks them all. Inside the chunk stream each
section is `name length (u16) | name | size (u64) | bytes`, and a zero-length name ends
the stream. Sections are streamed from and to files, so a large git bundle never sits in
memory whole.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memrepo.errors import ArchiveCorrupt
from memrepo.transfer.crypto import (
    CHUNK_SIZE,
    AesGcmSealer,
    ChunkReader,
    ChunkWriter,
    DigestSealer,
    KdfParams,
    Sealer,
)

MAGIC = b"memrepo-export\n\x00"
VERSION = 1
FORMAT = "memrepo-export"
_LENGTH = struct.Struct(">I")
_NAME = struct.Struct(">H")
_SIZE = struct.Struct(">Q")
_MAX_HEADER = 64 * 1024
_MAX_SECTIONS = 32
_SECTION_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_PIECE = 1 << 20


@dataclass(frozen=True, slots=True)
class Header:
    """What a reader must know before the first chunk: the chunk size and the key's KDF."""

    chunk_size: int = CHUNK_SIZE
    kdf: KdfParams | None = None

    @property
    def encrypted(self) -> bool:
        return self.kdf is not None

    def encode(self) -> bytes:
        data: dict[str, object] = {
            "format": FORMAT,
            "version": VERSION,
            "chunk_size": self.chunk_size,
            "cipher": "AES-256-GCM" if self.kdf else None,
            "kdf": self.kdf.to_json() if self.kdf else None,
        }
        body = json.dumps(data, sort_keys=True).encode("utf-8")
        return MAGIC + _LENGTH.pack(len(body)) + body

    @classmethod
    def decode(cls, body: bytes) -> Header:
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise ArchiveCorrupt(f"the export header is not readable JSON ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ArchiveCorrupt("the export header does not describe a memrepo export")
        if data.get("version") != VERSION:
            raise ArchiveCorrupt(
                f"export format version {data.get('version')!r}; this memrepo reads version "
                f"{VERSION} (a newer memrepo wrote it: upgrade memrepo to restore it)"
            )
        size = data.get("chunk_size")
        if not isinstance(size, int) or not 1 <= size <= 64 * CHUNK_SIZE:
            raise ArchiveCorrupt(f"the export header has an impossible chunk size: {size!r}")
        if data.get("cipher") not in (None, "AES-256-GCM"):
            raise ArchiveCorrupt(f"unknown cipher {data.get('cipher')!r} in the export header")
        kdf = KdfParams.from_json(data.get("kdf")) if data.get("cipher") else None
        return cls(size, kdf)


def read_header(src: BinaryIO) -> tuple[Header, bytes]:
    """The header at the start of `src` and the digest every chunk is bound to."""
    magic = src.read(len(MAGIC))
    if magic != MAGIC:
        raise ArchiveCorrupt("not a memrepo export file (its first bytes are not the marker)")
    raw_length = src.read(_LENGTH.size)
    if len(raw_length) < _LENGTH.size:
        raise ArchiveCorrupt("the export file is truncated inside its header")
    (length,) = _LENGTH.unpack(raw_length)
    if length > _MAX_HEADER:
        raise ArchiveCorrupt(f"the export header claims {length} bytes; the file is damaged")
    body = src.read(length)
    if len(body) < length:
        raise ArchiveCorrupt("the export file is truncated inside its header")
    header = Header.decode(body)
    return header, hashlib.sha256(magic + raw_length + body).digest()


def sealer_for(header: Header, key: bytes | None) -> Sealer:
    if header.encrypted:
        if key is None:
            raise ValueError("an encrypted archive needs a key")
        return AesGcmSealer(key)
    return DigestSealer()


class ArchiveWriter:
    """Writes the header, then sections one after another, then the end marker."""

    def __init__(self, out: BinaryIO, header: Header, key: bytes | None) -> None:
        encoded = header.encode()
        out.write(encoded)
        digest = hashlib.sha256(encoded).digest()
        self._chunks = ChunkWriter(out, sealer_for(header, key), digest, header.chunk_size)
        self._names: set[str] = set()

    def add_bytes(self, name: str, data: bytes) -> None:
        self._begin(name, len(data))
        self._chunks.write(data)

    def add_file(self, name: str, path: Path) -> int:
        """Stream a file into a section; returns its size."""
        size = path.stat().st_size
        self._begin(name, size)
        written = 0
        with open(path, "rb") as handle:
            while piece := handle.read(_PIECE):
                self._chunks.write(piece)
                written += len(piece)
        if written != size:
            raise OSError(f"{path} changed size while it was exported")
        return size

    def close(self) -> None:
        self._chunks.write(_NAME.pack(0))
        self._chunks.close()

    def _begin(self, name: str, size: int) -> None:
        if not _SECTION_NAME.match(name) or name in self._names:
            raise ValueError(f"bad or repeated section name {name!r}")
        self._names.add(name)
        encoded = name.encode("ascii")
        self._chunks.write(_NAME.pack(len(encoded)) + encoded + _SIZE.pack(size))


def read_sections(
    src: BinaryIO, into: Path, key_for: Callable[[Header], bytes | None]
) -> dict[str, Path]:
    """Verify the whole archive, writing each section to a file in `into`.

    `key_for` is asked for the key only once the header is known (and only when it says
    the body is encrypted). Raises ArchiveCorrupt or DecryptionFailed; files already
    written to `into` are the caller's to remove.
    """
    header, digest = read_header(src)
    key = key_for(header) if header.encrypted else None
    reader = ChunkReader(src, sealer_for(header, key), digest, header.chunk_size)
    found: dict[str, Path] = {}
    while True:
        name = _read_name(reader)
        if name is None:
            break
        if name in found or len(found) >= _MAX_SECTIONS:
            raise ArchiveCorrupt(f"the export repeats section {name!r} or has too many")
        found[name] = _copy_section(reader, into / f"{len(found):02d}-{name}")
    reader.finish()
    return found


def _read_exact(reader: ChunkReader, size: int, what: str) -> bytes:
    data = reader.read(size)
    if len(data) < size:
        raise ArchiveCorrupt(f"the export ends inside {what}; the file is damaged")
    return data


def _read_name(reader: ChunkReader) -> str | None:
    (length,) = _NAME.unpack(_read_exact(reader, _NAME.size, "a section header"))
    if length == 0:
        return None
    raw = _read_exact(reader, length, "a section name")
    name = raw.decode("ascii", errors="replace")
    if not _SECTION_NAME.match(name):
        raise ArchiveCorrupt(f"the export has a section with an impossible name {name!r}")
    return name


def _copy_section(reader: ChunkReader, target: Path) -> Path:
    (size,) = _SIZE.unpack(_read_exact(reader, _SIZE.size, "a section header"))
    with open(target, "wb") as out:
        left = size
        while left:
            piece = _read_exact(reader, min(left, _PIECE), f"section {target.name}")
            out.write(piece)
            left -= len(piece)
    return target
