"""The detectors' needs skip work, never a secret.

Every detector states what each of its matches contains (substrings, digit shapes) and
runs only on texts that have it. These tests hold that to "changes no result", three ways:

- where a pattern opens with literals, every opening it allows is enumerated from the
  parsed pattern and must meet the needs (a proof, not a sample);
- matches drawn from each pattern by hypothesis, with text around them and non-ASCII
  look-alikes swapped in, must meet the needs, valid credential or not;
- ``find_secrets`` must equal every detector run unconditionally, on texts built from
  the needs, their case variants, the characters Python's ``(?i)`` equates with ASCII
  letters, pattern matches and plain ``st.text()``.

Fake tokens are written as split string literals so that secret scanners reading this
file do not flag it; the code under test only ever sees the joined value.
"""

from __future__ import annotations

import functools
import re
import sys
from re import _constants, _parser  # type: ignore[attr-defined]  # stdlib, no stub
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memrepo.hygiene import (
    _encoded,
    _keyed,
    _life,
    _structural,
    find_secrets,
    redact_secrets,
    screen,
)
from memrepo.hygiene._assign import ASSIGNMENT as _ASSIGNMENT
from memrepo.hygiene._base import Finder
from memrepo.hygiene._context import (
    _AWS_KEY_ID,
    _CURL_USER,
    _MYSQL,
    _SSHPASS,
    _TWILIO_SID,
    aws_secret_near_key_id,
    command_line_spans,
    twilio_token_near_sid,
)
from memrepo.hygiene._encoded_decode import ENCODED_RUN
from memrepo.hygiene._needs import (
    CASE_LOOKALIKES,
    lowered_for_needs,
)
from memrepo.hygiene._rules import (
    DECODED,
    DETECTORS,
    PRIVATE_KEY_BEGIN,
    RULES,
    Detector,
    assignment_spans,
    detectors_for,
    private_key_spans,
)
from memrepo.hygiene.secrets import SecretMatch, merge_candidates

LINE = (
    "Fact 72: session invoice release review plugin [sources: memrepo://tasks/72, "
    "memrepo://tasks/99; added: 2025-01-17; by: agent]"
)
PROSE = (
    "The team met on Tuesday to discuss the roadmap for the next quarter and agreed that "
    "the migration to the new storage layer should happen before any further feature work. "
) * 12
GITHUB_TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Lk3Pz9Q"
KELVIN, LONG_S, DOTLESS_I, DOTTED_I = "\u212a", "\u017f", "\u0131", "\u0130"


def _unfiltered(text: str) -> list[SecretMatch]:
    """What find_secrets gave before the needs: every detector, on every text."""
    return merge_candidates(
        (detector.kind, start, end) for detector in DETECTORS for start, end in detector.find(text)
    )


def _literals() -> list[str]:
    return sorted({literal for d in DETECTORS for literal in (*d.needs.any_of, *d.needs.all_of)})


def _look_alike_spellings(word: str) -> list[str]:
    """``word`` with each letter (?i) equates with a non-ASCII character swapped for it."""
    swaps = {"s": (LONG_S,), "k": (KELVIN,), "i": (DOTLESS_I, DOTTED_I)}
    return [
        word.replace(letter, other)
        for letter, others in swaps.items()
        if letter in word
        for other in others
    ]


def _pieces() -> list[str]:
    """Needs, their halves and case variants, look-alikes, and bodies that complete them."""
    pieces: set[str] = set()
    for literal in _literals():
        half = len(literal) // 2
        pieces.update({literal, literal.upper(), literal.title(), literal[:half], literal[half:]})
        pieces.update(_look_alike_spellings(literal))
    for word in ("password", "passphrase", "credentials", "api_key", "private-key", "bearer"):
        pieces.update({word, word.upper(), *_look_alike_spellings(word)})
    pieces.update(
        {
            *"0123456789:/@=_-. \t\n\"'`",
            *CASE_LOOKALIKES,
            KELVIN,
            "é",
            "\u2014",
            " is ",
            "A1b2C3d4E5f6G7h8I9j0",
            "ABCDEFGHIJKLMNOP",
            "Zx9kQ2mP7w",
            "hunter2x",
            "4111111111111111",
            "4111 1111 1111 1111",
            "user:Pa55word@",
            "services/",
            "T01ABCDEF/B02GHIJKL/aBcDeFgHiJkLmNoPqRsTuVwX",
            AWS_SECRET,
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.",
            " RSA PRIVATE KEY-----",
            "-----END RSA PRIVATE KEY-----",
        }
    )
    return sorted(pieces)


