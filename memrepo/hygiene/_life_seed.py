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

What it cannot know: twelve words hold no literal, and screening must not scan every
text for them (tests/hygiene/test_prefilter.py: prose runs no detector). So a phrase is
looked for only in a text that holds one of ``GATE_WORDS`` ("seed", "phrase", "wallet",
"words", a wallet's name...: each is a lookup every text pays for); a phrase in a text
that holds none of them is kept.
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

#: A text is searched for phrases only when it holds one of these (lowercase, folded):
#: what people write next to a phrase they note down.
GATE_WORDS = (
    *("seed", "phrase", "wallet", "mnemonic", "words", "backup"),
    # "coin" is in bitcoin and coinbase; the rest are the wallets people name.
    *("coin", "crypto", "metamask", "ledger", "trezor"),
)

#: The same words as an expression: what the finder checks, and what its needs are read
#: off (tests/hygiene/test_prefilter.py).
GATE = re.compile("(?i)" + "|".join(GATE_WORDS))

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


def _valid_window(run: list[re.Match[str]]) -> tuple[int, int] | None:
    """The span of a checksum-valid phrase in ``run``: the whole run, or one that starts or
    ends with it (a list word may stand just before or after a phrase). Windows are not
    slid through a long run: each extra window would be another 1-in-16 chance for prose.
    """
    reference, _ = _reference()
    for length in PHRASE_LENGTHS:
        if length > len(run):
            continue
        for offset in dict.fromkeys((0, len(run) - length)):
            window = run[offset : offset + length]
            if reference.check(" ".join(word.group().lower() for word in window)):
                return window[0].start(), window[-1].end()
    return None


def seed_phrase_spans(text: str) -> Iterator[tuple[int, int]]:
    """BIP-39 phrases: a valid checksum, or 12+ list words next to a word like "seed".

    Only in a text that holds one of ``GATE_WORDS`` (the detector's needs).
    """
    if GATE.search(text) is None:
        return
    for candidate in WORD_RUN.finditer(text):
        for run in _list_runs(text, candidate.start(), candidate.end()):
            span = _valid_window(run)
            if span is not None:
                yield span
                continue
            start, end = run[0].start(), run[-1].end()
            around = (
                text[max(0, start - _CONTEXT_BEFORE) : start]
                + " "
                + text[end : end + _CONTEXT_AFTER]
            )
            if _CONTEXT.search(around):
                yield start, end
