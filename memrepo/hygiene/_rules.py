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
from collections.abc import Iterator

from . import _encoded, _keyed, _life, _structural
from ._assign import ASSIGNMENT as _ASSIGNMENT
from ._assign import ASSIGNMENT_NEEDS as _ASSIGNMENT_NEEDS
from ._assign import assignment_spans, assignment_value
from ._base import (
    MAX_RULE_SPAN,
    Detector,
    Rule,
    has_letter_and_digit,
    not_placeholder,
    secret_of,
    wordlike_share,
)
from ._cards import is_card_number
from ._context import COMMAND_LINE_DETECTOR, CONTEXT_PATTERNS, CONTEXT_RULES, PAIR_DETECTORS
from ._encoded_decode import ENCODED_RUN, EncodedSecrets
from ._needs import Needs, lowered_for_needs, run_haystack
from ._tokens import TOKEN_RULES
from .custom import custom_detectors

__all__ = [
    "BOUNDED_PATTERNS",
    "DETECTORS",
    "MAX_RULE_SPAN",
    "PRIVATE_KEY_BEGIN",
    "RULES",
    "Detector",
    "Rule",
    "assignment_spans",
    "assignment_value",
    "detectors_for",
    "private_key_end",
    "private_key_spans",
]


def _looks_base64_random(match: re.Match[str]) -> bool:
    """A 40-char AWS secret mixes upper, lower and digits; a 40-hex git SHA has no upper."""
    value = match.group("secret")
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


# "sk-", "sk-proj-", "sk-ant-api03-", "sk_live_": what precedes the random part.
_API_KEY_PREFIX = re.compile(r"[sr]k[-_](?:[a-z]+[0-9]*[-_])*")


def _api_key(match: re.Match[str]) -> bool:
    """A random key mixes letters and digits; a hyphenated slug of words
    ("sk-2024-summer-sale-banner-v2") does not read as random."""
    body = secret_of(match)
    if not has_letter_and_digit(match):
        return False
    return not (body.startswith("sk-") and wordlike_share(body[3:]) >= 0.7)


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


