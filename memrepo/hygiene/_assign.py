"""Assignments: ``password=...``, ``token: ...``, ``"apiKey": "..."``, ``--password X``,
``my password is ...``.

The keyword stays readable; only the value is redacted, and only when it looks like a
credential, because "password", "token", "key" and "secret" are ordinary words in the
notes people and agents write. How sure the keyword makes us decides how much the value
must prove (``_credential``):

- a plain strong keyword (``password``, ``token``, ``secret``, ``api_key``, ...) right
  before ``=``/``:``: any value of 6+ characters that is not a placeholder or a plain word;
- ``my password is ...``: 8+ characters with a letter and a digit;
- a weak keyword (``key``, ``auth``, ``sig``, ``signature``), a keyword with more name
  after it (``token_expiry``, ``maxTokens``), or a keyword and a value with only spaces
  between them (``the auth token 9f8e...``): the value must look random (``looks_random``,
  the entropy rule of detect-secrets' high-entropy plugins, Apache-2.0, with thresholds
  measured on our corpus) or be base64 of ``user:password``.

camelCase counts as a word boundary (``accessToken``, ``dbPassword``), which the older
``(?<![a-z0-9])`` boundary missed.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from ._base import looks_random
from ._needs import Needs, lowered_for_needs
from ._query import looks_keyed

_PASSWORD_KEYWORDS = frozenset({"pass", "passwd", "password", "passphrase", "pwd", "pw"})
_WEAK_KEYWORDS = frozenset({"key", "auth", "sig", "signature"})

# The keyword comes first and the boundary before it is checked in Python (``_boundary``):
# a lookbehind alternation at the front made the engine try every position several ways.
_BODY = r"""
    (?P<key>
        pass[ _-]?phrase | password | passwd | pass | pwd | pw
      | secret[_-]?access[_-]?key | secret[_-]?key | access[_-]?key
      | private[_-]?key(?:[_-]?id)? | client[_-]?secret
      | api[_-]?key | api[_-]?token | apikey | auth[_-]?token | access[_-]?token
      | token | secret | credentials? | signature | sig | key | auth
    )
    (?P<tail> [a-z0-9_.-]{0,24}? )
    ["']?
    (?: [ \t]{0,3} (?: := | => | = | : ) [ \t]{0,3}
      | [ \t]{1,3} (?P<is> is ) [ \t]{1,3}
      | (?P<space> [ \t]{1,3} ) )
    (?:
        " (?P<dq> [^"]{1,256} ) "
      | ' (?P<sq> [^']{1,256} ) '
      | ["'`]? (?P<bare> [^\s"'`]{1,256} )
    )
