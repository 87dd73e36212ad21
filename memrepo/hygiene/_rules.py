"""The secret patterns: one rule per credential kind, ordered from most to least specific.

Every rule is a regular expression whose match length is bounded (at most
``MAX_RULE_SPAN`` characters, lookarounds included), so that

- scanning stays linear: each rule starts with a literal or with a lookbehind that
  refuses to start inside a run of its own characters, and every quantifier has an upper
  bound, so no input can make the engine backtrack more than a bounded distance per run;
- a prefix of a text can be screened on its own: a match that starts well before the end
  of the prefix is the same match the whole text would give (``screen`` relies on this to
  redact only what it keeps).

PEM private key blocks are the one exception: they run to their ``END`` line, however far
that is, and are found by ``private_key_spans`` instead of a single expression.

Rules only say where a candidate is; ``validate`` (a Luhn check, "does this value look
like a credential") decides whether it is one.

Each detector also states its ``Needs``: substrings (or digits) that every one of its
matches contains, read off the pattern next to them. A text without them skips the
detector, which changes no result (tests/hygiene/test_prefilter.py holds every detector
to that) and spares most texts most scans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ._needs import Needs, lowered_for_needs

#: Upper bound on the characters a rule's match (with its lookarounds) can span.
MAX_RULE_SPAN = 12_000

Validator = Callable[["re.Match[str]"], bool]
Finder = Callable[[str], Iterable[tuple[int, int]]]


@dataclass(frozen=True, slots=True)
class Rule:
    """A regular expression for one kind; the group ``secret`` (or the match) is the span.

    ``needs`` is what every match contains, read off the pattern: a text without it is
    not scanned (for a ``(?i)`` pattern, ``folded`` needs; see ``_needs``).
    """

    kind: str
    pattern: re.Pattern[str]
    validate: Validator | None = None
    needs: Needs = field(kw_only=True)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Yield the (start, end) of every validated secret of this kind in ``text``."""
        for match in self.pattern.finditer(text):
            if self.validate is not None and not self.validate(match):
                continue
            if "secret" in self.pattern.groupindex and match.group("secret") is not None:
                yield match.span("secret")
            else:
                yield match.span()


def _has_letter_and_digit(match: re.Match[str]) -> bool:
    """Random keys mix letters and digits; hyphenated prose ("sk-style-...") does not."""
    body = match.group("secret") if "secret" in match.re.groupindex else match.group()
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


def _looks_base64_random(match: re.Match[str]) -> bool:
    """A 40-char AWS secret mixes upper, lower and digits; a 40-hex git SHA has no upper."""
    value = match.group("secret")
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies (and 90% of digit runs fail)."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _is_card_number(match: re.Match[str]) -> bool:
    digits = "".join(c for c in match.group() if c.isdigit())
    return 13 <= len(digits) <= 19 and luhn_valid(digits)


# --- assignments -----------------------------------------------------------------------
#
# ``password=...``, ``token: ...``, ``"api_key": "..."``, ``my password is ...``.
# The keyword stays readable; only the value is redacted, and only when it looks like a
# credential (see ``_assignment_value_is_credential``), because "password", "token" and
# "secret" are ordinary words in the notes people and agents write.

_PASSWORD_KEYWORDS = frozenset({"pass", "passwd", "password", "passphrase", "pwd"})

_ASSIGNMENT = re.compile(
    r"""(?ix)
    (?<![a-z0-9])
    (?P<key>
        passphrase | password | passwd | pass | pwd
      | secret[_-]?access[_-]?key | secret[_-]?key | access[_-]?key | private[_-]?key
      | api[_-]?key | api[_-]?token | apikey | token | secret | credentials?
    )
    ["']?
    (?: [ \t]{0,3} (?: := | => | = | : ) [ \t]{0,3} | [ \t]{1,3} (?P<is> is ) [ \t]{1,3} )
    (?:
        " (?P<dq> [^"]{1,256} ) "
      | ' (?P<sq> [^']{1,256} ) '
      | ["'`]? (?P<bare> [^\s"'`]{1,256} )
    )
    """
)
#: Every keyword above contains one of these ("api_token" a "token", "private-key" a
#: "key", "passphrase" a "pass", "credentials" a "credential").
_ASSIGNMENT_NEEDS = Needs(
    any_of=("pass", "pwd", "key", "token", "secret", "credential"), folded=True
)

# Trailing punctuation that ends a sentence or a bracket rather than the value.
_TRAILING_PUNCTUATION = ".,;:)]}>"
_PLACEHOLDER_STARTS = ("$", "<", "{", "%", "[")
_PLACEHOLDER_WORDS = re.compile(r"(?i)^your|[_-]here$")
_MASK_CHARS = frozenset("*xX•·._-#")


