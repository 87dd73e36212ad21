"""Private keys without their armour: PEM bodies whose BEGIN/END lines were lost, and the
private lines of PuTTY ``.ppk`` files.

A PEM body is base64 of DER (RFC 7468). What makes one private is the ASN.1 it opens
with, read from its first few dozen bytes:
- PKCS#1 RSA and DSA keys (RFC 8017 A.1.2): SEQUENCE { INTEGER 0, INTEGER modulus ... },
  ``MIIE...``/``MIIC...``;
- PKCS#8 (RFC 5208/5958): SEQUENCE { INTEGER 0|1, SEQUENCE algorithm, OCTET STRING };
- SEC1 EC keys (RFC 5915): SEQUENCE { INTEGER 1, OCTET STRING }, ``MHcCAQEE...``;
- PKCS#12 stores (RFC 7292): SEQUENCE { INTEGER 3, SEQUENCE ... };
- encrypted PKCS#8: SEQUENCE { SEQUENCE { OID of PKCS#5 or PKCS#12 PBE }, ... };
- OpenSSH keys (openssh PROTOCOL.key): base64 of "openssh-key-v1\\0",
  ``b3BlbnNzaC1rZXktdjE``.
Certificates, public keys (SubjectPublicKeyInfo, PKCS#1 public) and CSRs open otherwise
and stay. A PuTTY key (the PuTTY manual, appendix C "PPK file format") lists its private
part as ``Private-Lines: N`` then N base64 lines, then ``Private-MAC:``.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

# --- PEM bodies ---------------------------------------------------------------------------

_OPENSSH = "b3BlbnNzaC1rZXktdjE"
#: The first chunk of a body: DER's SEQUENCE tag 0x30 is base64 "M".
PEM_BODY = re.compile(
    rf"(?<![A-Za-z0-9+/=])(?:M|{_OPENSSH})[A-Za-z0-9+/]{{15,4000}}={{0,2}}(?![A-Za-z0-9+/=])"
)
# A following line of the same body: separated by a line break (or by the spaces a
# collapsed paste leaves).
_NEXT_CHUNK = re.compile(
    r"[ \t]{0,4}\r?\n?[ \t]{0,4}([A-Za-z0-9+/]{1,4000}={0,2})(?![A-Za-z0-9+/=])"
)
#: How far a body may run from its first character (a 4096-bit RSA key is ~3,200).
MAX_BODY = 10_000
_PBE_OIDS = (bytes.fromhex("2a864886f70d0105"), bytes.fromhex("2a864886f70d010c01"))


def _length_end(data: bytes, position: int) -> int | None:
    """Where the content of the DER element whose length byte is at ``position`` starts."""
    if position >= len(data):
        return None
    first = data[position]
    if first < 0x80:
        return position + 1
    count = first & 0x7F
    return position + 1 + count if 1 <= count <= 3 else None


def is_private_key_der(data: bytes) -> bool:
    """Whether ``data`` opens like one of the private key structures the module lists."""
    if len(data) < 12 or data[0] != 0x30:
        return False
    inner = _length_end(data, 1)
    if inner is None or inner + 4 > len(data):
        return False
    tag = data[inner]
    if tag == 0x02:
        # A one-byte version, then what each structure has next.
        if data[inner + 1] != 1:
            return False
        version, following = data[inner + 2], data[inner + 3]
        return (version in (0, 1) and following in (0x02, 0x30, 0x04)) or (
            version == 3 and following == 0x30
        )
    if tag == 0x30:
        algorithm = _length_end(data, inner + 1)
        if algorithm is None or algorithm + 2 > len(data) or data[algorithm] != 0x06:
            return False
        oid = data[algorithm + 2 : algorithm + 2 + data[algorithm + 1]]
        return any(oid.startswith(prefix) for prefix in _PBE_OIDS)
    return False


def _decodes_to_private_key(body: str) -> bool:
    if body.startswith(_OPENSSH):
        return True
    head = body[:64]
    head = head[: len(head) // 4 * 4]
    try:
        data = base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False
    return is_private_key_der(data)


#: The line widths PEM writers wrap at (OpenSSL 64, OpenSSH 70, MIME 76).
_LINE_WIDTHS = range(60, 81)


def _body_end(text: str, first: re.Match[str]) -> int:
    """The end of the body ``first`` opens: lines as wide as the first, then a shorter
    last one that completes the base64 (a word of prose after the body does not)."""
    width = first.end() - first.start()
    if width not in _LINE_WIDTHS or first.group().endswith("="):
        return first.end()
    end, total = first.end(), width
    limit = first.start() + MAX_BODY
    while end < limit:
        following = _NEXT_CHUNK.match(text, end)
        if following is None or following.end() > limit:
            break
        chunk = following.group(1)
        if len(chunk) == width and not chunk.endswith("="):
            end, total = following.end(), total + width
            continue
        if len(chunk) <= width and (total + len(chunk)) % 4 == 0:
            end = following.end()
        break
    return end


def pem_body_spans(text: str) -> Iterator[tuple[int, int]]:
    """Base64 blocks that decode to the opening of a private key's DER."""
    position = 0
    for first in PEM_BODY.finditer(text):
        if first.start() < position:
            continue
        joined = first.group()
        if len(joined) < 64:
            # A short first line: read on into the next one before deciding.
            following = _NEXT_CHUNK.match(text, first.end())
            joined += following.group(1) if following else ""
        if len(joined) >= 40 and _decodes_to_private_key(joined):
            position = _body_end(text, first)
            yield first.start(), position


# --- PuTTY keys ---------------------------------------------------------------------------

PPK_PRIVATE = re.compile(r"Private-Lines:[ \t]{0,4}(?P<count>[0-9]{1,3})")
_PPK_LINE = re.compile(r"\s{1,4}([A-Za-z0-9+/]{1,200}={0,2})(?![A-Za-z0-9+/=])")
_PPK_MAC = re.compile(r"\s{1,4}Private-(?:MAC|Hash):[ \t]{0,4}[0-9a-fA-F]{1,128}")


def ppk_private_spans(text: str) -> Iterator[tuple[int, int]]:
    """The private lines of a ``.ppk`` key and its MAC (the line counts stay readable)."""
    for header in PPK_PRIVATE.finditer(text):
        end = header.end()
        start = None
        for _ in range(min(int(header.group("count")), 60)):
            line = _PPK_LINE.match(text, end)
            if line is None:
                break
            start = line.start(1) if start is None else start
            end = line.end()
        mac = _PPK_MAC.match(text, end)
        if mac is not None:
            end = mac.end()
        if start is not None:
            yield start, end
