"""Screening shared by every producer of memories: pure functions, no I/O, no state.

``screen`` is the pipeline (docs/architecture.md §3 step 1); ``find_secrets`` /
``redact_secrets`` are the one secret detector; the rest are the pieces ``screen`` is
made of, public so other producers (imports, dreaming, swarm notes) apply exactly the
same rules.

This package imports nothing else of memrepo, so any layer may use it.
"""

from __future__ import annotations

from .markers import has_no_memory_marker
from .screen import MIN_CHARS, SKIP_REASONS, Screened, screen
from .secrets import (
    REDACTION_MARKER,
    SECRET_KINDS,
    SecretMatch,
    find_secrets,
    redact_secrets,
    redaction_marker,
)
from .telemetry import is_telemetry
from .text import collapse_whitespace, cut_at_word_boundary, has_letter_or_digit

__all__ = [
    "MIN_CHARS",
    "REDACTION_MARKER",
    "SECRET_KINDS",
    "SKIP_REASONS",
    "Screened",
    "SecretMatch",
    "collapse_whitespace",
    "cut_at_word_boundary",
    "find_secrets",
    "has_letter_or_digit",
    "has_no_memory_marker",
    "is_telemetry",
    "redact_secrets",
    "redaction_marker",
    "screen",
]
