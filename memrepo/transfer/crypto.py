"""Authenticated chunks: how an export file stays streamable and still tamper-evident.

The archive body is a sequence of frames, each `flags (u8) | length (u32) | payload`. A
chunk's additional data binds the header digest, the chunk index and the final flag, so a
flipped byte, a swapped or dropped chunk, a chunk moved from another export, or a file cut
at a frame boundary all fail to authenticate (the last because no frame carries the final
flag). Encrypted archives seal each chunk with AES-256-GCM under a fresh random nonce and a
key derived from the passphrase with scrypt (salt and cost in the header). Plain archives
carry a SHA-256 over the same additional data and the chunk, which catches damage, not an
attacker: that is what `--encrypt` is for.
"""

from __future__ import annotations

import base64
import hashlib
import os
import struct
from dataclasses import dataclass
from typing import BinaryIO, NoReturn, Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from memrepo.errors import ArchiveCorrupt, DecryptionFailed

#: 1 MiB of plaintext per chunk: memory stays bounded and the 28-byte overhead negligible.
CHUNK_SIZE = 1 << 20
FINAL = 0x01
_FRAME = struct.Struct(">BI")
_AAD = struct.Struct(">32sQB")
NONCE_BYTES = 12
TAG_BYTES = 16
DIGEST_BYTES = 32
SALT_BYTES = 16

# OWASP's scrypt minimum (N=2^17, r=8, p=1): about 0.3 s and 128 MiB per derivation.
DEFAULT_N = 1 << 17
DEFAULT_R = 8
DEFAULT_P = 1
# A crafted header must not make a reader allocate without bound: 2^20 x 8 = 1 GiB.
_MAX_N, _MAX_R, _MAX_P, _MAX_MEMORY = 1 << 20, 32, 16, 1 << 30


@dataclass(frozen=True, slots=True)
class KdfParams:
    """scrypt's salt and cost, stored in the header so any later reader derives the key."""

    salt: bytes
    n: int = DEFAULT_N
    r: int = DEFAULT_R
    p: int = DEFAULT_P

    @classmethod
    def fresh(cls, n: int = DEFAULT_N, r: int = DEFAULT_R, p: int = DEFAULT_P) -> KdfParams:
        """New parameters with a random salt (every export gets its own)."""
        return cls(os.urandom(SALT_BYTES), n, r, p)

    def to_json(self) -> dict[str, object]:
        return {
            "kdf": "scrypt",
            "salt": base64.b64encode(self.salt).decode("ascii"),
            "n": self.n,
            "r": self.r,
            "p": self.p,
        }

    @classmethod
    def from_json(cls, data: object) -> KdfParams:
        """Parameters read from a header; refused when missing or out of sane bounds."""
        if not isinstance(data, dict) or data.get("kdf") != "scrypt":
            raise ArchiveCorrupt("the export header names no scrypt parameters")
        try:
            salt = base64.b64decode(str(data["salt"]), validate=True)
            n, r, p = int(data["n"]), int(data["r"]), int(data["p"])
        except (KeyError, ValueError, TypeError) as exc:
            raise ArchiveCorrupt(
                f"the export header's scrypt parameters are unreadable: {exc}"
            ) from exc
        pow2 = n > 1 and n & (n - 1) == 0
        if not (pow2 and n <= _MAX_N and 1 <= r <= _MAX_R and 1 <= p <= _MAX_P) or (
            128 * n * r > _MAX_MEMORY or len(salt) < 8
        ):
            raise ArchiveCorrupt(f"the export header's scrypt parameters are out of range: {data}")
        return cls(salt, n, r, p)

    def derive(self, passphrase: str) -> bytes:
        """The 256-bit AES key for `passphrase`."""
        kdf = Scrypt(salt=self.salt, length=32, n=self.n, r=self.r, p=self.p)
        return kdf.derive(passphrase.encode("utf-8"))


class Sealer(Protocol):
    """Protects one chunk: `open` gives the data back, or None when it does not verify."""

    encrypted: bool
    overhead: int

    def seal(self, data: bytes, aad: bytes) -> bytes: ...

    def open(self, payload: bytes, aad: bytes) -> bytes | None: ...


class AesGcmSealer:
    """AES-256-GCM, a random 96-bit nonce per chunk stored in front of the ciphertext."""

    encrypted = True
    overhead = NONCE_BYTES + TAG_BYTES

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, data: bytes, aad: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, data, aad)

    def open(self, payload: bytes, aad: bytes) -> bytes | None:
        if len(payload) < self.overhead:
            return None
        try:
            return self._aead.decrypt(payload[:NONCE_BYTES], payload[NONCE_BYTES:], aad)
        except InvalidTag:
            return None


