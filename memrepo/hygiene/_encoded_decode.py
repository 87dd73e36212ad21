"""Secrets inside base64 or hex: decode a run and look for a secret in what it says.

A config value, a Kubernetes secret or a Docker ``auth`` field often carries a credential
base64-encoded (``dXNlcjpnaHBf...``), a PEM key as ``LS0tLS1CRUdJTi...``, a token as hex.
The run is decoded (standard or URL-safe alphabet, padded or not; hex of even length),
kept only when it decodes to text, and that text is screened by the same detectors as
any other. A run whose text holds a secret is redacted whole; base64 of ordinary text,
hashes and digests (which decode to bytes that are not text) stay.

Bounded: a run is decoded up to ``MAX_ENCODED`` characters, and the decoded text is
screened at most ``MAX_DEPTH`` encodings deep (base64 of base64 of a token), never by a
loop.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Iterator

from ._base import Detector
from ._needs import run_haystack

#: The longest run decoded (a 4096-bit PEM key in base64 is ~4,400 characters).
MAX_ENCODED = 8_000
#: Encodings looked through: base64 of a key, and base64 of that.
MAX_DEPTH = 2
#: A decoded text shorter than this cannot hold a secret any rule finds.
_MIN_DECODED = 8

ENCODED_RUN = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,8000}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_RUN = re.compile(r"(?:[0-9a-f]{2})+|(?:[0-9A-F]{2})+")


def _as_text(data: bytes) -> str | None:
    """``data`` as text if it reads as text: UTF-8, no control characters but whitespace."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < _MIN_DECODED or any(
        (ord(char) < 32 and char not in "\t\r\n") or ord(char) == 127 for char in text
    ):
        return None
    return text


def decoded_texts(run: str) -> Iterator[str]:
    """The texts ``run`` decodes to: as hex (when it is hex) and as base64."""
    if _HEX_RUN.fullmatch(run):
        text = _as_text(bytes.fromhex(run))
        if text is not None:
            yield text
    body = run.rstrip("=")
    if ("-" in body or "_" in body) and ("+" in body or "/" in body):
        return
    if len(body) % 4 == 1:
        return
    try:
        data = base64.b64decode(
            body.replace("-", "+").replace("_", "/") + "=" * (-len(body) % 4), validate=True
        )
    except (binascii.Error, ValueError):
        return
    text = _as_text(data)
    if text is not None:
        yield text


class EncodedSecrets:
    """The finder of base64 and hex runs whose decoded text holds a secret.

    ``inner`` gives the detectors that may find something in a text (``_rules`` passes its
    own ``detectors_for`` with the person's rules): this module cannot import them, since
    they list this finder among themselves.
    """

    def __init__(self, inner: Callable[[str], Iterable[Detector]]) -> None:
        self._inner = inner

    def __call__(self, text: str) -> Iterator[tuple[int, int]]:
        """Base64 and hex runs of ``text`` whose decoded text holds a secret."""
        return self._spans(text, 0)

    def _spans(self, text: str, depth: int) -> Iterator[tuple[int, int]]:
        if not run_haystack(text):
            return
        for match in ENCODED_RUN.finditer(text):
            run = match.group()[:MAX_ENCODED]
            if any(self._holds_secret(decoded, depth) for decoded in decoded_texts(run)):
                yield match.span()

    def _holds_secret(self, text: str, depth: int) -> bool:
        """Whether any detector (this one again, one level deeper) finds a secret."""
        for detector in self._inner(text):
            if detector.find is self:
                if depth + 1 < MAX_DEPTH and any(self._spans(text, depth + 1)):
                    return True
                continue
            if any(end > start for start, end in detector.find(text)):
                return True
        return False
