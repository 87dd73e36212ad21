"""Secrets known by what surrounds them: a key id next to its secret, a connection string,
a signed URL, a password on a command line, an ``Authorization: Basic`` header.

Modeled on gitleaks (MIT, github.com/gitleaks/gitleaks: rules curl-auth-user,
curl-auth-header, azure-ad-client-secret) and detect-secrets (Apache-2.0,
github.com/Yelp/detect-secrets: AzureStorageKeyDetector, AWSKeyDetector's secret next to
a key id, BasicAuthDetector); the patterns are our own, bounded like every other rule.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator

from ._base import Detector, Rule, has_letter_and_digit
from ._needs import Needs

# --- a secret next to the id it belongs to -----------------------------------------------

#: How far from its id a secret may be (a CSV row, "id ... secret ..." in one sentence).
PAIR_REACH = 200

_AWS_KEY_ID = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_TWILIO_SID = re.compile(r"(?<![A-Za-z0-9])AC[0-9a-f]{32}(?![A-Za-z0-9])")
_TWILIO_TOKEN = re.compile(r"(?<![A-Za-z0-9])[0-9a-f]{32}(?![A-Za-z0-9])")


def _base64_random(value: str) -> bool:
    """A 40-char AWS secret mixes upper, lower and digits; a 40-hex git SHA has no upper."""
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def _hex_random(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _pairs(
    text: str, anchor: re.Pattern[str], secret: re.Pattern[str], check: Callable[[str], bool]
) -> Iterator[tuple[int, int]]:
    """Spans of ``secret`` matches within PAIR_REACH characters of an ``anchor`` match."""
    for found in anchor.finditer(text):
        start = max(0, found.start() - PAIR_REACH)
        stop = min(len(text), found.end() + PAIR_REACH)
        # Searched a little past ``stop``: a candidate starting by ``stop`` ends well
        # before ``limit``, so its lookahead sees real text, never a cut.
        limit = min(len(text), stop + 64)
        for candidate in secret.finditer(text, start, limit):
            if candidate.start() > stop:
                break
            if candidate.start() >= found.start() and candidate.end() <= found.end():
                continue
            if check(candidate.group()):
                yield candidate.span()


def aws_secret_near_key_id(text: str) -> Iterator[tuple[int, int]]:
    """An AWS secret access key without the word "secret": 40 base64 characters near an
    AKIA/ASIA key id (``aws configure`` output, a credentials CSV, a pasted pair)."""
    return _pairs(text, _AWS_KEY_ID, _AWS_SECRET, _base64_random)


def twilio_token_near_sid(text: str) -> Iterator[tuple[int, int]]:
    """A Twilio auth token (32 hex characters) near its account SID (AC + 32 hex)."""
    return _pairs(text, _TWILIO_SID, _TWILIO_TOKEN, _hex_random)


PAIR_DETECTORS: tuple[Detector, ...] = (
    Detector(
        "aws_secret_access_key",
        aws_secret_near_key_id,
        Needs(any_of=("AKIA", "ASIA"), run=True),
    ),
    Detector("twilio_key", twilio_token_near_sid, Needs(any_of=("AC",), run=True)),
)

# --- connection strings, signed URLs, command lines, headers ----------------------------

_PLACEHOLDER = re.compile(r"[$<{%\[]|\*{3}|(?i:x{4})")


def _quoted_or_bare(match: re.Match[str]) -> tuple[int, int]:
    for group in ("sq", "dq", "bare"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.span(group)
    return match.span()  # pragma: no cover - the patterns always capture one group


def _command_line_spans(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int]]:
    for match in pattern.finditer(text):
        start, end = _quoted_or_bare(match)
        if end > start and not _PLACEHOLDER.match(text, start):
            yield start, end


_VALUE = r"""(?:'(?P<sq>[^'\n]{1,256})'|"(?P<dq>[^"\n]{1,256})"|(?P<bare>[^\s'"`]{1,256}))"""
_SSHPASS = re.compile(rf"(?<![A-Za-z0-9_-])sshpass\b[^\n]{{0,80}}?(?<=[ \t])-p[ \t]{{0,3}}{_VALUE}")
# mysql -pSECRET (no space: with one, "-p" asks for the password instead).
_MYSQL = re.compile(
    r"(?<![A-Za-z0-9_-])(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,120}?(?<=[ \t])"
    r"-p(?P<bare>[^\s'\"`-][^\s'\"`]{0,255})"
)
# curl -u user:password: the password after the colon is the secret.
_CURL_USER = re.compile(
    r"(?<![A-Za-z0-9_-])curl\b[^\n]{0,200}?(?<=[ \t])(?:-u|--user)(?:[ \t]{1,3}|=)['\"]?"
    r"[^\s:'\"]{1,64}:(?P<bare>[^\s'\"]{1,256})"
)