def assignment_value(match: re.Match[str]) -> tuple[int, int] | None:
    """The span of an assignment's value when it looks like a credential, else None."""
    for group in ("dq", "sq", "bare"):
        if match.group(group) is not None:
            start, end = match.span(group)
            break
    else:  # pragma: no cover - the pattern always captures one of the three groups
        return None
    text = match.string
    quoted = group != "bare"
    if not quoted:
        while end > start and text[end - 1] in _TRAILING_PUNCTUATION:
            end -= 1
    value = text[start:end]
    keyword = re.sub(r"[_-]", "", match.group("key").casefold())
    if _assignment_value_is_credential(
        value,
        quoted=quoted,
        password_keyword=keyword in _PASSWORD_KEYWORDS,
        prose=match.group("is") is not None,
    ):
        return start, end
    return None


def _assignment_value_is_credential(
    value: str, *, quoted: bool, password_keyword: bool, prose: bool
) -> bool:
    """Decide whether the value after ``password=`` / ``token:`` / ``secret is`` is a secret.

    The rule, chosen so prose survives and credentials do not:

    - Placeholders never count: ``$VAR``, ``${VAR}``, ``<token>``, ``{{ secrets.X }}``,
      ``%s``, ``[redacted ...]`` (so redaction is idempotent), ``your_token_here``, masks
      like ``****`` or ``xxxx``.
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
    if not value or value.startswith(_PLACEHOLDER_STARTS) or _PLACEHOLDER_WORDS.search(value):
        return False
    if set(value) <= _MASK_CHARS or "xxxx" in value.casefold() or "***" in value:
        return False
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


# --- the rules, most specific first (a merged overlap takes the earliest kind) ----------

PRIVATE_KEY_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_KEY_NEEDS = Needs(any_of=("-----BEGIN",))


def private_key_spans(text: str) -> Iterator[tuple[int, int]]:
    """PEM private key blocks, BEGIN line to END line, whitespace collapsed or not.

    A block without its END line (cut off, pasted in part) runs to the end of the text:
    whatever follows a BEGIN line is key material until proven otherwise.
    """
    position = 0
    while (begin := PRIVATE_KEY_BEGIN.search(text, position)) is not None:
        stop = private_key_end(text, begin.start())
        yield begin.start(), stop
        position = stop


def private_key_end(text: str, start: int) -> int:
    """The end of the first PEM block whose BEGIN line is at or after ``start``.

    That is the end of its END line, or the end of the text when it has none (``start``
    itself when there is no BEGIN line at all).
    """
    begin = PRIVATE_KEY_BEGIN.search(text, start)
    if begin is None:
        return start
    end = _PRIVATE_KEY_END.search(text, begin.end())
    return end.end() if end is not None else len(text)


RULES: tuple[Rule, ...] = (
    Rule(
        "aws_access_key_id",
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
        needs=Needs(any_of=("AKIA", "ASIA", "ABIA", "ACCA")),
    ),
    Rule(
        "github_token",
        re.compile(
            r"(?<![A-Za-z0-9_])"
            r"(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,243})"
            r"(?![A-Za-z0-9_])"
        ),
        needs=Needs(any_of=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    ),
    Rule(
        "gitlab_token",
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"gl(?:pat|dt|rt|ptt|oas|cbt|ft|soat|imt|agent)-[A-Za-z0-9_.-]{19,250}[A-Za-z0-9_]"
            r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])"
        ),
        needs=Needs(
            any_of=(
                *("glpat-", "gldt-", "glrt-", "glptt-", "gloas-"),
                *("glcbt-", "glft-", "glsoat-", "glimt-", "glagent-"),
            )
        ),
    ),
    Rule(
        "slack_token",
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"(?:xox[abposre]|xapp)-[A-Za-z0-9-]{9,250}[A-Za-z0-9]"
            r"(?![A-Za-z0-9_-])"
        ),
        _has_letter_and_digit,
        needs=Needs(
            any_of=("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-")
        ),
    ),
    Rule(
        "slack_token",
        # A webhook URL is a credential by itself: keep the host readable, hide the path.
        re.compile(
            r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/"
            r"(?P<secret>[A-Za-z0-9_/+-]{19,300}[A-Za-z0-9_])"
        ),
        needs=Needs(any_of=("hooks.slack.com/",), folded=True),
    ),
    Rule(
        "google_api_key",
        re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
        needs=Needs(any_of=("AIza",)),
    ),
    Rule(
        "api_key",
        # OpenAI / Anthropic style (sk-, sk-proj-, sk-ant-api03-) and Stripe's sk_live_.
        # The lookbehind keeps "task-list" and "risk-free" out; the digit check keeps
        # hyphenated prose ("sk-learn-style-pipelines-everywhere") out.
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"(?P<secret>sk-[A-Za-z0-9_-]{19,300}[A-Za-z0-9]|[sr]k_(?:live|test)_[A-Za-z0-9]{20,250})"
            r"(?![A-Za-z0-9_-])"
        ),
        _has_letter_and_digit,
        needs=Needs(any_of=("sk-", "sk_live_", "sk_test_", "rk_live_", "rk_test_")),
    ),
    Rule(
        "jwt",
        # header.payload.signature, base64url; '{"' encodes to "eyJ". The signature may be
        # empty (alg "none"), which is still a bearer credential.
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"eyJ[A-Za-z0-9_-]{5,1500}\.[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{0,1500}"
            r"(?![A-Za-z0-9_-])"
        ),
        needs=Needs(any_of=("eyJ",)),
    ),
    Rule(
        "url_credentials",
        re.compile(
            r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,20}://"
            r"(?P<secret>[^\s/@:]{1,128}:[^\s/@]{1,256})@"
        ),
        # ":", "/" and "@" are uncased: (?i) matches each only to itself.
        needs=Needs(any_of=("://",), all_of=("@",), folded=True),
    ),
    Rule(
        "aws_secret_access_key",
        # 40 base64 characters within a few characters after the word "secret".
        re.compile(
            r"(?i)(?<![a-z0-9])secret[\w\s\"':=>.-]{0,30}?"
            r"(?<![A-Za-z0-9/+])(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        _looks_base64_random,
        needs=Needs(any_of=("secret",), folded=True),
    ),
    Rule(
        "card_number",
        # 13-19 digits, either in one run or grouped the way cards are printed (4-4-4-4,
        # 4-4-4-4-3, Amex 4-6-5, Diners 4-6-4) with one separator; first digit 2-6 (the
        # card networks), which keeps millisecond timestamps and ISBN-13s out.
        re.compile(
            r"(?<![\w.+/-])"
            r"(?:[2-6][0-9]{12,18}"
            r"|[2-6][0-9]{3}(?P<sep>[ -])[0-9]{4}(?:(?P=sep)[0-9]{4}){1,2}(?:(?P=sep)[0-9]{1,4})?"
            r"|3[0-9]{3}(?P<amex>[ -])[0-9]{6}(?P=amex)[0-9]{4,5})"
            r"(?![\w]|[ .,/-][0-9])"
        ),
        _is_card_number,
        # No literal, but every branch holds 9 digits in a row (13+ in one run) or two
        # groups of 4 joined by one separator (4-4-4-4, 4-6-5).
        needs=Needs(shapes=(b"000000000", b"0000-0000")),
    ),
)

_BEARER = Rule(
    "assignment",
    # "Authorization: Bearer <token>": the token after the scheme word is the value.
    re.compile(
        r"(?i)(?<![a-z0-9])bearer[ \t]{1,3}"
        r"(?P<secret>[A-Za-z0-9._~+/-]{15,1024}[A-Za-z0-9_~+/-]={0,2})(?![A-Za-z0-9_~+/=-])"
    ),
    _has_letter_and_digit,
    needs=Needs(any_of=("bearer",), folded=True),
)


def assignment_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values of ``keyword = value`` assignments that look like credentials."""
    for match in _ASSIGNMENT.finditer(text):
        span = assignment_value(match)
        if span is not None:
            yield span


