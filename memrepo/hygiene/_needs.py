"""Cheap necessary conditions, checked before a detector's regular expression runs.

A rule that cannot match a text still costs a scan of all of it: its pattern opens with a
lookbehind, so the engine tries it at every position. A few substring searches say
whether it can match at all. They must never say no to a text the rule matches (that
would let a secret through), so each ``Needs`` lists only what every match contains, and
case-insensitive patterns get special care: Python's ``(?i)`` equates a few non-ASCII
characters with ASCII letters.

Most token rules (``ghp_...``, ``npm_...``, ``SG....``) share a second, cheaper condition:
every match holds a *long run*, ``RUN_LENGTH`` or more ASCII characters of ``RUN_CHARS`` in
a row, and its literal lies in that run or at most ``RUN_LEAD`` characters before it. One
translate and one find say whether a text has any long run (ordinary prose has none), and
the literals of those rules are then looked up only around the runs (``run_haystack``),
not in the whole text: dozens of prefixes cost about as much as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: The characters Python's case-insensitive matching takes for an ASCII letter that
#: ``str.lower`` does not turn into that letter: long s (s), dotless i and capital dotted
#: I (i). The Kelvin sign also matches k, but lowers to k. The test derives this list from
#: every code point, so a Python that adds one fails it.
CASE_LOOKALIKES = ("\u017f", "\u0131", "\u0130")


def lowered_for_needs(text: str) -> str | None:
    """``text`` lowercased, for the needs of case-insensitive patterns; None if unsound.

    ``(?i)pass`` matches "PASS" and also "pa\u017f\u017f": looking "pass" up in the
    lowercased text is a sound test only when every character such a pattern equates with
    an ASCII letter lowers to that letter, i.e. when no ``CASE_LOOKALIKES`` occur.
    """
    if text.isascii() or not any(char in text for char in CASE_LOOKALIKES):
        return text.lower()
    return None


_SHAPE_TABLE = (
    bytes(
        ord("0") if chr(byte) in "0123456789" else ord("-") if chr(byte) in " -" else ord("x")
        for byte in range(128)
    )
    + b"x" * 128
)


def digit_shape(text: str) -> bytes:
    """``text`` with each digit 0-9 written ``0``, each space or hyphen ``-``, all else ``x``.

    Bytes, because bytes.translate is a tight C loop. UTF-8 writes every non-ASCII
    character with bytes of 0x80 and up, so only the ASCII characters themselves become
    ``0`` or ``-`` (a non-ASCII character may become several ``x``, which joins nothing).
    """
    return text.encode("utf-8", "surrogatepass").translate(_SHAPE_TABLE)


#: The characters of a long run: what random tokens are made of (base64, base64url, hex).
RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")
#: How many ``RUN_CHARS`` in a row make a long run.
RUN_LENGTH = 16
#: How far before its long run a gated rule's literal may start ("AccountKey=", "SG.").
RUN_LEAD = 32

# Non-ASCII characters are encoded as "?" (one byte per character, so positions stay
# those of the text), which is not a run character: a gated rule must be case-sensitive
# and ASCII-only in its run, which the tests check.
_RUN_TABLE = bytes(ord("a") if chr(byte) in RUN_CHARS else ord(" ") for byte in range(128)) + (
    b" " * 128
)
_RUN_NEEDLE = b"a" * RUN_LENGTH


def long_runs(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every maximal run of ``RUN_LENGTH`` or more ``RUN_CHARS``."""
    shape = text.encode("ascii", "replace").translate(_RUN_TABLE)
    runs: list[tuple[int, int]] = []
    start = shape.find(_RUN_NEEDLE)
    while start != -1:
        end = shape.find(b" ", start + RUN_LENGTH)
        if end == -1:
            end = len(shape)
        runs.append((start, end))
        start = shape.find(_RUN_NEEDLE, end)
    return runs


def run_haystack(text: str) -> str:
    """The parts of ``text`` a gated rule's literal can be in: each long run with the
    ``RUN_LEAD`` characters before it, joined by newlines (no literal holds one). Empty
    when the text has no long run, so no gated rule can match it.
    """
    return "\n".join(text[max(0, start - RUN_LEAD) : end] for start, end in long_runs(text))


@dataclass(frozen=True, slots=True)
class Needs:
    """What every match of a detector contains: a text without it skips the detector.

    - ``any_of``: at least one of these substrings occurs in the text;
    - ``all_of``: each of these substrings occurs too;
    - ``shapes``: at least one of these occurs in the text's ``digit_shape``.

    With ``folded`` (required for a case-insensitive pattern) the substrings are lowercase
    ASCII and are looked up in ``lowered_for_needs(text)``; when that is None the detector
    always runs. With ``run`` (only for case-sensitive patterns) every match holds a long
    run with the substrings in it or just before it, and they are looked up in
    ``run_haystack(text)`` instead of the text. ``shape_check`` is a cheap test of the
    text's own for what no literal names (twelve short words in a row), checked first.
    ``Needs()`` needs nothing.
    """

    any_of: tuple[str, ...] = ()
    all_of: tuple[str, ...] = ()
    shapes: tuple[bytes, ...] = ()
    folded: bool = False
    run: bool = False
    shape_check: Callable[[str], bool] | None = None
    # Substrings that share a first character are looked for by one alternation: re takes
    # the shared prefix ("A", "gh", "gl", "x") and scans for it much like str.find. Others
    # get one ``in`` each (an alternation without a prefix tries every position).
    _alternation: Callable[[str], object] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        search = None
        if len({literal[0] for literal in self.any_of}) == 1:
            search = re.compile("|".join(re.escape(literal) for literal in self.any_of)).search
        object.__setattr__(self, "_alternation", search)
        if self.run and self.folded:
            raise ValueError("a run-gated rule must be case-sensitive")

    def met_by(self, text: str, lowered: str | None) -> bool:
        """Whether ``text`` (with ``lowered = lowered_for_needs(text)``) has what is needed."""
        if self.shape_check is not None and not self.shape_check(text):
            return False
        if self.shapes and not self._has_shape(text):
            return False
        if self.folded:
            if lowered is None:
                return True
            text = lowered
        if self.all_of and not all(literal in text for literal in self.all_of):
            return False
        if self._alternation is not None:
            return self._alternation(text) is not None
        return not self.any_of or any(literal in text for literal in self.any_of)

    def _has_shape(self, text: str) -> bool:
        shape = digit_shape(text)
        return any(wanted in shape for wanted in self.shapes)
