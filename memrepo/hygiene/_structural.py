"""Secrets known by the structure around them, whoever the vendor: credentials in a URL,
and the token after an ``Authorization`` scheme word.
"""

from __future__ import annotations

import re

from ._base import Detector, Finder, Rule, has_letter_and_digit
from ._needs import Needs

_URL_CREDENTIALS = Rule(
    "url_credentials",
    re.compile(
        r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,20}://"
        r"(?P<secret>[^\s/@:]{1,128}:[^\s/@]{1,256})@"
    ),
    # ":", "/" and "@" are uncased: (?i) matches each only to itself.
    needs=Needs(any_of=("://",), all_of=("@",), folded=True),
)

BEARER = Rule(
    "assignment",
    # "Authorization: Bearer <token>" (and Okta's "SSWS <token>"): the token after the
    # scheme word is the value.
    re.compile(
        r"(?i)(?<![a-z0-9])(?:bearer|ssws)[ \t]{1,3}"
        r"(?P<secret>[A-Za-z0-9._~+/-]{15,1024}[A-Za-z0-9_~+/-]={0,2})(?![A-Za-z0-9_~+/=-])"
    ),
    has_letter_and_digit,
    needs=Needs(any_of=("bearer", "ssws"), folded=True),
)

#: Detectors ranked before the keyword assignment rule.
DETECTORS: tuple[Detector, ...] = (
    Detector(_URL_CREDENTIALS.kind, _URL_CREDENTIALS.spans, _URL_CREDENTIALS.needs),
)

#: Detectors ranked after it (their kind is the vaguest).
LAST_DETECTORS: tuple[Detector, ...] = (Detector(BEARER.kind, BEARER.spans, BEARER.needs),)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    _URL_CREDENTIALS.spans: (_URL_CREDENTIALS.pattern,),
    BEARER.spans: (BEARER.pattern,),
}
