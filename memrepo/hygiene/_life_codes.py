"""Wi-Fi passwords, account recovery codes and 2FA seeds.

- Wi-Fi QR strings follow ZXing's ``WIFI:`` grammar
  (github.com/zxing/zxing/wiki/Barcode-Contents#wi-fi-network-config-android-ios-11):
  ``WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;``, fields in any order, ``\\;``, ``\\,``,
  ``\\:`` and ``\\\\`` escaped. The ``P`` field is the secret.
- A Wi-Fi password in prose: a Wi-Fi word, then a password word, then the value
  ("the wifi password is ...", "WLAN key: ..."); WPA passphrases are 8 to 63 characters.
- Recovery and backup codes (GitHub's ``xxxxx-xxxxx``, Google's ``1234 5678``, 10-12
  character codes, BitLocker's eight groups of six digits) listed after "recovery codes",
  "backup codes" and the like: the list is redacted as one.
- TOTP seeds: the ``secret`` of an ``otpauth://`` URI (Google Authenticator's key URI
  format, github.com/google/google-authenticator/wiki/Key-Uri-Format) and a base32 seed
  next to "2FA/TOTP/authenticator" and "secret/key".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._assign import assignment_spans
from ._base import Rule, is_placeholder, secret_of, wordlike_share
from ._needs import Needs

# --- Wi-Fi -----------------------------------------------------------------------------

#: The needs of both Wi-Fi finders (each literal costs every text a lookup: few, short).
WIFI_NEEDS = Needs(any_of=("wifi", "wi-fi", "wlan", "ssid"), folded=True)
_TRAILING = ".,;:!?)"
_FIELD_VALUE = r"(?:[^;\\\r\n]|\\[^\r\n]){0,100}"
WIFI_QR = Rule(
    "wifi_password",
    re.compile(
        rf"(?i)WIFI:(?:[A-Z0-9]{{1,3}}:{_FIELD_VALUE};){{0,8}}?"
        r"P:(?P<secret>(?:[^;\\\r\n]|\\[^\r\n]){1,100})"
    ),
    lambda match: not is_placeholder(secret_of(match)),
    needs=WIFI_NEEDS,
)

WIFI_PROSE = re.compile(
    r"(?i)(?<![a-z0-9])(?:wi-?fi|wlan|ssid)(?![a-z0-9])[^\n]{0,40}?"
    r"(?<![a-z0-9])(?:password|passphrase|passcode|passwd|pass|pw|pwd|key|psk)(?![a-z0-9])"
    r"[ \t]{0,3}(?P<sep>is|=|:|-)?[ \t]{0,3}"
    r"""(?:"(?P<dq>[^"\n]{8,63})"|'(?P<sq>[^'\n]{8,63})'|(?P<bare>[^\s"']{8,63}))"""
    r"(?![^\s\"'])"
)


def wifi_prose_spans(text: str) -> Iterator[tuple[int, int]]:
    """The value after "wifi password is", "WLAN key:": quoted, or one word that reads as
    a password (a digit, a capital inside or a symbol; a plain word only after ":"/"=").

    A value the assignment rule redacts anyway ("my wifi password is 2fast4you!") is left
    to it, so it keeps the kind it has always been reported as.
    """
    matches = list(WIFI_PROSE.finditer(text))
    if not matches:
        return
    assigned = list(assignment_spans(text))
    for start, end in _wifi_values(text, matches):
        if not any(a_start < end and start < a_end for a_start, a_end in assigned):
            yield start, end


def _wifi_values(text: str, matches: list[re.Match[str]]) -> Iterator[tuple[int, int]]:
    for match in matches:
        for group in ("dq", "sq"):
            if match.group(group) is not None:
                if not is_placeholder(match.group(group)):
                    yield match.span(group)
                break
        else:
            start, end = match.span("bare")
            while end > start and text[end - 1] in _TRAILING:
                end -= 1
            value = text[start:end]
            if len(value) >= 8 and _password_like(value, match.group("sep")):
                yield start, end


def _password_like(value: str, separator: str | None) -> bool:
    if is_placeholder(value) or value.lower().startswith(("http", "www.")):
        return False
    plain = value.isalpha() and (value.islower() or value[1:].islower())
    if not plain:
        return True
    return separator in {":", "="}


# --- recovery codes ---------------------------------------------------------------------