class DigestSealer:
    """No secrecy: the chunk followed by SHA-256(aad + chunk), to detect damage."""

    encrypted = False
    overhead = DIGEST_BYTES

    def seal(self, data: bytes, aad: bytes) -> bytes:
        return data + hashlib.sha256(aad + data).digest()

    def open(self, payload: bytes, aad: bytes) -> bytes | None:
        if len(payload) < DIGEST_BYTES:
            return None
        data, digest = payload[:-DIGEST_BYTES], payload[-DIGEST_BYTES:]
        return data if hashlib.sha256(aad + data).digest() == digest else None


def chunk_aad(header_digest: bytes, index: int, final: bool) -> bytes:
    """What every chunk is bound to: this archive's header, its position, being last."""
    return _AAD.pack(header_digest, index, FINAL if final else 0)


class ChunkWriter:
    """A write-only stream that cuts what it is given into sealed frames."""

    def __init__(
        self, out: BinaryIO, sealer: Sealer, header_digest: bytes, chunk_size: int = CHUNK_SIZE
    ) -> None:
        self._out = out
        self._sealer = sealer
        self._digest = header_digest
        self._size = chunk_size
        self._buffer = bytearray()
        self._index = 0
        self._closed = False

    def write(self, data: bytes) -> None:
        self._buffer += data
        while len(self._buffer) > self._size:  # keep the last bytes for the final frame
            self._emit(bytes(self._buffer[: self._size]), final=False)
            del self._buffer[: self._size]

    def close(self) -> None:
        """Write the final frame (possibly empty); nothing may be written after it."""
        if not self._closed:
            self._emit(bytes(self._buffer), final=True)
            self._buffer.clear()
            self._closed = True

    def _emit(self, data: bytes, *, final: bool) -> None:
        payload = self._sealer.seal(data, chunk_aad(self._digest, self._index, final))
        self._out.write(_FRAME.pack(FINAL if final else 0, len(payload)))
        self._out.write(payload)
        self._index += 1


class ChunkReader:
    """A read-only stream over sealed frames; every byte it returns has been verified."""

    def __init__(
        self, src: BinaryIO, sealer: Sealer, header_digest: bytes, chunk_size: int = CHUNK_SIZE
    ) -> None:
        self._src = src
        self._sealer = sealer
        self._digest = header_digest
        self._max_payload = chunk_size + sealer.overhead
        self._buffer = b""
        self._offset = 0
        self._index = 0
        self._done = False

    def read(self, size: int) -> bytes:
        """Up to `size` verified bytes; fewer only at the end of the stream."""
        parts: list[bytes] = []
        wanted = size
        while wanted > 0:
            if self._offset >= len(self._buffer):
                if self._done:
                    break
                self._buffer, self._offset = self._next_chunk(), 0
                continue
            piece = self._buffer[self._offset : self._offset + wanted]
            self._offset += len(piece)
            wanted -= len(piece)
            parts.append(piece)
        return b"".join(parts)

    def finish(self) -> None:
        """Check that the final frame was read and that nothing follows it."""
        while not self._done:
            self._buffer, self._offset = self._next_chunk(), 0
        if self._src.read(1):
            raise ArchiveCorrupt("the export file has data after its last chunk")

    def _next_chunk(self) -> bytes:
        head = self._src.read(_FRAME.size)
        if len(head) < _FRAME.size:
            raise ArchiveCorrupt(
                f"the export file is truncated (it ends before chunk {self._index}); "
                "copy it again from where it was written"
            )
        flags, length = _FRAME.unpack(head)
        if flags & ~FINAL or length > self._max_payload:
            self._fail("has an impossible frame header")
        payload = self._src.read(length)
        if len(payload) < length:
            raise ArchiveCorrupt(f"the export file is truncated inside chunk {self._index}")
        final = bool(flags & FINAL)
        data = self._sealer.open(payload, chunk_aad(self._digest, self._index, final))
        if data is None:
            self._fail("does not verify")
        self._index += 1
        self._done = final
        return data

    def _fail(self, what: str) -> NoReturn:
        if self._sealer.encrypted and self._index == 0:
            raise DecryptionFailed(
                "cannot decrypt the export: wrong passphrase, or the file was changed "
                "(its first chunk does not authenticate); nothing was restored"
            )
        raise ArchiveCorrupt(
            f"chunk {self._index} of the export {what}: the file was changed, damaged or "
            "its chunks reordered after it was written; nothing was restored"
        )