#: The expressions each detector reports matches of (its needs are read off them): for a
#: secret found next to its id, the id's pattern (no secret is found without one).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    private_key_spans: (PRIVATE_KEY_BEGIN,),
    assignment_spans: (_ASSIGNMENT,),
    aws_secret_near_key_id: (_AWS_KEY_ID,),
    twilio_token_near_sid: (_TWILIO_SID,),
    command_line_spans: (_SSHPASS, _MYSQL, _CURL_USER),
    **{rule.spans: (rule.pattern,) for rule in RULES},
    **_encoded.PATTERNS_OF,
    DECODED.find: (ENCODED_RUN,),
    **_keyed.PATTERNS_OF,
    **_life.PATTERNS_OF,
    **_structural.PATTERNS_OF,
}
ALL_PATTERNS = [(d, p) for d in DETECTORS for p in PATTERNS_OF[d.find]]
# Matches drawn from the patterns themselves: a second reading of each pattern, which
# reaches every alternative (xapp-, glagent-, rk_test_) whether or not a need names it.
PATTERN_MATCHES = st.one_of(
    *(st.from_regex(pattern, fullmatch=True) for _, pattern in ALL_PATTERNS)
)
PIECES = st.sampled_from(_pieces())
SEGMENTS = st.one_of(PATTERN_MATCHES, PIECES)
# Look-alikes swapped in after the fact, so they land inside drawn matches too.
RESPELLINGS = st.sampled_from(
    [("", ""), ("s", LONG_S), ("S", LONG_S), ("i", DOTLESS_I), ("I", DOTTED_I), ("k", KELVIN)]
)


def _respell(drawn: tuple[str, tuple[str, str], int]) -> str:
    text, (old, new), count = drawn
    return text.replace(old, new, count) if old else text


