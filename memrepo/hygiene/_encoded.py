"""Secrets in an encoding: JSON Web Tokens, private keys without their armour, and base64
or hex that decodes to a secret.

A JWT is ``header.payload.signature`` in base64url (RFC 7519, RFC 7515 §7.1); its header
is a JSON object, whose ``{`` always encodes to ``e``. A header that opens ``{"`` encodes
to ``eyJ``; pretty-printed or spaced ones to ``ewog`` (``{\\n``), ``ew0K`` (``{\\r\\n``),
``ewk`` (``{\\t``), ``eyAi`` (``{ "``), and an empty one ``{}`` to ``e30``. The ``eyJ``
rule takes any such triple (the form every library writes); the others decode the header
and accept a JSON object naming ``alg``, ``typ``, ``enc`` or ``kid`` (or an empty header
before a JSON payload). The signature may be empty (alg "none"), still a bearer credential.

``_encoded_keys`` finds PEM bodies and PuTTY private lines. ``_encoded_decode`` finds base64
and hex runs that decode to a secret; it screens the decoded text with every detector, so
``_rules`` builds it (``DECODED``) with its own ``detectors_for``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from ._base import Detector, Finder, Rule
from ._encoded_keys import PEM_BODY, PPK_PRIVATE, pem_body_spans, ppk_private_spans
from ._needs import Needs

_JWT = Rule(
    "jwt",
    re.compile(
        r"(?<![A-Za-z0-9_-])"
        r"eyJ[A-Za-z0-9_-]{5,1500}\.[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{0,1500}"
        r"(?![A-Za-z0-9_-])"
    ),
    needs=Needs(any_of=("eyJ",)),
)

_HEADER_KEYS = frozenset({"alg", "typ", "enc", "kid", "cty", "jku", "x5t"})


def _json_object(segment: str) -> dict[str, object] | None:
    """The JSON object a base64url segment encodes, or None."""
    try:
        data = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        value = json.loads(data.decode("utf-8"))
    except (binascii.Error, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _json_header(match: re.Match[str]) -> bool:
    header_segment, payload_segment, _ = match.group().split(".", 2)
    header = _json_object(header_segment)
    if header is None:
        return False
    if header:
        return not _HEADER_KEYS.isdisjoint(header)
    return _json_object(payload_segment) is not None


_JWT_OTHER_HEADER = Rule(
    "jwt",
    re.compile(
        r"(?<![A-Za-z0-9_-])"
        # A header of 16+ characters is a long run; an empty one ("e30") is followed by a
        # payload that is one: either way the run gate holds for every match.
        r"e(?:(?:w|yA)[A-Za-z0-9_-]{14,1500}\.[A-Za-z0-9_-]{2,8000}|30\.[A-Za-z0-9_-]{16,8000})"
        r"\.[A-Za-z0-9_-]{0,1500}"
        r"(?![A-Za-z0-9_-])"
    ),
    _json_header,
    # Every such token has a long run (its header or its payload) with the opening in it
    # or just before it: ``{}`` is "e30", then the payload.
    needs=Needs(any_of=("ew", "eyA", "e30"), run=True),
)

_PEM_BODY_NEEDS = Needs(any_of=("M", "b3BlbnNzaC1rZXktdjE"), run=True)
_PPK_NEEDS = Needs(any_of=("Private-Lines:",))

#: This module's detectors, most specific first.
DETECTORS: tuple[Detector, ...] = (
    Detector(_JWT.kind, _JWT.spans, _JWT.needs),
    Detector(_JWT_OTHER_HEADER.kind, _JWT_OTHER_HEADER.spans, _JWT_OTHER_HEADER.needs),
    Detector("private_key", pem_body_spans, _PEM_BODY_NEEDS),
    Detector("private_key", ppk_private_spans, _PPK_NEEDS),
    # Any base64 or hex run of 16+ characters: run-gated, no literal.
)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    _JWT.spans: (_JWT.pattern,),
    _JWT_OTHER_HEADER.spans: (_JWT_OTHER_HEADER.pattern,),
    pem_body_spans: (PEM_BODY,),
    ppk_private_spans: (PPK_PRIVATE,),
}
