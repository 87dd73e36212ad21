"""Credentials in ``name=value`` pairs whose name says so: URL query strings
(RFC 3986 ``query``, ``application/x-www-form-urlencoded``) and cookies (RFC 6265
``Cookie:`` and ``Set-Cookie:``), whoever the vendor.

The name decides how much the value must prove. ``access_token=``, ``client_secret=``,
``sessionid=``, ``X-Amz-Signature=``: any value of 8+ characters with a letter and a digit
(a name in SCREAMING_CASE or a placeholder stays). ``key=``, ``sig=``, ``appid=``,
``sid=``: the value must look random. Any other name (``id=42``, ``page=3``,
``utm_source=newsletter``) is an ordinary parameter; in a cookie, a value that looks
random is a session whatever its name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._base import is_placeholder, looks_random, shannon_entropy, wordlike_share
from ._needs import Needs

QUERY_PAIR = re.compile(
    r"[?&;](?P<name>[A-Za-z][A-Za-z0-9_.-]{0,40})=(?P<value>[^\s&#;\"'<>`]{1,2048})"
)
QUERY_NEEDS = Needs(any_of=("?", "&", ";"), all_of=("=",))

COOKIE = re.compile(
    r"(?i)(?<![a-z0-9-])(?:set-)?cookie[ \t]{0,3}:[ \t]{0,3}"
    r"(?P<pairs>[^\s=;,\"']{1,64}=[^\r\n]{0,4096})"
)
COOKIE_NEEDS = Needs(any_of=("cookie",), all_of=("=",), folded=True)
_COOKIE_PAIR = re.compile(
    r"(?P<name>[^\s=;,\"']{1,64})=(?P<value>\"[^\"]{0,2048}\"|[^\s;,\"'`]{0,2048})"
)

#: Words that make a parameter or cookie name a credential's (compared casefolded,
#: without "_", "-" and "."): the value needs a letter and a digit.
_STRONG = re.compile(
    "token|secret|passw|pwd|passphrase|session|credential|jwt|apikey|accesskey|privatekey"
    "|signature|csrf|xsrf|remember"
)
#: Names the value of which must look random too: short, or used for ordinary things.
_WEAK_EXACT = frozenset({"key", "sig", "sid", "appid", "auth", "pass", "pw", "hash", "code"})
_WEAK_ENDINGS = ("key", "sig", "sid", "auth")
#: Names that hold a secret word but name a column or a setting.
_ORDINARY = frozenset(
    {"primarykey", "sortkey", "partitionkey", "foreignkey", "keyword", "keywords", "keyid"}
    | {"keyname", "keytype", "tokentype", "sessionstate", "rememberme", "passwordreset"}
)
_COOKIE_ATTRIBUTES = frozenset(
    {"path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "priority"}
    | {"partitioned", "version", "comment"}
)
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_SEPARATORS = str.maketrans("", "", "_-.")
#: Every name ``name_strength`` does not call ordinary holds one of these.
_MAY_NAME_A_CREDENTIAL = re.compile(
    r"(?i)to|sec|pass|pwd|pw|sess|cred|jwt|key|sig|sid|auth|appid|csrf|xsrf|rem|code|hash"
)
_SCREAMING_CASE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_PLACEHOLDER_STARTS = ("$", "<", "{", "%s", "[", "*")
_VALUE_END = ".,:!)]}*"


_TOKEN_CHARS = re.compile(r"[A-Za-z0-9+/=_~-]{16,}")
_DIGIT_RUN = re.compile(r"[0-9]+")
_MIN_DIGIT_RUNS = 3


def looks_like_token(value: str) -> bool:
    """``looks_random``, or one of two random draws it leaves to a keyword: lowercase
    letters and digits whose letter runs happen to read as syllables (digits scattered in
    3+ runs, where a name ends in one: "christopherjohnson1985"), and letters alone of
    mixed case with no pronounceable piece."""
    if looks_random(value):
        return True
    if not _TOKEN_CHARS.fullmatch(value) or shannon_entropy(value) < 3.5:
        return False
    if len(_DIGIT_RUN.findall(value)) >= _MIN_DIGIT_RUNS:
        return any(c.isalpha() for c in value)
    return (
        value.isalpha()
        and not value.isupper()
        and not value.islower()
        and wordlike_share(value) <= 0.2
    )


#: How word-like a value a key name points at may still read (``looks_random`` allows
#: 0.4): a random draw of 20-30 characters reads as syllables in places by chance.
_MAX_KEYED_WORDLIKE = 0.7
_MIN_KEYED_ENTROPY = 4.5


def looks_keyed(value: str) -> bool:
    """Whether a value that a key name points at (``/webhooks/<id>/``, ``X_KEY=``,
    ``https://<user>@``) is a random credential: ``looks_like_token``, or 16+ token
    characters mixing letters and digits, of high entropy, whose case is mixed or whose
    digits are scattered, and not mostly words ("production-key-v2-2024" is)."""
    if looks_like_token(value):
        return True
    if not _TOKEN_CHARS.fullmatch(value) or shannon_entropy(value) < 3.5:
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    mixed_case = not value.isupper() and not value.islower()
    if not (mixed_case or len(_DIGIT_RUN.findall(value)) >= 2):
        return False
    # Upper-case runs of a random draw ("SXUXIAA") read as pieces too: past 4.5 bits a
    # character, more than long identifiers reach (4.0-4.3), the draw is random anyway.
    if mixed_case and shannon_entropy(value) >= _MIN_KEYED_ENTROPY:
        return True
    return wordlike_share(value) <= _MAX_KEYED_WORDLIKE


def name_strength(name: str) -> int:
    """2 for a name that says credential, 1 for one that may, 0 for an ordinary one."""
    if not _MAY_NAME_A_CREDENTIAL.search(name):
        return 0  # most names ("id", "page", "utm_source"), for one search
    folded = name.casefold().translate(_SEPARATORS)
    if folded in _ORDINARY:
        return 0
    if _STRONG.search(folded):
        return 2
    if folded in _WEAK_EXACT or folded.endswith(_WEAK_ENDINGS) or folded.startswith("auth"):
        return 1
    return 0


def credential_value(value: str, strength: int) -> bool:
    """Whether ``value`` (percent escapes and all) is a credential under a name of
    ``strength`` (see ``name_strength``)."""
    if not value or value.startswith(_PLACEHOLDER_STARTS) or _SCREAMING_CASE.fullmatch(value):
        return False
    core = _PERCENT_ESCAPE.sub("", value)
    if is_placeholder(core):
        return False
    if looks_like_token(core) or (strength > 1 and looks_keyed(core)):
        return True
    if strength < 2 or len(core) < 8:
        return False
    if core.isalpha():
        # A session id of letters alone ("kuttUWgJyjmIAdhvabEagtpl") still mixes case.
        return len(core) >= 16 and not core.isupper() and not core.islower()
    return any(c.isdigit() for c in core) and any(c.isalpha() for c in core)


def query_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values of query parameters whose name says credential (``?access_token=...``)."""
    for match in QUERY_PAIR.finditer(text):
        strength = name_strength(match.group("name"))
        if not strength:
            continue
        start, end = match.span("value")
        while end > start and text[end - 1] in _VALUE_END:
            end -= 1
        if credential_value(text[start:end], strength):
            yield start, end


def cookie_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values in a ``Cookie:`` or ``Set-Cookie:`` header: a session's, a token's, or any
    that looks random (attributes such as ``Path`` and ``Max-Age`` aside)."""
    for header in COOKIE.finditer(text):
        offset = header.start("pairs")
        for pair in _COOKIE_PAIR.finditer(header.group("pairs")):
            name = pair.group("name")
            if name.casefold() in _COOKIE_ATTRIBUTES:
                continue
            start, end = pair.span("value")
            if pair.group("value").startswith('"'):
                start, end = start + 1, end - 1
            # Any cookie value that looks random is a session's; a named one needs less.
            strength = 2 if name_strength(name) else 1
            if credential_value(pair.string[start:end], strength):
                yield offset + start, offset + end
