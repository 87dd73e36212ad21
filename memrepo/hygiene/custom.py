"""A person's own secret rules: a kind and a regular expression, added to the detector.

The built-in rules know public credential families (README, "What memrepo guarantees");
they cannot know the shape of an in-house token (``acme_live_...``) or a customer
number. A person adds one in the memory repo's local config
(``memrepo secrets add KIND PATTERN``, or ``MemoryRepo.add_secret_rule``), and from then
on every path that screens text (remember, imports, hand edits, sync, the Hub) redacts
its matches as ``[redacted KIND]``.

Rules are installed for the whole process: screening is a pure function that many
producers call without a repository at hand, and a rule only ever hides more. Each
pattern must have a bounded width (``{16,64}``, not ``+``): ``screen`` redacts only the
window it keeps, which is exact only when no match is wider than ``MAX_RULE_SPAN``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from re import _parser  # type: ignore[attr-defined]  # stdlib, no stub

from ._base import MAX_RULE_SPAN, Detector
from ._needs import Needs

#: What a kind may be: it is written into ``[redacted <kind>]`` markers.
KIND_PATTERN = re.compile(r"[a-z][a-z_]{0,39}")
#: The widest match a person's rule may have (a little under the built-in bound).
MAX_CUSTOM_WIDTH = MAX_RULE_SPAN // 2


@dataclass(frozen=True, slots=True)
class CustomRule:
    """One person's rule: matches of ``pattern`` are redacted as ``[redacted <kind>]``."""

    kind: str
    pattern: re.Pattern[str]

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """The (start, end) of every non-empty match (or of its ``secret`` group)."""
        grouped = "secret" in self.pattern.groupindex
        for match in self.pattern.finditer(text):
            start, end = match.span("secret") if grouped else match.span()
            if end > start:
                yield start, end


def compile_custom_rule(kind: str, pattern: str) -> CustomRule:
    """Check and compile a person's rule; ``ValueError`` says what to change."""
    if not KIND_PATTERN.fullmatch(kind):
        raise ValueError(
            f"secret rule kind {kind!r}: use 1-40 lowercase letters and underscores, "
            "starting with a letter (it is written as [redacted <kind>])"
        )
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise ValueError(
            f"secret rule {kind!r}: the pattern is not a regular expression: {exc}"
        ) from exc
    low, high = _parser.parse(compiled.pattern, compiled.flags).getwidth()
    if low == 0:
        raise ValueError(f"secret rule {kind!r}: the pattern can match nothing at all")
    if high > MAX_CUSTOM_WIDTH:
        raise ValueError(
            f"secret rule {kind!r}: a match must have a bounded length of at most "
            f"{MAX_CUSTOM_WIDTH} characters: write {{16,64}} instead of + or *"
        )
    return CustomRule(kind, compiled)


_INSTALLED: dict[tuple[str, str], CustomRule] = {}
# The installed rules as detectors, built when the rules change, not at every screening.
_DETECTORS: list[tuple[Detector, ...]] = [()]


def install_custom_rules(rules: Iterable[CustomRule]) -> None:
    """Add ``rules`` to every later screening in this process (a rule installed twice
    counts once)."""
    for rule in rules:
        _INSTALLED.setdefault((rule.kind, rule.pattern.pattern), rule)
    _rebuild()


def uninstall_custom_rules(rules: Iterable[CustomRule]) -> None:
    """Take ``rules`` out again (a person removed them from their config)."""
    for rule in rules:
        _INSTALLED.pop((rule.kind, rule.pattern.pattern), None)
    _rebuild()


def _rebuild() -> None:
    _DETECTORS[0] = tuple(Detector(r.kind, r.spans, Needs()) for r in _INSTALLED.values())


def installed_custom_rules() -> tuple[CustomRule, ...]:
    """The rules installed in this process, in the order they came."""
    return tuple(_INSTALLED.values())


def custom_detectors() -> tuple[Detector, ...]:
    """The installed rules as detectors; they run on every text (no needs to skip by)."""
    return _DETECTORS[0]
