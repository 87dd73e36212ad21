"""One line of memory text made safe to put inside a prompt block.

Memory text is data a person or an earlier run wrote, and a web page the agent once read
may have planted some of it, so it must never be able to end the block it sits in, open
a tag of its own, or hide instructions a reader cannot see. `sanitize_line` therefore:

- turns every angle bracket (and its look-alikes, and the HTML entities that spell one)
  into a single guillemet (U+2039, U+203A): it reads the same to a person but opens or
  closes no tag;
- drops control and invisible format characters: zero-width spaces and joiners, bidi
  overrides and isolates (U+202A-U+202E, U+2066-U+2069), the invisible "tag" characters
  (U+E0000-U+E007F) and supplementary variation selectors used to smuggle text;
- collapses every run of whitespace (newlines, tabs, line and paragraph separators) to
  one space, so a line stays one line;
- shortens a run of three or more backticks to one (no code fence can swallow the block
  end) and cuts an over-long line at a word boundary;
- replaces every secret by its ``[redacted <kind>]`` marker, before cleaning and again
  after it (dropping an invisible character can join a token split to slip past), and
  before the cut, which could leave half a token no detector knows. Memory text a write
  screened holds none, but a person's hand edit (which memrepo refuses to commit) and a
  commit made with plain git reach the prompt through here too.

The words themselves are left alone: "ignore previous instructions" stays readable,
because the block around it says memory is data, never instructions.
"""

from __future__ import annotations

import re
import unicodedata

from memrepo.hygiene import cut_at_word_boundary, redact_secrets

#: A line longer than this is cut (about 100 tokens): one fact must not eat a budget.
MAX_LINE_CHARS = 400

_OPEN = "\u2039"  # SINGLE LEFT-POINTING ANGLE QUOTATION MARK
_CLOSE = "\u203a"
# Angle brackets and the characters people or models read as one.
_BRACKETS = str.maketrans(
    {
        "<": _OPEN,
        ">": _CLOSE,
        "\uff1c": _OPEN,  # FULLWIDTH LESS-THAN SIGN
        "\uff1e": _CLOSE,
        "\ufe64": _OPEN,  # SMALL LESS-THAN SIGN
        "\ufe65": _CLOSE,
        "\u2329": _OPEN,  # LEFT-POINTING ANGLE BRACKET
        "\u232a": _CLOSE,
        "\u3008": _OPEN,  # LEFT ANGLE BRACKET (CJK)
        "\u3009": _CLOSE,
        "\u27e8": _OPEN,  # MATHEMATICAL LEFT ANGLE BRACKET
        "\u27e9": _CLOSE,
    }
)
# &lt; &gt; &#60; &#x3c; ... (with or without the semicolon) decode to a bracket in
# any reader that unescapes HTML.
_ENTITY = re.compile(r"&(?:(lt|gt)|#0*(60|62)|#x0*(3c|3e));?", re.IGNORECASE)
_FENCE = re.compile(r"`{3,}")
_SMUGGLING = (range(0xE0000, 0xE0080), range(0xE0100, 0xE01F0), range(0xFE00, 0xFE0E))


def _entity(match: re.Match[str]) -> str:
    name = (match.group(1) or match.group(2) or match.group(3)).casefold()
    return _OPEN if name in ("lt", "60", "3c") else _CLOSE


def _visible(char: str) -> str:
    """The character, a space for whitespace-like ones, or "" for what must not pass."""
    category = unicodedata.category(char)
    if category in ("Zs", "Zl", "Zp") or char in "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85":
        return " "
    if category in ("Cc", "Cf", "Cs", "Co"):
        return ""  # controls, format (zero-width, bidi), lone surrogates, private use
    code = ord(char)
    if any(code in block for block in _SMUGGLING):
        return ""
    return char


def sanitize_line(text: str, max_chars: int = MAX_LINE_CHARS) -> str:
    """`text` as one safe, readable line (see the module docstring for the rules)."""
    redacted = redact_secrets(text)[0]
    cleaned = _ENTITY.sub(_entity, redacted).translate(_BRACKETS)
    if not cleaned.isascii() or not cleaned.isprintable():
        cleaned = "".join(_visible(char) for char in cleaned)
    cleaned = _FENCE.sub("`", " ".join(cleaned.split()))
    if cleaned != redacted:  # only a changed text can hold a secret the first pass missed
        cleaned = redact_secrets(cleaned)[0]
    return cut_at_word_boundary(cleaned, max_chars) if len(cleaned) > max_chars else cleaned
