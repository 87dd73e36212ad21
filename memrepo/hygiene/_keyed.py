"""Vendor credentials known by a keyword in the name they are assigned to (issue #27).

Most vendors' keys carry no prefix: an Airtable key is 17 letters and digits, a Datadog
key 40, an Asana client id 16 digits. What gives them away is the name they are
assigned to (``AIRTABLE_API_KEY=...``, ``"datadog_token": "..."``), the way gitleaks'
semi-generic rules and trufflehog's keyword-prefixed detectors find them. One detector
serves the whole table of ``_keyed_table``:

1. a text without a long run (``_needs.long_runs``) holds no candidate, and is skipped
   before any keyword is looked up: every value here is, or sits just after, a run of 16+
   token characters (``_CANDIDATE`` says how);
2. one expression, a trie of every keyword spelling, finds the keywords near the runs;
3. after each, ``_AFTER`` reads ``name op value`` as the generated configs write it:
   the rest of the name (``Token``, ``_API_KEY``, `` key``), a closing quote, one of
   ``= := ::= ?= += .= => : > , ||`` or ``is``, opening quotes, a YAML block marker or a
   line break, then the value;
4. the value is kept only when it fits one of the keyword's families whole, is not a
   placeholder, mixes letters and digits (where the family allows both), and, when it
   could be an ordinary id (hex, digits, a UUID), the name says it is a secret.

Only the value is redacted; the name stays readable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._base import Detector, Finder, is_placeholder, wordlike_share
from ._keyed_table import KEYED_FAMILIES, KeyedFamily
from ._needs import RUN_LEAD, RUN_LENGTH, Needs, long_runs

KIND = "vendor_key"


def spellings(keyword: str) -> tuple[str, ...]:
    """How a name may spell ``keyword``: as written, lower, upper and capitalised."""
    return tuple(dict.fromkeys((keyword, keyword.lower(), keyword.upper(), keyword.capitalize())))


#: Families by keyword, lowercased.
_FAMILIES_OF: dict[str, tuple[KeyedFamily, ...]] = {}
for _family in KEYED_FAMILIES:
    for _keyword in _family.keywords:
        _key = _keyword.lower()
        _FAMILIES_OF[_key] = (*_FAMILIES_OF.get(_key, ()), _family)

#: Every spelling of every keyword (the needs, and what the trie is built from).
SPELLINGS: tuple[str, ...] = tuple(
    sorted({s for family in KEYED_FAMILIES for k in family.keywords for s in spellings(k)})
)
_SPELLING_LENGTHS = sorted({len(s) for s in SPELLINGS}, reverse=True)
_SPELLING_SET = frozenset(SPELLINGS)

_RUN = "[A-Za-z0-9_+/=-]"


def _continuation(length: int) -> str:
    """What follows a keyword of ``length`` characters in a candidate: a long run that
    starts at most RUN_LEAD characters after the keyword's start (the value), or run
    characters that make the keyword part of a long run itself (``LINKEDIN_CLIENT_ID``).
    Either way the keyword is in ``run_haystack``, which is what the needs promise."""
    gap = RUN_LEAD - length
    rest = max(0, RUN_LENGTH - length)
    return f"(?:[\\s\\S]{{0,{gap}}}{_RUN}{{{RUN_LENGTH}}}|{_RUN}{{{rest}}})"


def _trie(words: dict[str, str]) -> str:
    """An expression for ``words`` (each followed by its continuation) as a trie, so
    the engine tries a position against a few branches, not against every keyword."""
    root: dict[str, object] = {}
    for word, tail in words.items():
        node = root
        for char in word:
            node = node.setdefault(char, {})  # type: ignore[assignment]
        node[""] = tail

    def emit(node: dict[str, object]) -> str:
        branches = [re.escape(c) + emit(node[c]) for c in sorted(node) if c]  # type: ignore[arg-type]
        if "" in node:
            branches.append(str(node[""]))
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(root)


#: A keyword spelling followed by what puts it within reach of a long run.
_CANDIDATE = re.compile(_trie({s: _continuation(len(s)) for s in SPELLINGS}))

# The rest of the name, a closing quote, the operator, opening quotes or a block marker,
# and the value (checked whole against the families in Python).
_AFTER = re.compile(
    r"""
    (?P<tail> [A-Za-z0-9_.-]{0,30} (?: [ \t]{1,2} [A-Za-z0-9_.-]{1,16} ){0,2}? )
    (?: \\? ["'`] )? \]?
    [ \t]{0,3}
    (?: :{1,3}= | [?+.]?=>? | : | > | , | \|\| | (?<=[ \t]) (?:is|was) (?=[ \t]) )
    (?: [ \t"'`] | \\["'`] | [|>][-+]? (?=[ \t\r\n]) | \r?\n ){0,8}
    (?P<value> [A-Za-z0-9_+/=.%:-]{8,300} )
    """,
    re.VERBOSE,
)
_VALUE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=.%:-")
_COMPILED = {f: re.compile(f"(?:{f.value})", re.IGNORECASE) for f in KEYED_FAMILIES}
_DIGITS_ONLY = {f: set(f.value) <= set("[]0123456789{},-") for f in KEYED_FAMILIES}

#: Words in a name that say its value is a secret; an id-like value needs one.
_SECRET_WORD = re.compile(
    r"(?i)key|token|secret|pass|pwd|auth|cred|api|access|bearer|sig|private|client|sid"
)
#: Words in a name that say its value is not one (a host, a hash, a version, a file).
_PUBLIC_WORD = re.compile(
    r"(?i)ur[li]|host|domain|site|region|endpoint|version|path|file|name|commit|sha\b|sha1"
    r"|sha256|hash|checksum|digest|revision|email|base(?!64)|table|view|record|workspace"
    r"|channel|room"
)
_ID_LIKE = re.compile(r"[0-9a-fA-F-]+|[0-9]+")
#: Above this share of word-like letters a mixed-case value is an identifier
#: (``ourTeamChannelForBackend2024``), not a draw: random base62 values of 20+ characters
#: stay under it 99.9% of the time. Lowercase draws read as words far more often, so a
#: lowercase value is judged by its pieces instead (``_is_slug``).
_MAX_WORDLIKE = 0.85
_SEPARATORS = re.compile(r"[-_.]+")


def keyed_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values assigned to a name with a vendor keyword that fit that vendor's shape."""
    runs = long_runs(text)
    if not runs:
        return
    tried: set[int] = set()
    for start, end in runs:
        position = max(0, start - RUN_LEAD)
        while (match := _CANDIDATE.search(text, position, end)) is not None:
            position = match.start() + 1
            if match.start() in tried:
                continue
            tried.add(match.start())
            span = _value_after(text, match.start())
            if span is not None:
                yield span


def _value_after(
    text: str, start: int, keyword: str | None = None, *, short_only: bool = False
) -> tuple[int, int] | None:
    """The span of the value assigned to the name whose keyword begins at ``start``
    (``keyword``, or the longest spelling found there); with ``short_only``, of the
    families whose values are too short to make a long run."""
    keyword = keyword or _keyword_at(text, start)
    if keyword is None or not _begins_name(text, start, keyword):
        return None
    after = _AFTER.match(text, start + len(keyword))
    if after is None:
        return None
    value_start, value_end = after.span("value")
    if value_end < len(text) and text[value_end] in _VALUE_CHARS:
        return None  # longer than any family's value
    while value_end > value_start and text[value_end - 1] in ".:":
        value_end -= 1
    name = keyword + after.group("tail")
    value = text[value_start:value_end]
    for family in _FAMILIES_OF[keyword.lower()]:
        if short_only and family not in _SHORT_FAMILIES:
            continue
        if _COMPILED[family].fullmatch(value) and _accepted(family, keyword, name, value):
            return value_start, value_end
    return None


def _keyword_at(text: str, start: int) -> str | None:
    """The longest keyword spelling that begins at ``start``."""
    for length in _SPELLING_LENGTHS:
        word = text[start : start + length]
        if word in _SPELLING_SET:
            return word
    return None


def _begins_name(text: str, start: int, keyword: str) -> bool:
    """Whether the keyword starts a word of the name: after a non-alphanumeric, or a
    capital after a lowercase letter or digit (``myAirtableKey``); "nonlinear" and
    "global" do not name Linear or Lob."""
    if start == 0 or not text[start - 1].isalnum():
        return True
    return keyword[0].isupper() and (text[start - 1].islower() or text[start - 1].isdigit())


def _accepted(family: KeyedFamily, keyword: str, name: str, value: str) -> bool:
    """Whether ``value``, which fits ``family`` and is assigned to ``name`` (which opens
    with ``keyword``), is a credential and not a stand-in or a public id."""
    if _PUBLIC_WORD.search(name[len(keyword) :]):
        return False
    if _ID_LIKE.fullmatch(value) and not _SECRET_WORD.search(name):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_letter = any(c.isalpha() for c in value)
    if not has_digit or not (has_letter or _DIGITS_ONLY[family]):
        return False
    body = value.replace(family.fixed, "") if family.fixed else value
    if is_placeholder(body) or _is_slug(body):
        return False
    mixed_case = any(c.isupper() for c in body) and any(c.islower() for c in body)
    return not mixed_case or wordlike_share(body) <= _MAX_WORDLIKE


def _is_slug(value: str) -> bool:
    """Whether ``value`` is words and numbers joined by separators, three or more
    (``our-team-channel-for-devs-24``): a random draw puts digits inside its pieces."""
    pieces = [piece for piece in _SEPARATORS.split(value) if piece]
    return len(pieces) >= 3 and all(p.isalpha() or p.isdigit() for p in pieces)


# --- the few families whose values are shorter than a long run ----------------------

#: Dropbox's app key (15), LinkedIn's client id (14), Sumo Logic's access id (14): a
#: text holding one need not have a long run, so they get a detector of their own with
#: a handful of folded keywords (a few substring lookups a text).
_SHORT_KEYWORDS = ("dropbox", "linkedin", "linked_in", "linked-in", "sumo")
_SHORT_FAMILIES = frozenset(
    f
    for k in _SHORT_KEYWORDS
    for f in _FAMILIES_OF[k]
    if f.name in {"dropbox", "linkedin_client_id", "sumologic_id"}
)
_SHORT = re.compile(r"(?i)dropbox|linked[_-]?in|sumo")


def short_keyed_spans(text: str) -> Iterator[tuple[int, int]]:
    """Values of the short keyed families (see ``_SHORT_FAMILIES``)."""
    for match in _SHORT.finditer(text):
        keyword = match.group()
        if keyword.lower() not in _FAMILIES_OF:
            continue  # a look-alike character (the Kelvin sign) matched a letter
        span = _value_after(text, match.start(), keyword, short_only=True)
        if span is not None:
            yield span


_NEEDS = Needs(any_of=SPELLINGS, run=True)

#: This module's detectors, most specific first.
DETECTORS: tuple[Detector, ...] = (
    Detector(KIND, keyed_spans, _NEEDS),
    # "linked" is in every spelling of LinkedIn: three lookups, not five.
    Detector(KIND, short_keyed_spans, Needs(any_of=("dropbox", "linked", "sumo"), folded=True)),
)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
#: ``_AFTER`` only reads on from a candidate's keyword.
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    keyed_spans: (_CANDIDATE,),
    short_keyed_spans: (_SHORT,),
}