def respelled(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``strategy``'s texts, some with up to 3 of a letter swapped for a look-alike."""
    return st.tuples(strategy, RESPELLINGS, st.integers(1, 3)).map(_respell)


TEXTS = respelled(
    st.one_of(
        st.lists(SEGMENTS, max_size=8).map("".join),
        st.lists(SEGMENTS, max_size=8).map(" ".join),
        st.text(alphabet=st.sampled_from(sorted(set("".join(_pieces())))), max_size=200),
        st.text(),
    )
)


@functools.cache
def _matches_of(pattern: re.Pattern[str]) -> st.SearchStrategy[str]:
    """One strategy per expression for the whole run: building one for the longest (the
    vendor-name alternation, 25,000 characters) costs seconds, and Hypothesis's own cache
    of strategies has let it go by the time the expression's test runs."""
    return st.from_regex(pattern, fullmatch=True)


def _pattern_id(case: tuple[Detector, re.Pattern[str]]) -> str:
    detector, pattern = case
    name = getattr(detector.find, "__name__", type(detector.find).__name__)
    return f"{detector.kind}-{name}-{PATTERNS_OF[detector.find].index(pattern)}"


@pytest.mark.slow
@pytest.mark.parametrize("case", ALL_PATTERNS, ids=_pattern_id)
# 60-odd patterns; the combined tests below draw from all. Drawing from a credential's
# expression takes ~0.2 s a draw on a loaded 2-core machine: how fast inputs come is the
# machine's business, not the detector's, so the slow-generation check is off here.
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_match_of_a_pattern_meets_its_needs(
    case: tuple[Detector, re.Pattern[str]], data: st.DataObject
) -> None:
    """Stronger than the results: any match of the expression, valid credential or not,
    makes ``detectors_for`` run the detector (run-gated needs included)."""
    detector, pattern = case
    around = st.lists(PIECES, max_size=3).map("".join)
    match = _matches_of(pattern)
    text = data.draw(respelled(st.tuples(around, match, around).map(" ".join)))
    if pattern.search(text):
        assert detector in set(detectors_for(text)), text


def _openings(items: list[tuple[object, object]]) -> tuple[set[str], bool]:
    """The literal texts a match of parsed ``items`` can begin with, read up to the first
    part that is not a fixed choice of literals; and whether all of ``items`` was read.

    Zero-width assertions are passed over, ``x?`` is "x or nothing"; any other repeat,
    range or class stops the reading (the texts are then prefixes of matches).
    """
    openings = {""}
    for op, av in items:
        if op in (_constants.ASSERT, _constants.ASSERT_NOT, _constants.AT):
            continue
        choices, whole = _choices(op, av)
        openings = {opening + choice for opening in openings for choice in choices}
        if not whole:
            return openings, False
    return openings, True


def _choices(op: object, av: Any) -> tuple[set[str], bool]:
    if op is _constants.LITERAL:
        return {chr(av)}, True
    if op is _constants.IN and all(kind is _constants.LITERAL for kind, _ in av):
        return {chr(code) for _, code in av}, True
    if op is _constants.SUBPATTERN:
        return _openings(av[3])
    if op is _constants.BRANCH:
        branches = [_openings(branch) for branch in av[1]]
        return {text for texts, _ in branches for text in texts}, all(w for _, w in branches)
    if op is _constants.MAX_REPEAT and av[1] == 1:
        texts, whole = _openings(av[2])
        return texts | {""} if av[0] == 0 else texts, whole
    return {""}, False


#: Patterns some of whose matches open with a class (a URL scheme, a card's digits, a
#: Discord token's first letter, a Telegram bot id, an Azure AD secret, a Terraform
#: token): nothing to enumerate, left to the property tests.
OPENS_WITH_A_CLASS = {
    *("url_credentials", "card_number", "discord_token", "telegram_token"),
    # Signatures inside the key (Azure's "+ASt"), a suffix ("-us1", "_mmk", "=="), or
    # no literal at all (a 52-character Azure DevOps PAT).
    *("azure_key", "azure_storage_key", "azure_devops_token", "dropbox_token"),
    *("mailchimp_key", "maxmind_key"),
    # Twelve list words, a hex or base58 wallet key, any base64 or hex run: no literal.
    *("seed_phrase", "wallet_key", "encoded_secret"),
}


@pytest.mark.parametrize("case", ALL_PATTERNS, ids=_pattern_id)
def test_every_way_a_pattern_begins_meets_its_needs(
    case: tuple[Detector, re.Pattern[str]],
) -> None:
    """A proof where the pattern opens with literals: enumerate every literal opening it
    allows (all 5 GitHub prefixes, all 10 GitLab ones, "api-key" and "api_token", every
    vendor prefix) and check each holds one of the needs."""
    detector, pattern = case
    openings, _ = _openings(list(_parser.parse(pattern.pattern, pattern.flags)))
    if detector.kind in {"discord_token", "telegram_token"}:
        return  # the literal ("." or ":AA") comes after the opening
    if "" in openings:
        class_openings = ("(?<![A-Za-z0-9_~", "(?<![A-Za-z0-9_.+/=-])[A-Za-z0-9]{14}")
        assert detector.kind in OPENS_WITH_A_CLASS or (
            detector.kind == "service_token" and pattern.pattern.startswith(class_openings)
        ), pattern.pattern
        return
    # Every opening holds one of the needed substrings (``all_of`` ones, like the "=" of
    # a connection string, may come later).
    wanted = detector.needs.any_of
    for opening in openings:
        haystack = opening.lower() if detector.needs.folded else opening
        assert any(literal in haystack for literal in wanted), opening


@pytest.mark.slow
@given(TEXTS)
@example("pa" + LONG_S * 2 + "word=hunter2x")
@example(f"to{KELVIN}en=abc123def and {DOTTED_I}ntro SECRET: {AWS_SECRET}")
@example(LONG_S + "ecret: " + AWS_SECRET)
@example(LINE)
def test_needs_change_no_result(text: str) -> None:
    assert find_secrets(text) == _unfiltered(text)
    # Detector by detector, so one that finds nothing because another covers its match
    # cannot hide an unsound need.
    running = set(detectors_for(text))
    for detector in DETECTORS:
        if detector not in running:
            assert list(detector.find(text)) == [], (detector.kind, text)


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        ("pa" + LONG_S * 2 + "word=hunter2x", "hunter2x", "assignment"),
        (f"to{KELVIN}en=abc123def", "abc123def", "assignment"),
        (f"credent{DOTLESS_I}al: Zx9kQ2mP7w", "Zx9kQ2mP7w", "assignment"),
        ("PASSWORD=Hunter2xyz", "Hunter2xyz", "assignment"),
        ("my pa" + LONG_S * 2 + "word is 2fast4you", "2fast4you", "assignment"),
        ("Authorization: BEARER abcdef1234567890XYZ", "abcdef1234567890XYZ", "assignment"),
        (f"{LONG_S}ecret: {AWS_SECRET}", AWS_SECRET, "aws_secret_access_key"),
        (f"{DOTTED_I}ntro SECRET_KEY = {AWS_SECRET}", AWS_SECRET, "aws_secret_access_key"),
        (f"Café notes \u2014 CI uses {GITHUB_TOKEN} to push", GITHUB_TOKEN, "github_token"),
        ("pay with 4111 1111 1111 1111 today", "4111 1111 1111 1111", "card_number"),
    ],
)
def test_case_variants_and_look_alikes_are_still_found(text: str, secret: str, kind: str) -> None:
    assert [(m.kind, text[m.start : m.end]) for m in find_secrets(text)] == [(kind, secret)]
    redacted, kinds = redact_secrets(text)
    assert secret not in redacted
    assert kinds == (kind,)
    screened = screen(text)
    assert screened.redacted == (kind,)
    assert screened.text is not None and secret not in screened.text


