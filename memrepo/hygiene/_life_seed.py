"""BIP-39 seed phrases: 12 to 24 words of the English list whose last bits are a checksum.

The word list and the checksum are the reference ones of the ``mnemonic`` package (the
Trezor implementation of BIP-39, github.com/bitcoin/bips/blob/master/bip-0039.mediawiki),
imported only when a text holds a run of a dozen short words, so importing ``hygiene``
stays cheap. A run of list words whose checksum fails is still a phrase when a word such
as "seed" or "recovery phrase" stands next to it (a phrase copied with one word swapped is
still the wallet's key to anyone who tries the neighbours).

Ordinary prose does not trigger: its short function words ("the", "and", "to", "is") are
not on the list, so it never holds twelve list words in a row, and a run that does must
also pass a 4- to 8-bit checksum.

Twelve words hold no literal, so the detector's need is a shape (``may_hold_phrase``):
twelve words of 3 to 8 letters with only spaces, list punctuation and list numbers
between them. Prose almost never has one (a word of one or two letters, or of nine or
more, comes within twelve), and the check is one translate and one search of bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

#: The lengths BIP-39 allows: 128 to 256 bits of entropy, 32 bits a step.
PHRASE_LENGTHS = (24, 21, 18, 15, 12)

_WORD = r"[A-Za-z]{3,8}"
# Between words: spaces, newlines, commas, and the numbers of a numbered list ("1. word").
_SEP = r"(?:[ \t\r\n,;]{1,4}(?:[0-9]{1,2}[.):]?[ \t\r\n]{1,4})?)"
#: Twelve or more short words in a row: the only texts the word list is consulted on.
# (?i) although the classes name both cases: the detector's needs are folded words.
WORD_RUN = re.compile(
    rf"(?i)(?<![A-Za-z0-9_'-]){_WORD}(?:{_SEP}{_WORD}){{11,47}}(?![A-Za-z0-9_'-])"
)
_LETTERS = re.compile(r"[A-Za-z]+")
#: Words that say a run of list words is a phrase even when its checksum fails.
_CONTEXT = re.compile(
    r"(?i)(?<![a-z])(?:seed|mnemonic|bip-?39"
    r"|(?:recovery|wallet|backup|secret)[ _-]?(?:phrase|words|sentence))"
)
#: How far before (and after) a run its context word may stand.
_CONTEXT_BEFORE = 120
_CONTEXT_AFTER = 60

# The shape of a text for ``may_hold_phrase``: ASCII letters "a"; what WORD_RUN allows
# between words (whitespace, ",", ";", list numbers and ".", ")", ":") a space; the rest "x".
_SHAPE_TABLE = bytes(
    ord("a") if chr(b).isascii() and chr(b).isalpha()
    else ord(" ") if chr(b) in " \t\r\n,;.):0123456789"
    else ord("x")
    for b in range(256)
)  # fmt: skip
# The characters (?i) takes for an ASCII letter (_needs.CASE_LOOKALIKES and the Kelvin sign).
_LOOKALIKE_LETTERS = str.maketrans(dict.fromkeys("\u017f\u0131\u0130\u212a", "a"))
# Twelve to 48 such words in a row (WORD_RUN's counts); the shortest is 12*3 + 11 long.
_SHAPE_RUN = re.compile(rb"(?<!a)a{3,8}(?: {1,40}a{3,8}){11,47}(?!a)")
_SHORTEST_RUN = 47


def _shape(text: str) -> bytes:
    """``text`` as ``_SHAPE_TABLE`` draws it, one byte per character (so positions hold)."""
    if not text.isascii():
        text = text.translate(_LOOKALIKE_LETTERS)
    return text.encode("ascii", "replace").translate(_SHAPE_TABLE)


def _shape_runs(shape: bytes) -> Iterator[tuple[int, int]]:
    """The spans of runs of twelve or more short words, looked for only in the stretches
    between other characters that are long enough to hold one."""
    position = 0
    for part in shape.split(b"x"):
        if len(part) >= _SHORTEST_RUN:
            for found in _SHAPE_RUN.finditer(part):
                yield position + found.start(), position + found.end()
        position += len(part) + 1


def may_hold_phrase(text: str) -> bool:
    """Whether ``text`` holds what every ``WORD_RUN`` match holds: twelve words of 3-8
    letters, only separators between them (the detector's needs; never a false no)."""
    return next(_shape_runs(_shape(text)), None) is not None


_CACHE: dict[str, Any] = {}


def _reference() -> tuple[Any, frozenset[str]]:
    """The ``Mnemonic("english")`` object and its word set, loaded on first use."""
    if "mnemonic" not in _CACHE:
        # Lazily: the package reads its word list from its own data file, and most texts
        # never get this far.
        from mnemonic import Mnemonic

        reference = Mnemonic("english")
        _CACHE["mnemonic"] = reference
        _CACHE["words"] = frozenset(reference.wordlist)
    return _CACHE["mnemonic"], _CACHE["words"]


def _list_runs(text: str, start: int, end: int) -> Iterator[list[re.Match[str]]]:
    """Maximal runs of 12+ consecutive list words between ``start`` and ``end``."""
    _, words = _reference()
    run: list[re.Match[str]] = []
    for word in _LETTERS.finditer(text, start, end):
        if word.group().lower() in words:
            run.append(word)
            continue
        if len(run) >= PHRASE_LENGTHS[-1]:
            yield run
        run = []
    if len(run) >= PHRASE_LENGTHS[-1]:
        yield run


def _has_list_run(found: list[str], words: frozenset[str]) -> bool:
    """Whether ``found`` holds twelve list words in a row."""
    length = 0
    for word in found:
        length = length + 1 if word in words else 0
        if length >= PHRASE_LENGTHS[-1]:
            return True
    return False


def _repetitive(run: list[re.Match[str]]) -> bool:
    """A run of few distinct words ("zebra zebra zebra ...") is a placeholder, not a
    phrase: twelve words drawn from 2,048 repeat one in 30 phrases, and then only once;
    "zebra" twelve times even passes the checksum (one run in sixteen does)."""
    distinct = {word.group().lower() for word in run}
    return len(distinct) * 3 < len(run) * 2


def _valid_window(run: list[re.Match[str]]) -> tuple[int, int] | None:
    """The span of a checksum-valid phrase in ``run``: the whole run, or one that starts or
    ends with it (a list word may stand just before or after a phrase). Windows are not
    slid through a long run: each extra window would be another 1-in-16 chance for prose.
    """
    reference, _ = _reference()
    if _repetitive(run):
        return None
    for length in PHRASE_LENGTHS:
        if length > len(run):
            continue
        for offset in dict.fromkeys((0, len(run) - length)):
            window = run[offset : offset + length]
            if reference.check(" ".join(word.group().lower() for word in window)):
                return window[0].start(), window[-1].end()
    return None


def seed_phrase_spans(text: str) -> Iterator[tuple[int, int]]:
    """BIP-39 phrases: a valid checksum, or 12+ list words next to a word like "seed"."""
    _, words = _reference()
    # The detector's needs (``may_hold_phrase``) let through prose with a dozen short words
    # in a row ("the new storage layer should happen before any further feature work");
    # twelve list words in a row anywhere are rarer, and one pass over the words says so.
    if not _has_list_run(_LETTERS.findall(text.lower()), words):
        return
    for shape_start, shape_end in _shape_runs(_shape(text)):
        for candidate in WORD_RUN.finditer(text, shape_start, shape_end):
            yield from _phrases(text, candidate.start(), candidate.end())


def _phrases(text: str, candidate_start: int, candidate_end: int) -> Iterator[tuple[int, int]]:
    """The phrases of one WORD_RUN match: a valid checksum, or list words beside a word
    that says what they are."""
    for run in _list_runs(text, candidate_start, candidate_end):
        span = _valid_window(run)
        if span is not None:
            yield span
            continue
        if _repetitive(run):
            continue
        start, end = run[0].start(), run[-1].end()
        around = (
            text[max(0, start - _CONTEXT_BEFORE) : start] + " " + text[end : end + _CONTEXT_AFTER]
        )
        if _CONTEXT.search(around):
            yield start, end