#: Every expression the finders run; each match spans at most MAX_RULE_SPAN characters.
BOUNDED_PATTERNS: tuple[re.Pattern[str], ...] = (
    PRIVATE_KEY_BEGIN,
    _PRIVATE_KEY_END,
    *(rule.pattern for rule in RULES),
    _ASSIGNMENT,
    _BEARER.pattern,
)


@dataclass(frozen=True, slots=True)
class Detector:
    """A finder of one kind of secret, with what each of its matches needs."""

    kind: str
    find: Finder
    needs: Needs


#: From most to least specific: when candidates overlap they are merged and the merged
#: span takes the kind that comes first here.
DETECTORS: tuple[Detector, ...] = (
    Detector("private_key", private_key_spans, _PRIVATE_KEY_NEEDS),
    *(Detector(rule.kind, rule.spans, rule.needs) for rule in RULES),
    Detector("assignment", assignment_spans, _ASSIGNMENT_NEEDS),
    Detector(_BEARER.kind, _BEARER.spans, _BEARER.needs),
)


def detectors_for(text: str) -> Iterator[Detector]:
    """The detectors that may find something in ``text``: those whose needs it meets."""
    lowered = lowered_for_needs(text)
    return (detector for detector in DETECTORS if detector.needs.met_by(text, lowered))
