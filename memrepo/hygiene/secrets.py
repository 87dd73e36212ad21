"""The one secret detector every producer shares: find credentials, replace them by markers.

A secret becomes ``[redacted <kind>]``. The marker has no colon on purpose: a
``[key: value]`` group at the end of a line is metadata in the memory format, and
redaction must never turn text into metadata.

What is caught and what is left alone is decided in ``_rules``; this module merges the
candidates of every rule into sorted, non-overlapping matches and rewrites the text.
Only the detectors whose needs a text meets run on it (``detectors_for``): on ordinary
prose that is few or none, and the result is the same as running them all. A person's own
rules (``custom``) run after the built-in ones, on every text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ._rules import DETECTORS, detectors_for
from .custom import custom_detectors

#: Every kind ``find_secrets`` reports, most specific first (the order of ``DETECTORS``).
SECRET_KINDS: tuple[str, ...] = tuple(dict.fromkeys(detector.kind for detector in DETECTORS))

#: A marker ``redact_secrets`` writes, wherever it appears in a text.
REDACTION_MARKER = re.compile(r"\[redacted [a-z_]{1,40}\]")

_PRIORITY = {kind: index for index, kind in enumerate(SECRET_KINDS)}


@dataclass(frozen=True, slots=True)
class SecretMatch:
    """One secret in a text: its kind and the span of the secret itself.

    For an assignment the span is the value only (``password=`` stays readable); for a
    URL it is the ``user:password`` part.
    """

    kind: str
    start: int
    end: int


def redaction_marker(kind: str) -> str:
    """The text that replaces a secret of ``kind``."""
    return f"[redacted {kind}]"


def find_secrets(text: str) -> list[SecretMatch]:
    """Every secret in ``text``, sorted by position and never overlapping.

    Candidates of different rules that overlap (a GitHub token that is also the value of
    ``token=``, a password inside a URL) are merged into one span, so no part of any
    candidate survives redaction; the merged span takes the most specific kind.
    """
    return merge_candidates(
        (detector.kind, start, end)
        for detectors in (detectors_for(text), custom_detectors())
        for detector in detectors
        for start, end in detector.find(text)
    )


def merge_candidates(found: Iterable[tuple[str, int, int]]) -> list[SecretMatch]:
    """Sorted, non-overlapping matches from (kind, start, end) candidates of any detector."""
    # A person's own kinds (``custom``) rank after every built-in one.
    last = len(_PRIORITY)
    candidates = [
        (start, end, _PRIORITY.get(kind, last), kind) for kind, start, end in found if end > start
    ]
    candidates.sort(key=lambda c: (c[0], -c[1], c[2]))
    merged: list[SecretMatch] = []
    cluster: tuple[int, int, int, str] | None = None
    for start, end, priority, kind in candidates:
        if cluster is not None and start < cluster[1]:
            best = (priority, kind) if priority < cluster[2] else (cluster[2], cluster[3])
            cluster = (cluster[0], max(end, cluster[1]), *best)
            continue
        if cluster is not None:
            merged.append(SecretMatch(cluster[3], cluster[0], cluster[1]))
        cluster = (start, end, priority, kind)
    if cluster is not None:
        merged.append(SecretMatch(cluster[3], cluster[0], cluster[1]))
    return merged


def apply_redactions(text: str, matches: Iterable[SecretMatch]) -> tuple[str, tuple[str, ...]]:
    """Replace each of ``matches`` (sorted, non-overlapping) in ``text`` by its marker.

    Returns the new text and the distinct kinds replaced, in order of first appearance.
    """
    parts: list[str] = []
    kinds: dict[str, None] = {}
    position = 0
    for match in matches:
        parts.append(text[position : match.start])
        parts.append(redaction_marker(match.kind))
        kinds[match.kind] = None
        position = match.end
    parts.append(text[position:])
    return "".join(parts), tuple(kinds)


def redact_secrets(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` with every secret replaced by ``[redacted <kind>]``, and the kinds replaced.

    The kinds are distinct, in order of first appearance. Redacting an already redacted
    text changes nothing.
    """
    return apply_redactions(text, find_secrets(text))