def test_uppercase_url_credentials_and_webhook_are_found() -> None:
    webhook = "T01ABCDEF/B02GHIJKL/" + "aBcDeFgHiJkLmNoPqRsTuVwX"
    text = f"HTTPS://USER:Pa55word@HOOKS.SLACK.COM/services/{webhook}"
    assert [(m.kind, text[m.start : m.end]) for m in find_secrets(text)] == [
        ("url_credentials", "USER:Pa55word"),
        ("slack_token", webhook),
    ]


def test_ordinary_text_runs_no_detector() -> None:
    """The point of the needs: a memory line or a paragraph of prose is not scanned."""
    assert list(detectors_for(LINE)) == []
    # Prose with a dozen short words in a row ("the new storage layer should happen before
    # any further feature work") passes the seed-phrase shape; that detector's first step
    # is one pass over the words (_life_seed.seed_phrase_spans), no expression.
    assert [d.kind for d in detectors_for(PROSE)] == ["seed_phrase"]
    assert list(detectors_for(PROSE.replace("feature work", "feature-work"))) == []
    dated = "2025-01-17 ticket 4521, room 101, 14:32, build 20240305.1, call 555-1234"
    assert list(detectors_for(dated)) == []
    # The Azure DevOps PAT rule has no literal: it runs on every text with a long run.
    # So do base64/hex decoding and raw wallet keys; WIF keys open with a digit or letter.
    assert [d.kind for d in detectors_for(f"CI uses {GITHUB_TOKEN}")] == [
        "github_token",
        "encoded_secret",
        "azure_devops_token",
        "wallet_key",
        "wallet_key",
    ]


def test_case_insensitive_patterns_have_folded_needs() -> None:
    """A case-sensitive lookup of "secret" would miss "SECRET": every (?i) pattern's needs
    are folded, and folded needs are lowercase ASCII (how the lowered text is compared)."""
    for detector, pattern in ALL_PATTERNS:
        if detector.needs.shape_check is not None and not detector.needs.any_of:
            continue  # no literal to fold: the shape maps (?i)'s look-alikes itself
        assert detector.needs.folded == bool(pattern.flags & re.IGNORECASE), pattern.pattern
        if detector.needs.folded:
            for literal in (*detector.needs.any_of, *detector.needs.all_of):
                assert literal.isascii() and literal == literal.lower(), literal


@pytest.mark.slow
def test_case_lookalikes_are_every_character_lower_misses() -> None:
    """Over every code point: a character (?i) matches to a folded literal's character
    lowers to that character, unless it is one of CASE_LOOKALIKES (then nothing is folded)."""
    every_character = "".join(map(chr, range(sys.maxunicode + 1)))
    folded_chars = {
        char
        for d in DETECTORS
        if d.needs.folded
        for literal in (*d.needs.any_of, *d.needs.all_of)
        for char in literal
    }
    misses: set[str] = set()
    for char in sorted(folded_chars):
        matches = re.findall("(?i)" + re.escape(char), every_character)
        misses.update(m for m in matches if m.lower() != char)
    assert misses <= set(CASE_LOOKALIKES)
    # And none is listed for nothing (each one switches the fold off for a whole text).
    assert misses == set(CASE_LOOKALIKES)


@pytest.mark.parametrize("look_alike", CASE_LOOKALIKES)
def test_a_look_alike_turns_the_fold_off(look_alike: str) -> None:
    assert lowered_for_needs(f"Caf\u00e9 {look_alike}") is None


def test_other_texts_are_folded() -> None:
    assert lowered_for_needs("ASCII Only") == "ascii only"
    assert (
        lowered_for_needs(f"Caf\u00e9 {KELVIN} \u2014 \u00c9t\u00e9")
        == "caf\u00e9 k \u2014 \u00e9t\u00e9"
    )