RECOVERY_CONTEXT = re.compile(
    r"(?i)(?<![a-z0-9])(?:recovery|backup|2fa|mfa)[ \t_-]{0,3}(?:codes?|keys?|tokens?)"
    r"(?![a-z0-9])"
)
RECOVERY_NEEDS = Needs(any_of=("recovery", "backup", "2fa", "mfa"), folded=True)
_CODE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8}){1,7}|[0-9]{4} [0-9]{4}"
    r"|[0-9]{3} [0-9]{3}|[A-Za-z0-9]{6,20})(?![A-Za-z0-9-])"
)
_CODE_GAP = re.compile(r"[\s,;|*\u2022\u00b7\"'`()\[\]]{0,6}(?:[0-9]{1,2}[.)][ \t]{1,3})?")
#: How far after its context word the first code may start, and how many codes a list has.
_INTRO = 60
_MAX_CODES = 32


def _is_code(value: str) -> bool:
    """A code has a digit, and no group of letters alone ("PROJ-1234" is a ticket)."""
    if not any(char.isdigit() for char in value):
        return False
    groups = value.replace(" ", "-").split("-")
    if any(group.isalpha() for group in groups):
        return False
    return not is_placeholder(value.replace("-", "").replace(" ", ""))


def _code_list(text: str, position: int) -> tuple[int, int] | None:
    """The span of the codes listed from ``position`` on, or None if no code is there."""
    stop = min(len(text), position + _INTRO + 80)
    first = next(
        (
            code
            for code in _CODE.finditer(text, position, stop)
            if code.start() <= position + _INTRO and _is_code(code.group())
        ),
        None,
    )
    if first is None:
        return None
    start, end = first.span()
    for _ in range(_MAX_CODES):
        gap = _CODE_GAP.match(text, end)
        following = _CODE.match(text, gap.end()) if gap else None
        if following is None or not _is_code(following.group()):
            break
        end = following.end()
    return start, end


def recovery_code_spans(text: str) -> Iterator[tuple[int, int]]:
    """Codes listed after "recovery codes", "backup codes", "2FA codes" and the like."""
    position = 0
    for context in RECOVERY_CONTEXT.finditer(text):
        if context.start() < position:
            continue
        span = _code_list(text, context.end())
        if span is not None:
            yield span
            position = span[1]


# --- TOTP seeds -------------------------------------------------------------------------

OTPAUTH = Rule(
    "totp_secret",
    re.compile(
        r"(?i)otpauth://[a-z]{4}/[^\s?#]{0,200}\?(?:[^\s#&]{0,200}&){0,8}"
        r"secret=(?P<secret>[a-z2-7=%]{8,256})"
    ),
    needs=Needs(any_of=("otpauth://",), folded=True),
)

TOTP_SEED = re.compile(
    r"(?i)(?<![a-z0-9])(?:2fa|totp|mfa|otp|authenticator)(?![a-z0-9])"
    r"[^\n]{0,40}?(?<![a-z0-9])(?:secret|seed|key)(?![a-z0-9])[^\n]{0,20}?"
    r"(?<![A-Za-z0-9])(?P<secret>[A-Za-z2-7]{16,128}|[A-Za-z2-7]{4}(?:[ ][A-Za-z2-7]{4}){3,31})"
    r"(?![A-Za-z0-9])"
)
#: The needs of both TOTP finders ("otp" is in "totp" and "otpauth://").
TOTP_NEEDS = Needs(any_of=("otp", "2fa", "mfa", "authenticator"), folded=True)


def totp_seed_spans(text: str) -> Iterator[tuple[int, int]]:
    """A base32 seed next to "2FA/TOTP/authenticator" and "secret/key/seed"."""
    for match in TOTP_SEED.finditer(text):
        seed = match.group("secret").replace(" ", "")
        if not (seed.isupper() or seed.islower()) or is_placeholder(seed):
            continue
        if any(char.isdigit() for char in seed) or wordlike_share(seed.upper()) < 0.4:
            yield match.span("secret")


def wifi_spans(text: str) -> Iterator[tuple[int, int]]:
    """Wi-Fi passwords: the ``P`` field of a ``WIFI:`` QR string, and prose."""
    yield from WIFI_QR.spans(text)
    yield from wifi_prose_spans(text)


def totp_spans(text: str) -> Iterator[tuple[int, int]]:
    """TOTP seeds: the ``secret`` of an ``otpauth://`` URI, and base32 seeds in prose."""
    yield from OTPAUTH.spans(text)
    yield from totp_seed_spans(text)
