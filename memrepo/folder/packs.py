"""Many new objects as one git pack instead of one loose object file each.

libgit2 writes every object as its own file (a temp file, a fan-out directory, a link
and an unlink), and on a busy disk those metadata operations, not the bytes, are what a
write of dozens of files waits for. A dream rewrites most files of a folder at once, so
its blobs, trees and commits go into one pack (`.pack` plus its `.idx`, version 2, no
deltas; see `objects.py`), the format `git fetch` leaves behind; `git gc` folds it into
the others like any fetched pack.

Packs are written under a temp name and renamed into place, the index last: a reader
only looks for packs through their `.idx`, so it sees all of a pack or none of it.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from collections.abc import Mapping
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from memrepo.folder.atomic import write_new_file

#: Below this many new objects, loose ones cost less than a pack; every lookup scans
#: each pack's index, so a pack per small write would slow the repo down over time.
PACK_MIN = 16
_LARGE_OFFSET = 0x80000000


def write_pack(repo: pygit2.Repository, objects: Mapping[bytes, tuple[ObjectType, bytes]]) -> None:
    """One pack of `objects` (raw id -> type and content, ids as git computes them)."""
    pack = bytearray(b"PACK" + struct.pack(">II", 2, len(objects)))
    entries: list[tuple[bytes, int, int]] = []  # (id, crc32, offset)
    for raw_id, (kind, data) in objects.items():
        packed = _object_header(kind, len(data)) + zlib.compress(data, 1)
        entries.append((raw_id, zlib.crc32(packed), len(pack)))
        pack += packed
    checksum = hashlib.sha1(pack).digest()
    pack += checksum
    index = _index(sorted(entries), checksum)
    name = f"pack-{checksum.hex()}"
    pack_dir = Path(repo.path) / "objects" / "pack"
    pack_dir.mkdir(parents=True, exist_ok=True)
    _publish(pack_dir, f"{name}.pack", bytes(pack))
    _publish(pack_dir, f"{name}.idx", index)


def _object_header(kind: ObjectType, size: int) -> bytes:
    """Type and size: 3 type bits and 4 size bits, then 7 size bits per byte."""
    out = bytearray()
    byte = (int(kind) << 4) | (size & 0x0F)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def _index(entries: list[tuple[bytes, int, int]], pack_checksum: bytes) -> bytes:
    """A version 2 pack index for entries sorted by id."""
    fanout = [0] * 256
    for raw_id, _crc, _offset in entries:
        fanout[raw_id[0]] += 1
    for i in range(1, 256):
        fanout[i] += fanout[i - 1]
    small: list[int] = []
    large: list[int] = []
    for _raw_id, _crc, offset in entries:
        if offset < _LARGE_OFFSET:
            small.append(offset)
        else:
            small.append(_LARGE_OFFSET | len(large))
            large.append(offset)
    count = len(entries)
    out = bytearray(b"\377tOc" + struct.pack(">I", 2) + struct.pack(">256I", *fanout))
    out += b"".join(raw_id for raw_id, _crc, _offset in entries)
    out += struct.pack(f">{count}I", *(crc for _raw_id, crc, _offset in entries))
    out += struct.pack(f">{count}I", *small)
    out += struct.pack(f">{len(large)}Q", *large)
    out += pack_checksum
    out += hashlib.sha1(out).digest()
    return bytes(out)


def _publish(pack_dir: Path, name: str, data: bytes) -> None:
    """Write under a temp name, then rename: git's own `tmp_pack_` prefix, which gc
    clears if a crash leaves one behind. No fsync, like libgit2's loose objects."""
    tmp = pack_dir / f"tmp_pack_{os.getpid()}_{name}"
    write_new_file(tmp, data, mode=0o444)
    os.replace(tmp, pack_dir / name)