"""
#: The assignment pattern as (?i) reads it; run on texts ``lowered_for_needs`` cannot fold.
ASSIGNMENT = re.compile("(?ix)" + _BODY)
# The same pattern, case-sensitive, for the lowercased text: Python's case-insensitive
# matching is several times slower, and on a text without CASE_LOOKALIKES the lowercased
# text has the same length and the same matches.
_ASSIGNMENT_LOWERED = re.compile("(?x)" + _BODY)
# What (?i)[a-z0-9] matches (the CASE_LOOKALIKES and the Kelvin sign included).
_WORD_CHAR = re.compile(r"(?i)[a-z0-9]")
_FLAG_PREFIX_CHAR = re.compile(r"(?i)[a-z0-9-]")
_CAMEL_BEFORE = re.compile(r"[a-z0-9]")
_CAMEL_START = re.compile(r"[A-Z]")

#: Every keyword above contains one of these ("api_token" a "token", "private-key" a
#: "key", "passphrase" a "pass", "pwd" a "pw", "credentials" a "credential", "signature"
#: a "sig").
ASSIGNMENT_NEEDS = Needs(
    any_of=("pass", "pw", "key", "token", "secret", "credential", "auth", "sig"), folded=True
)

# Trailing punctuation that ends a sentence or a bracket rather than the value.
_TRAILING_PUNCTUATION = ".,;:)]}>"
_PLACEHOLDER_STARTS = ("$", "<", "{", "%", "[")
_PLACEHOLDER_WORDS = re.compile(r"(?i)^your|[_-]here$")
_MASK_CHARS = frozenset("*xX•·._-#")
# The shortest value a strict candidate can be: base64 of "u:pw" (looks_random wants 16).
_MIN_STRICT_LENGTH = 8
# "pwd: /home/ana/projects", "password_file: ~/.pgpass": a path, not a password.
_FILE_PATH = re.compile(r"~?/[\w.-]{1,64}/")
_SCREAMING_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_READ_FROM = re.compile(r"(?i)process\.env\.|os\.environ|(?:os\.)?getenv\(|env\[|env\(|secrets\.")
#: Keywords that end a name with a prefix glued on (``PGPASSWORD``, ``csrftoken``).
_GLUED_KEYWORDS = frozenset(
    {"password", "passwd", "passphrase", "pwd", "pass", "pw", "token", "secret", "apikey"}
    | {"authtoken", "accesstoken", "apitoken", "clientsecret", "credential", "credentials"}
)
#: Glued in lower case these end ordinary words ("bypass", "compass").
_UPPER_ONLY_GLUED = frozenset({"pass", "pw"})
_MAX_GLUED_PREFIX = 24
_KEY_SEPARATORS = str.maketrans("", "", "_- ")
# Keywords as written ("password", "PASSWORD", "apiKey") to the keyword they spell: a few
# dozen spellings recur, and this runs for every candidate in a text.
_KEYWORD_OF: dict[str, str] = {}
_MAX_KEYWORD_SPELLINGS = 4096


def assignment_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values of ``keyword = value`` assignments that look like credentials.

    A rejected candidate resumes the search right after its keyword, not after its
    value: in "auth token 9f8e...", "auth" with the value "token" is rejected, and
    "token 9f8e..." must still be read.
    """
    lowered = lowered_for_needs(text)
    pattern, haystack = (
        (_ASSIGNMENT_LOWERED, lowered) if lowered is not None else (ASSIGNMENT, text)
    )
    position = 0
    while (match := pattern.search(haystack, position)) is not None:
        boundary = _boundary(text, match.start())
        if boundary is None and not _glued(text, match):
            position = match.start() + 1
            continue
        span = assignment_value(text, match, flag=boundary == "flag")
        if span is not None:
            yield span
            position = max(span[1], match.end("key"))
        else:
            position = match.end("key")


def _boundary(text: str, start: int) -> str | None:
    """How the keyword at ``start`` begins a name: "flag" (``--password``), "word" (after
    a non-alphanumeric), "camel" (``accessToken``, ``dbPassword``), or None (inside a
    word: "monkey", "passage")."""
    if start == 0:
        return "word"
    if _WORD_CHAR.match(text, start - 1):
        camel = _CAMEL_BEFORE.match(text, start - 1) and _CAMEL_START.match(text, start)
        return "camel" if camel else None
    if (
        start >= 2
        and text.startswith("--", start - 2)
        and not (start >= 3 and _FLAG_PREFIX_CHAR.match(text, start - 3))
    ):
        return "flag"
    return "word"


def _keyword(match: re.Match[str]) -> str:
    """The keyword of ``match`` without case and separators ("Pass Phrase" passphrase)."""
    key = match.group("key")
    keyword = _KEYWORD_OF.get(key)
    if keyword is None:
        keyword = key.casefold().translate(_KEY_SEPARATORS)
        if len(_KEYWORD_OF) < _MAX_KEYWORD_SPELLINGS:
            _KEYWORD_OF[key] = keyword
    return keyword


def _glued(text: str, match: re.Match[str]) -> bool:
    """Whether a keyword inside a word is a name's end glued to a prefix: ``PGPASSWORD=``,
    ``DBPASSWORD:``, ``redispassword:``, ``csrftoken=`` (libpq and MySQL document
    ``PGPASSWORD`` and ``MYSQL_PWD`` as passwords; configs glue the same way).

    Only a strong keyword, right before ``=`` or ``:``, in a name of one case: "bypass",
    "compass" and "monkey" stay words, and "pass"/"pw" glue only in upper case.
    """
    if match.group("tail") or match.group("space") is not None or match.group("is") is not None:
        return False
    keyword = _keyword(match)
    if keyword not in _GLUED_KEYWORDS:
        return False
    start = match.start()
    name_start = start
    while (
        name_start > 0 and start - name_start < _MAX_GLUED_PREFIX and text[name_start - 1].isalnum()
    ):
        name_start -= 1
    if name_start > 0 and text[name_start - 1].isalnum():
        return False
    name = text[name_start : match.end("key")]
    if name.isupper() or (name.islower() and keyword not in _UPPER_ONLY_GLUED):
        return True
    # "clientpass=x9...", "mypass=Zoo8709%": a lower-case glue of "pass" counts when the
    # value mixes letters and digits ("bypass: --no-verify", "compass: north" do not).
    start, end, _ = _value_span(match)
    value = text[start:end]
    return (
        name.islower()
        and len(value) >= _MIN_STRICT_LENGTH
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
    )


