"""Secrets in an encoding: JSON Web Tokens.

A JWT is ``header.payload.signature`` in base64url; a header that opens with ``{"``
encodes to ``eyJ``. The signature may be empty (alg "none"), which is still a bearer
credential.
"""

from __future__ import annotations

import re

from ._base import Detector, Finder, Rule
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

#: This module's detectors, most specific first.
DETECTORS: tuple[Detector, ...] = (Detector(_JWT.kind, _JWT.spans, _JWT.needs),)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {_JWT.spans: (_JWT.pattern,)}
