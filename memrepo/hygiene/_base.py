"""What every secret rule is made of: a bounded pattern, a validator, and its needs.

Split from ``_rules`` so the rule tables (``_tokens``, ``_context``) can share the types
without importing each other. Also holds the measures validators use to tell a random
credential from an ordinary word: letters and digits mixed, Shannon entropy, and how much
of a value reads as words.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ._needs import Needs

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


@dataclass(frozen=True, slots=True)
class Detector:
    """A finder of one kind of secret, with what each of its matches needs."""

    kind: str
    find: Finder
    needs: Needs


def secret_of(match: re.Match[str]) -> str:
    """The part of ``match`` that is redacted: the group ``secret`` or the whole match."""
    if "secret" in match.re.groupindex and match.group("secret") is not None:
        return match.group("secret")
    return match.group()


def has_letter_and_digit(match: re.Match[str]) -> bool:
    """Random keys mix letters and digits; hyphenated prose ("sk-style-...") does not."""
    body = secret_of(match)
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


def has_mixed_case_or_digit(match: re.Match[str]) -> bool:
    """A random letters-only key (Hugging Face) still mixes upper and lower case."""
    body = secret_of(match)
    if any(c.isdigit() for c in body):
        return any(c.isalpha() for c in body)
    return any(c.isupper() for c in body) and any(c.islower() for c in body)


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value``'s own character distribution."""
    if not value:
        return 0.0
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in Counter(value).values())


# Pieces a value splits into at case changes and digits: "iPhone15ProMax" reads as
# i / Phone / 15 / Pro / Max; "iK2ZWeqhFWCE" as i / K / 2 / ZW / eqh / FWCE.
_PIECES = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_VOWEL = re.compile(r"[aeiouy]")
_CONSONANTS_4 = re.compile(r"[^aeiouy]{4}")


def wordlike_share(value: str) -> float:
    """The share of ``value``'s letters that sit in pronounceable pieces of 3+ letters.

    Identifiers and prose ("user_profile_settings_v2", "ArrowUpKey") score near 1,
    random tokens well under 0.4: their letter pieces are short or unpronounceable.
    """
    letters = sum(c.isalpha() for c in value)
    if not letters:
        return 0.0
    wordlike = 0
    for piece in _PIECES.findall(value):
        low = piece.lower()
        if (
            len(piece) >= 3
            and piece.isalpha()
            and _VOWEL.search(low)
            and not _CONSONANTS_4.search(low)
        ):
            wordlike += len(piece)
    return wordlike / letters


#: Thresholds of ``looks_random``, measured with benchmarks/secret_corpus.py --entropy:
#: random base62/base64/hex values of 16-64 characters pass ~80% of the time (the rest
#: are caught by their prefix or a strong keyword), identifiers and words almost never.
MIN_RANDOM_LENGTH = 16
MIN_RANDOM_ENTROPY = 3.5
MAX_WORDLIKE_SHARE = 0.4
_TOKEN_VALUE = re.compile(r"[A-Za-z0-9+/=_~-]+")
_HEX = re.compile(r"[0-9a-f]+|[0-9A-F]+")
_SCREAMING_CASE = re.compile(r"[A-Z0-9]+(?:_[A-Z0-9]+)+")


def looks_random(value: str) -> bool:
    """Whether a value with no telling prefix or keyword still looks like a credential.

    It must be a token (base64/base64url/hex characters, 16 or more, letters and digits
    mixed) that is not a constant name (``MAX_RETRY_COUNT_V2``), and either hex or of
    high entropy with few word-like pieces.
    """
    if len(value) < MIN_RANDOM_LENGTH or not _TOKEN_VALUE.fullmatch(value):
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if _SCREAMING_CASE.fullmatch(value):
        return False
    if _HEX.fullmatch(value):
        return True
    return (
        shannon_entropy(value) >= MIN_RANDOM_ENTROPY and wordlike_share(value) <= MAX_WORDLIKE_SHARE
    )


# --- placeholders: what a token looks like in docs, templates and tests ---------------