def _value_span(match: re.Match[str]) -> tuple[int, int, bool]:
    """Where the value of ``match`` is, and whether it was quoted."""
    for group in ("dq", "sq"):
        if match.group(group) is not None:
            return (*match.span(group), True)
    return (*match.span("bare"), False)


def assignment_value(text: str, match: re.Match[str], *, flag: bool) -> tuple[int, int] | None:
    """The span of an assignment's value when it looks like a credential, else None.

    ``match`` is a match of the pattern on ``text`` or on its lowercased copy (the same
    spans); the value is read from ``text``. ``flag`` says the keyword follows "--".
    """
    start, end, quoted = _value_span(match)
    keyword = _keyword(match)
    prose = match.group("is") is not None
    space = match.group("space") is not None
    if keyword in _PASSWORD_KEYWORDS and not space:
        phrase = (
            None
            if _is_placeholder(text[start:end])
            else passphrase_span(text, start, end, quoted=quoted)
        )
        if phrase is not None:
            return phrase
    if not quoted:
        if text.startswith("&", start):
            return None  # "?token=&page=2": an empty query value, then the next pair
        while end > start and text[end - 1] in _TRAILING_PUNCTUATION:
            end -= 1
    strict = keyword in _WEAK_KEYWORDS or bool(match.group("tail")) or (space and not flag)
    # Most candidates in prose ("the key for", "token refresh") end here, cheaply.
    if end - start < (_MIN_STRICT_LENGTH if strict else 1):
        return None
    value = text[start:end]
    if _is_placeholder(value):
        return None
    if strict:
        # ``X_KEY=``, ``auth:``: a weak keyword ending a name before its operator points
        # at the value (``key for``, ``key_id=`` do not).
        keyed = keyword in _WEAK_KEYWORDS and not match.group("tail") and not space
        credential = (
            looks_random(value) or is_basic_credential(value) or (keyed and looks_keyed(value))
        )
    else:
        credential = _credential(
            value,
            quoted=quoted or flag,
            password_keyword=keyword in _PASSWORD_KEYWORDS,
            prose=prose,
        )
    return (start, end) if credential else None


def _is_placeholder(value: str) -> bool:
    """``$VAR``, ``${VAR}``, ``<token>``, ``{{ secrets.X }}``, ``%s``, ``[redacted ...]``
    (so redaction is idempotent), ``your_token_here``, masks like ``****`` or ``xxxx``."""
    if not value or value.startswith(_PLACEHOLDER_STARTS) or _PLACEHOLDER_WORDS.search(value):
        return True
    # Another name (``X_TOKEN=X_TOKEN_FILE``) or where the value is read from
    # (``process.env.DB_PASSWORD``, ``os.environ["X"]``) rather than a value.
    if _SCREAMING_NAME.fullmatch(value) or _READ_FROM.match(value) or _FILE_PATH.match(value):
        return True
    return set(value) <= _MASK_CHARS or "xxxx" in value.casefold() or "***" in value


def is_basic_credential(value: str) -> bool:
    """Whether ``value`` is base64 of "user:password" (Docker's ``auth``, HTTP Basic)."""
    if len(value) < 8 or len(value) > 1024:
        return False
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded[1:-1] and all(32 <= byte < 127 for byte in decoded)


