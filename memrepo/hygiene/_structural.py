"""Secrets known by the structure around them, whoever the vendor: credentials in a URL
(userinfo, a path segment, a query parameter), cookies, and the token after an
``Authorization`` scheme word.

The URL rules live in ``_urls``, the ``name=value`` rules of query strings and cookies in
``_query``; this module ranks them among the detectors.
"""

from __future__ import annotations

import re

from ._base import Detector, Finder, Rule, has_letter_and_digit
from ._needs import Needs
from ._query import COOKIE, COOKIE_NEEDS, QUERY_NEEDS, QUERY_PAIR, cookie_spans, query_spans
from ._urls import (
    PATH_SEGMENT,
    PATH_SEGMENT_NEEDS,
    USERINFO,
    USERINFO_NEEDS,
    url_path_spans,
    userinfo_spans,
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

#: Detectors ranked before the keyword assignment rule. A query parameter or a cookie
#: is a ``name=value`` pair: it is reported as an assignment, like ``?token=`` always was.
DETECTORS: tuple[Detector, ...] = (
    Detector("url_credentials", userinfo_spans, USERINFO_NEEDS),
    Detector("url_credentials", url_path_spans, PATH_SEGMENT_NEEDS),
    Detector("assignment", query_spans, QUERY_NEEDS),
    Detector("assignment", cookie_spans, COOKIE_NEEDS),
)

#: Detectors ranked after it (their kind is the vaguest).
LAST_DETECTORS: tuple[Detector, ...] = (Detector(BEARER.kind, BEARER.spans, BEARER.needs),)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    userinfo_spans: (USERINFO,),
    url_path_spans: (PATH_SEGMENT,),
    query_spans: (QUERY_PAIR,),
    cookie_spans: (COOKIE,),
    BEARER.spans: (BEARER.pattern,),
}