def command_line_spans(text: str) -> Iterator[tuple[int, int]]:
    """Passwords given on a command line: ``sshpass -p``, ``mysql -p...``, ``curl -u``."""
    for pattern in (_SSHPASS, _MYSQL, _CURL_USER):
        yield from _command_line_spans(pattern, text)


def _decodes_to_user_password(match: re.Match[str]) -> bool:
    """``Basic`` credentials are base64 of "user:password"; prose after "basic" is not."""
    value = match.group("secret")
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded[1:] and all(32 <= byte < 127 for byte in decoded)


def _signature_value(match: re.Match[str]) -> bool:
    value = match.group("secret")
    return len(value) >= 16 and any(c.isdigit() or c == "%" for c in value)


CONTEXT_RULES: tuple[Rule, ...] = (
    Rule(
        "azure_storage_key",
        # DefaultEndpointsProtocol=...;AccountName=...;AccountKey=<88 base64>;... and the
        # Service Bus / Event Hubs SharedAccessKey=.
        re.compile(
            r"(?i)(?<![a-z0-9])(?:accountkey|sharedaccesskey)[ \t]{0,3}=[ \t]{0,3}"
            r"(?P<secret>[a-z0-9+/]{20,200}={0,2})(?![a-z0-9+/=])"
        ),
        has_letter_and_digit,
        needs=Needs(any_of=("accountkey", "sharedaccesskey"), all_of=("=",), folded=True),
    ),
    Rule(
        "url_signature",
        # A SAS token's sig=, an S3/GCS presigned URL's signature and session token.
        re.compile(
            r"(?i)(?<![a-z0-9])(?:sig|signature|x-amz-signature|x-goog-signature"
            r"|x-amz-security-token)=(?P<secret>[a-z0-9%+/_=.-]{16,2000})"
        ),
        _signature_value,
        needs=Needs(any_of=("sig=", "signature=", "security-token="), all_of=("=",), folded=True),
    ),
    Rule(
        "basic_auth",
        re.compile(
            r"(?i)(?<![a-z0-9])basic[ \t]{1,3}"
            r"(?P<secret>[a-z0-9+/]{8,1024}={0,2})(?![a-z0-9+/=])"
        ),
        _decodes_to_user_password,
        needs=Needs(any_of=("basic",), folded=True),
    ),
    Rule(
        "service_token",
        # Azure AD (Entra) client secret: three characters, a digit, "Q~", then 31-34.
        re.compile(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}"),
        has_letter_and_digit,
        needs=Needs(any_of=("Q~",)),
    ),
)

COMMAND_LINE_DETECTOR = Detector(
    "cli_password",
    command_line_spans,
    Needs(any_of=("sshpass", "mysql", "mariadb", "curl")),
)

#: The expressions the finders above run (every match bounded, like every rule's).
CONTEXT_PATTERNS: tuple[re.Pattern[str], ...] = (
    *(_AWS_KEY_ID, _AWS_SECRET, _TWILIO_SID, _TWILIO_TOKEN),
    *(_SSHPASS, _MYSQL, _CURL_USER),
)