def _credential(value: str, *, quoted: bool, password_keyword: bool, prose: bool) -> bool:
    """Decide whether the value after a plain ``password=`` / ``token:`` / ``secret is``
    is a secret (placeholders are already out).

    - A quoted value after a password keyword always counts from 4 characters on, spaces
      included: ``"password": "correct horse battery staple"`` is a passphrase.
    - Anything else needs at least 6 characters and no whitespace, and must not be a
      plain word: a value of letters only counts when it mixes case inside the word
      (``hUnter``) or is 20+ letters long. So "secret: keep the surprise",
      "password: forgotten" and "token: Expired" stay, "password=hunter2" does not.
    - After "is" (``my password is ...``) the value must hold a letter and a digit and be
      at least 8 characters: "the token is expired" is prose, "the password is 2fast4you"
      is not.
    """
    if quoted and password_keyword and not prose:
        return len(value) >= 4
    if len(value) < 6 or any(c.isspace() for c in value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_letter = any(c.isalpha() for c in value)
    if prose:
        return len(value) >= 8 and has_digit and has_letter
    if value.isalpha():
        mixed_case = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
        return mixed_case or len(value) >= 20
    return True


# --- passphrases: several plain words after a password keyword ---------------------------


#: Words of prose about a password ("expires every 90 days", "on the fridge", "see the
#: vault"): a passphrase is drawn from a word list, and such lists leave these out (the
#: EFF's diceware lists hold no article, pronoun or preposition). One of them in a run of
#: words after "password:" makes it a sentence, not a value.
def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_PROSE_WORDS = _word_set(
    "a an the and or but nor so of to in on at by for from with without via into onto "
    "over under about after before since until upon per than then as if is are was "
    "were be been being am it its this that these those there here what which who "
    "whom whose when where why how not no yes all any each every some most more less "
    "least only just also still now later soon never always again ever i me my mine we "
    "us our you your he him his she her they them their one do does did done has have "
    "had can could may might must shall should will would need needs needed see use "
    "used uses using ask asked set get got reset change changed changes expire expires "
    "expired rotate rotated rotates update updated store stored saved kept keep sent "
    "send required optional please same new old empty blank unknown missing hidden "
    "none null true false day days week weeks month months year years hour hours "
    "minute minutes second seconds char chars character characters letter letters "
    "digit digits long short min max minimum maximum length policy rule rules vault "
    "manager file page login account admin user users entry below above front desk "
    "fridge written printed card sticker note notes back side bottom top two factor "
    "auth enabled disabled off"
)
_PHRASE_WORD = r"[^\s,;.!?()\[\]{}\"'`]{1,32}"
_PHRASE = re.compile(rf"{_PHRASE_WORD}(?:[ \t]{{1,3}}{_PHRASE_WORD}){{1,8}}")
_CLAUSE_END = ",;.!?)]}\"'`\r\n"
_MAX_PHRASE_WORDS = 8
_MIN_PHRASE_BEFORE_PROSE = 4
_WORD = re.compile(r"\S+")


def is_passphrase(value: str) -> bool:
    """Whether ``value`` reads as a passphrase: 2 to 8 words, none of them a word of
    prose, and either 3+ words or a number among them ("blue river 77",
    "four plain words 42", "correct horse battery staple")."""
    words = value.split()
    if not 2 <= len(words) <= _MAX_PHRASE_WORDS:
        return False
    if any(word.casefold() in _PROSE_WORDS for word in words):
        return False
    if all(word.isdigit() for word in words):
        return False
    return len(words) >= 3 or any(c.isdigit() for c in value)


def passphrase_span(text: str, start: int, end: int, *, quoted: bool) -> tuple[int, int] | None:
    """The span of a passphrase value starting at ``start``, or None.

    Quoted (``"correct horse battery staple"``), the quotes bound it (``end``). Bare, it
    is the run of words up to the end of the clause (a line end, a comma, a full stop);
    a run that goes on past 8 words is a sentence. A run that goes on into prose ("blue
    river 77 is on the fridge", or a line end that the screen made a space) keeps the
    words before the first word of prose when they are 4, or 3 with a number.
    """
    if quoted:
        return (start, end) if " " in text[start:end] and is_passphrase(text[start:end]) else None
    phrase = _PHRASE.match(text, start)
    if phrase is None:
        return None
    words = list(_WORD.finditer(text, start, phrase.end()))
    prose_at = next(
        (i for i, word in enumerate(words) if word.group().casefold() in _PROSE_WORDS), None
    )
    if prose_at is None:
        after = phrase.end()
        while after < len(text) and text[after] in " \t":
            after += 1
        at_clause_end = after == len(text) or text[after] in _CLAUSE_END
        return (start, phrase.end()) if at_clause_end and is_passphrase(phrase.group()) else None
    if prose_at == 0:
        return None
    stop = words[prose_at - 1].end()
    kept = text[start:stop]
    has_number = any(c.isdigit() for c in kept)
    if prose_at < _MIN_PHRASE_BEFORE_PROSE - has_number:
        return None
    return (start, stop) if is_passphrase(kept) else None
