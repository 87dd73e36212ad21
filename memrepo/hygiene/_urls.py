"""Credentials a URL carries in its own structure (RFC 3986), whoever the vendor.

- ``userinfo`` (``scheme://user:password@host``): the password, also after an empty
  user (``redis://:pw@host``) or a token-name user (``x-access-token:``, ``oauth2:``);
  and a user that is itself a token (``https://<40 hex>@github.com/...``). Placeholders
  (``user:pass@``, ``<user>:<password>@``, ``${USER}:${PASS}@``) stay.
- a ``path`` segment that is the credential: a bot token (``/bot<id>:<secret>/``, an id,
  a colon and a random secret), or a random segment right after one (or two) that name a
  key (``/webhooks/<id>/<secret>``, ``/key/<secret>``). An id, a commit hash or a
  document id anywhere else in a path stays: nothing says it is a credential.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._base import is_placeholder
from ._needs import Needs
from ._query import looks_keyed

USERINFO = re.compile(
    r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,20}://"
    # The user ends at the first ":" or "@"; the password runs to the last "@" before the
    # path (an unescaped "@" in a password is common, and a host never holds one).
    r"(?P<user>[^\s/@:?#]{0,128})(?::(?P<password>[^\s/?#]{0,256}))?@"
)
# ":", "/" and "@" are uncased: (?i) matches each only to itself.
USERINFO_NEEDS = Needs(any_of=("://",), all_of=("@",), folded=True)

#: Passwords that stand for one in docs (``user:pass@``), compared without "_" and "-".
_PLACEHOLDER_PASSWORDS = frozenset(
    {"pass", "password", "passwd", "pwd", "pw", "secret", "mypassword", "yourpassword"}
    | {"changeme", "token", "apikey", "key", "passw0rd", "pass123", "password123"}
)
_PLACEHOLDER_STARTS = ("$", "<", "{", "[")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def placeholder_password(password: str) -> bool:
    """Whether a URL's password is a stand-in: empty, a template (``${PASS}``,
    ``<password>``, ``%s``), a mask, or a word that names a password."""
    if not password or password.startswith(_PLACEHOLDER_STARTS):
        return True
    if password.startswith("%") and not _PERCENT_ESCAPE.match(password):
        return True
    if set(password) <= set("*xX._-#") or "***" in password:
        return True
    return password.casefold().replace("_", "").replace(
        "-", ""
    ) in _PLACEHOLDER_PASSWORDS or is_placeholder(password)


def _token_user(user: str) -> bool:
    """A user that is a random token (``https://<token>@host``), not a name."""
    return looks_keyed(_PERCENT_ESCAPE.sub("", user)) and not is_placeholder(user)


def userinfo_spans(text: str) -> Iterator[tuple[int, int]]:
    """The credentials in every URL's userinfo: ``user:password`` (or the password after
    an empty user), and a token alone as the user."""
    for match in USERINFO.finditer(text):
        user, password = match.group("user"), match.group("password")
        user_is_token = _token_user(user) if user else False
        if password is None or placeholder_password(password):
            if user_is_token:
                yield match.span("user")
        elif user:
            yield match.start("user"), match.end("password")
        else:
            yield match.span("password")


# --- a credential as a path segment --------------------------------------------------

#: A path segment that can be a credential: ``/``, then a bot token's ``bot<id>:`` or
#: nothing, then 16+ token characters (a long run: texts without one skip this rule).
#: Whether it is in a URL's path, and after what, is read around it (``_url_before``).
PATH_SEGMENT = re.compile(
    r"/(?P<segment>(?:[A-Za-z]{0,8}(?P<id>[0-9]{5,12}):)?[A-Za-z0-9_+=-]{16,256})"
    # The whole segment: not the stem of a file name ("logo-7f3a9b2c.png").
    r"(?![A-Za-z0-9_+=:%~-]|\.[A-Za-z0-9])"
)
PATH_SEGMENT_NEEDS = Needs(any_of=("/",), run=True)

#: ``bot<id>:<secret>``: letters, a numeric id, a colon, a random secret.
_SECRET_AFTER_ID = re.compile(r"[A-Za-z0-9_-]{20,128}")
#: Path segments that say the next one (or the one after an id) is a key, compared
#: casefolded without "_" and "-".
_KEY_SEGMENTS = frozenset(
    {"hooks", "hook", "webhooks", "webhook", "key", "keys", "apikey", "apikeys", "token"}
    | {"tokens", "secret", "secrets", "services", "auth", "accesstoken", "bot", "bots"}
)
#: How far back the start of a URL is looked for (its scheme, authority and path).
_MAX_URL_PREFIX = 2048
_NOT_IN_URL = re.compile(r"[\s\"'<>`?#]")


def _url_before(text: str, slash: int) -> list[str] | None:
    """The path segments before the ``/`` at ``slash`` when it is in a URL's path (not
    in ``scheme://``), or None when it is not in a URL."""
    low = max(0, slash - _MAX_URL_PREFIX)
    scheme = text.rfind("://", low, slash + 1)
    if scheme == -1 or slash <= scheme + 2 or _NOT_IN_URL.search(text, scheme, slash):
        return None
    return text[scheme + 3 : slash].split("/")[1:]


def _names_a_key(segment: str) -> bool:
    return segment.casefold().replace("_", "").replace("-", "") in _KEY_SEGMENTS


def url_path_spans(text: str) -> Iterator[tuple[int, int]]:
    """Path segments that are credentials: ``bot<id>:<secret>``, or a random segment one
    or two segments after one that names a key (``/webhooks/<id>/<secret>``)."""
    for match in PATH_SEGMENT.finditer(text):
        before = _url_before(text, match.start())
        if before is None:
            continue
        start, end = match.span("segment")
        if match.group("id") is not None:
            start = match.start("id")
            secret = text[match.end("id") + 1 : end]
            if _SECRET_AFTER_ID.fullmatch(secret) and not is_placeholder(secret):
                yield start, end
        elif any(_names_a_key(name) for name in before[-2:]):
            segment = match.group("segment")
            if looks_keyed(segment) and not is_placeholder(segment):
                yield start, end