#: Words that mark a value as a stand-in ("AKIAIOSFODNN7EXAMPLE", "sk_live_your_key_here").
#: "fake" is not one: our own fixtures are fake on purpose and must still be caught.
_PLACEHOLDER_WORD = re.compile(
    r"(?i)example|sample|placeholder|dummy|redacted|changeme|replace_?me|your[_-]|insert[_-]"
)
#: A run this long of one character ("ghp_xxxxxxxx...", "AKIAXXXXXXXXXXXXXXXX", "0000000").
_MAX_SAME_RUN = 6
#: Below this many bits per character a body of 12+ characters is a pattern, not a draw.
_MIN_PLACEHOLDER_ENTROPY = 2.0
#: Share of neighbours that step by one code point ("abcdefgh", "123456789") above which
#: a body is a sequence someone typed.
_MAX_SEQUENTIAL_SHARE = 0.6
#: Eight or more letters of the alphabet in order ("abcdefgh", "MNOPQRST").
_ALPHABET_RUN = re.compile(
    "|".join(
        f"{alphabet[i : i + 8]}"
        for alphabet in ("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for i in range(19)
    )
)


def _same_run(value: str) -> int:
    longest, current = 1, 1
    for index in range(1, len(value)):
        current = current + 1 if value[index] == value[index - 1] else 1
        longest = max(longest, current)
    return longest


def _short_period(value: str) -> bool:
    """Whether ``value`` repeats a unit of 1 to 4 characters ("abab", "12341234")."""
    return any(
        len(value) >= 3 * period and value == (value[:period] * len(value))[: len(value)]
        for period in range(1, 5)
    )


def is_placeholder(body: str) -> bool:
    """Whether a token body (what follows its vendor prefix) is a stand-in, not a draw.

    Rule sets flag these as their own false positives (gitleaks' ``ghp_`` + x's,
    ``AKIAXXXXXXXXXXXXXXXX``, ``AKIAIOSFODNN7EXAMPLE``): a long run of one character, a
    marker word (EXAMPLE, sample, your_...), a unit of 1-4 characters repeated, a
    sequence ("abcdef...", "123456..."), or very low entropy. A random body of the
    lengths tokens have (12+) trips none of them but rarely; our fixtures' fake bodies
    (``Fa1KeX9Zq`` repeated, ~3 bits a character) trip none.
    """
    if _PLACEHOLDER_WORD.search(body):
        return True
    core = "".join(char for char in body if char.isalnum())
    if len(core) < 8:
        return False
    if _same_run(core) >= _MAX_SAME_RUN or _short_period(core.lower()):
        return True
    if _ALPHABET_RUN.search(core):
        return True
    steps = sum(ord(core[i]) - ord(core[i - 1]) == 1 for i in range(1, len(core)))
    # A few distinct characters stepping by one ("1234567890123456"); a hex alphabet
    # spelled out twice (a fixture's Twilio SID) has 16 and stays a secret.
    if steps / (len(core) - 1) > _MAX_SEQUENTIAL_SHARE and len(set(core)) <= 12:
        return True
    return len(core) >= 12 and shannon_entropy(core) < _MIN_PLACEHOLDER_ENTROPY


def token_rule(
    kind: str,
    body: str,
    *literals: str,
    validate: Validator | None = has_mixed_case_or_digit,
    left: str = r"(?<![A-Za-z0-9_.+/-])",
    right: str = r"(?![A-Za-z0-9_+/=-])",
    check_placeholder: bool = True,
) -> Rule:
    """A run-gated rule for a prefix-bearing token ``body`` standing alone.

    Standing alone: not inside a longer token on either side. An "=" before it is a
    boundary (``NAME=token``, ``?key=token``): base64 padding never precedes a token.

    It is found only in texts with one of ``literals`` in or just before a long run
    (``Needs(run=True)``), and kept only when ``validate`` accepts it and what follows
    its prefix (the longest of ``literals`` it opens with) is not a placeholder (unless
    ``check_placeholder`` is off: a ``validate`` that knows the format does it).
    """

    def check(match: re.Match[str]) -> bool:
        if validate is not None and not validate(match):
            return False
        if not check_placeholder:
            return True
        secret = secret_of(match)
        prefix = max((lit for lit in literals if secret.startswith(lit)), key=len, default="")
        return not is_placeholder(secret[len(prefix) :])

    return Rule(
        kind, re.compile(f"{left}(?:{body}){right}"), check, needs=Needs(any_of=literals, run=True)
    )


def not_placeholder(validate: Validator | None, prefix: int | re.Pattern[str] = 0) -> Validator:
    """``validate`` (if any), and the secret after its prefix is not a placeholder: the
    first ``prefix`` characters (AKIA, ghp_), or what the pattern ``prefix`` matches at
    its start (``sk_live_``, ``sk-ant-api03-``)."""

    def check(match: re.Match[str]) -> bool:
        if validate is not None and not validate(match):
            return False
        secret = secret_of(match)
        if isinstance(prefix, int):
            return not is_placeholder(secret[prefix:])
        opening = prefix.match(secret)
        return not is_placeholder(secret[opening.end() if opening else 0 :])

    return check
