"""The screen every candidate memory passes before it is written (docs/architecture.md §3 step 1).

Order matters and is part of the contract:

1. ``no_memory`` flag, or ``<no-memory>`` in the text or its origin text -> ``no_memory``
2. control characters made spaces, invisible ones removed (``text.clean_invisible``),
   whitespace (newlines included) collapsed to single spaces, stripped; a ``<no-memory>``
   that the removed characters hid -> ``no_memory``
3. nothing left -> ``empty``; under 3 characters -> ``too_short``; no letter or digit in
   any script -> ``no_content``; raw tool telemetry -> ``telemetry``
4. secrets redacted, *then* the text cut to ``max_chars`` at a word boundary, so a secret
   is never half kept and a marker never half cut
5. nothing but markers left in what would be stored -> ``secret_only``

Only what can be kept is redacted: a 10 MB paste costs a linear pass to collapse and
check it, plus redaction of a window a little larger than ``max_chars``. The window is
chosen so the result is exactly what redacting the whole text would give (see
``_redact_kept``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._rules import MAX_RULE_SPAN, private_key_end
from .markers import has_no_memory_marker
from .secrets import REDACTION_MARKER, SecretMatch, find_secrets, redaction_marker
from .telemetry import is_telemetry
from .text import ELLIPSIS, clean_invisible, cut_at_word_boundary, has_letter_or_digit

#: Every value ``Screened.skip_reason`` takes.
SKIP_REASONS: tuple[str, ...] = (
    "empty",
    "too_short",
    "no_content",
    "telemetry",
    "secret_only",
    "no_memory",
)

#: Shorter texts ("ok", "k") carry nothing worth remembering.
MIN_CHARS = 3

# A match starting this far before the end of a window is the match the whole text gives:
# rules never look further than MAX_RULE_SPAN characters from where they start.
_WINDOW_SAFETY = MAX_RULE_SPAN + 64
# cut_at_word_boundary reads this far past the limit (to keep markers whole).
_CUT_READS_PAST_LIMIT = 64


@dataclass(frozen=True, slots=True)
class Screened:
    """The outcome of ``screen``: the text to store, or why nothing is stored.

    ``redacted`` lists the kinds of secret replaced in ``text`` (distinct, in order);
    ``truncated`` says the text was cut to the length limit.
    """

    text: str | None
    skip_reason: str | None
    redacted: tuple[str, ...]
    truncated: bool

    @property
    def skipped(self) -> bool:
        """True when nothing should be stored."""
        return self.text is None


def _skip(reason: str, redacted: tuple[str, ...] = ()) -> Screened:
    return Screened(text=None, skip_reason=reason, redacted=redacted, truncated=False)


def screen(
    text: str,
    *,
    origin_text: str | None = None,
    no_memory: bool = False,
    max_chars: int = 1000,
) -> Screened:
    """Decide whether ``text`` may be remembered and in what form.

    ``origin_text`` is the message or task the candidate came from: a ``<no-memory>`` there
    opts the whole exchange out. See the module docstring for the order of the checks.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, got {max_chars}")
    if no_memory or has_no_memory_marker(text) or has_no_memory_marker(origin_text):
        return _skip("no_memory")
    cleaned = clean_invisible(text)
    # Again on the cleaned text: "<no\u200b-memory>" shows as the tag it is.
    if cleaned is not text and has_no_memory_marker(cleaned):
        return _skip("no_memory")
    collapsed = " ".join(cleaned.split())  # collapse_whitespace, already cleaned
    if not collapsed:
        return _skip("empty")
    if len(collapsed) < MIN_CHARS:
        return _skip("too_short")
    if not has_letter_or_digit(collapsed):
        return _skip("no_content")
    if is_telemetry(collapsed):
        return _skip("telemetry")
    redacted, markers = _redact_kept(collapsed, max_chars)
    kept = cut_at_word_boundary(redacted, max_chars)
    truncated = kept != redacted
    body = len(kept) - len(ELLIPSIS) if truncated else len(kept)
    kinds = tuple(
        dict.fromkeys(
            kind for start, kind in markers if start + len(redaction_marker(kind)) <= body
        )
    )
    # Checked on what would be stored, not on the whole text: a paste whose first
    # max_chars are all secrets must not be stored as a row of markers.
    if not has_letter_or_digit(REDACTION_MARKER.sub("", kept)):
        return _skip("secret_only", kinds)
    return Screened(text=kept, skip_reason=None, redacted=kinds, truncated=truncated)


def _redact_kept(text: str, limit: int) -> tuple[str, list[tuple[int, str]]]:
    """Redact enough of ``text`` for a cut at ``limit``; return it and (position, kind) marks.

    The returned text is either the whole text redacted, or a prefix of it longer than
    ``limit + _CUT_READS_PAST_LIMIT``, which is all ``cut_at_word_boundary`` reads.

    Why a window gives the same prefix: rules look at most MAX_RULE_SPAN characters past
    where a match starts, so every match starting before ``safe`` is found identically in
    the window and in the whole text. A merged match that crosses ``safe`` (or a PEM block
    whose END is beyond the window) may differ, so the prefix stops before it; when that
    leaves too little, the window grows, up to the whole text. One shortcut: a PEM block
    with no END line anywhere swallows the rest of the text, so nothing after it matters.
    """
    window = limit + 2 * _WINDOW_SAFETY
    while window < len(text):
        safe = window - _WINDOW_SAFETY
        matches = find_secrets(text[:window])
        crossing = next((match for match in matches if match.end > safe), None)
        stop = safe if crossing is None else min(safe, crossing.start)
        kept = [match for match in matches if match.end <= stop]
        if (
            crossing is not None
            and crossing.start < safe
            and crossing.kind == "private_key"
            and private_key_end(text, crossing.start) == len(text)
        ):
            kept.append(SecretMatch("private_key", crossing.start, len(text)))
            return _apply(text, kept)
        output, marks = _apply(text[:stop], kept)
        if len(output) > limit + _CUT_READS_PAST_LIMIT:
            return output, marks
        window *= 4
    return _apply(text, find_secrets(text))


def _apply(text: str, matches: list[SecretMatch]) -> tuple[str, list[tuple[int, str]]]:
    """Replace ``matches`` by markers; also say where each marker starts in the result."""
    parts: list[str] = []
    marks: list[tuple[int, str]] = []
    position = 0
    length = 0
    for match in matches:
        parts.append(text[position : match.start])
        length += match.start - position
        marks.append((length, match.kind))
        marker = redaction_marker(match.kind)
        parts.append(marker)
        length += len(marker)
        position = match.end
    parts.append(text[position:])
    return "".join(parts), marks