_CORE_FIRST: tuple[Rule, ...] = (
    Rule(
        "aws_access_key_id",
        re.compile(
            r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"
        ),
        not_placeholder(None, 4),
        needs=Needs(any_of=("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), run=True),
    ),
    Rule(
        "github_token",
        re.compile(
            r"(?<![A-Za-z0-9_])"
            r"(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,243})"
            r"(?![A-Za-z0-9_])"
        ),
        not_placeholder(None, 4),
        needs=Needs(any_of=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), run=True),
    ),
    Rule(
        "gitlab_token",
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"gl(?:pat|dt|rt|ptt|oas|cbt|ft|ffct|soat|imt|agent)-"
            r"[A-Za-z0-9_.-]{19,250}[A-Za-z0-9_-]"
            r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])"
        ),
        not_placeholder(None, 5),
        needs=Needs(
            any_of=(
                *("glpat-", "gldt-", "glrt-", "glptt-", "gloas-", "glffct-"),
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
        not_placeholder(has_letter_and_digit, 5),
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
        not_placeholder(None),
        needs=Needs(any_of=("hooks.slack.com/",), folded=True),
    ),
    Rule(
        "google_api_key",
        re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
        not_placeholder(None, 4),
        needs=Needs(any_of=("AIza",), run=True),
    ),
    Rule(
        "api_key",
        # OpenAI / Anthropic style (sk-, sk-proj-, sk-ant-api03-) and Stripe's sk_live_.
        # The lookbehind keeps "task-list" and "risk-free" out; the digit check keeps
        # hyphenated prose ("sk-learn-style-pipelines-everywhere") out.
        re.compile(
            r"(?<![A-Za-z0-9_-])"
            r"(?P<secret>sk-[A-Za-z0-9_-]{20,301}"
            r"|[sr]k_(?:live|test|prod)_[A-Za-z0-9]{20,250})"
            r"(?![A-Za-z0-9_-])"
        ),
        not_placeholder(_api_key, _API_KEY_PREFIX),
        needs=Needs(
            any_of=("sk-", "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
            run=True,
        ),
    ),
)

_CORE_LAST: tuple[Rule, ...] = (
    Rule(
        "aws_secret_access_key",
        # 40 base64 characters within a few characters after the word "secret".
        re.compile(
            r"(?i)(?<![a-z0-9])secret[\w\s\"':=>.-]{0,30}?"
            r"(?<![A-Za-z0-9/+])(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        not_placeholder(_looks_base64_random),
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
        is_card_number,
        # No literal, but every branch holds 9 digits in a row (13+ in one run) or two
        # groups of 4 joined by one separator (4-4-4-4, 4-6-5).
        needs=Needs(shapes=(b"000000000", b"0000-0000")),
    ),
)

#: Every single-expression rule, most specific first.
RULES: tuple[Rule, ...] = (*_CORE_FIRST, *TOKEN_RULES, *CONTEXT_RULES, *_CORE_LAST)

#: The detector families kept in modules of their own, each with the expressions its
#: finders run (``PATTERNS_OF``: read by the bounded-width and needs tests).
_FAMILY_MODULES = (_encoded, _keyed, _life, _structural)


def _decoded_inner(text: str) -> Iterator[Detector]:
    """What screens a decoded run: every detector, the person's own rules included."""
    yield from detectors_for(text)
    yield from custom_detectors()


#: Base64 and hex runs that decode to a secret (``_encoded_decode``): built here because it
#: screens the decoded text with every detector of this module, itself included.
DECODED = Detector("encoded_secret", EncodedSecrets(_decoded_inner), Needs(run=True))

#: Every expression the finders run; each match spans at most MAX_RULE_SPAN characters.
BOUNDED_PATTERNS: tuple[re.Pattern[str], ...] = (
    PRIVATE_KEY_BEGIN,
    _PRIVATE_KEY_END,
    *(rule.pattern for rule in RULES),
    *CONTEXT_PATTERNS,
    _ASSIGNMENT,
    *(
        pattern
        for module in _FAMILY_MODULES
        for patterns in module.PATTERNS_OF.values()
        for pattern in patterns
    ),
    ENCODED_RUN,
)

#: From most to least specific: when candidates overlap they are merged and the merged
#: span takes the kind that comes first here. Vendor shapes (a prefix, a keyword) come
#: before the structural rules that would also catch them under a vaguer kind.
DETECTORS: tuple[Detector, ...] = (
    Detector("private_key", private_key_spans, _PRIVATE_KEY_NEEDS),
    *(Detector(rule.kind, rule.spans, rule.needs) for rule in _CORE_FIRST),
    *_encoded.DETECTORS,
    DECODED,
    *(Detector(rule.kind, rule.spans, rule.needs) for rule in (*TOKEN_RULES, *CONTEXT_RULES)),
    *_keyed.DETECTORS,
    *_life.DETECTORS,
    *(Detector(rule.kind, rule.spans, rule.needs) for rule in _CORE_LAST),
    *PAIR_DETECTORS,
    COMMAND_LINE_DETECTOR,
    *_structural.DETECTORS,
    Detector("assignment", assignment_spans, _ASSIGNMENT_NEEDS),
    *_structural.LAST_DETECTORS,
)


#: The detectors without a long-run gate: all a text without long runs can need.
_UNGATED: tuple[Detector, ...] = tuple(d for d in DETECTORS if not d.needs.run)


def detectors_for(text: str) -> Iterator[Detector]:
    """The detectors that may find something in ``text``: those whose needs it meets.

    Run-gated needs are checked on ``run_haystack(text)``, computed once; on a text
    without long runs (most memory lines and prose) it is empty and the gated detectors
    are not even visited, so adding vendor rules costs such texts nothing.
    """
    lowered = lowered_for_needs(text)
    haystack = run_haystack(text)
    for detector in DETECTORS if haystack else _UNGATED:
        needs = detector.needs
        if needs.run:
            if needs.met_by(haystack, haystack):
                yield detector
        elif needs.met_by(text, lowered):
            yield detector
