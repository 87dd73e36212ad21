"""Secret families as generated cases, split into a tuning half and a held-out half.

Issue #27: the detector was fitted to its own samples. Every family it claims is now
described by its documented shape (a vendor's prefix, alphabet, length and checksum; a
structure such as ``scheme://:password@host``) and each ``gen_*`` module of this folder
generates cases from that shape with a seeded ``random.Random``, never from a list of
examples. ``split`` puts every other case of a family in the held-out half: rules are
tuned on ``tuning`` only; ``benchmarks/secret_families.py`` reports both halves.

A generator module exposes ``cases(rng, per_family)`` and ``lookalikes(rng)``; a
look-alike is a ``Case`` with no secrets, whose text must come out unchanged.
"""

from __future__ import annotations

import importlib
import random
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType

from memrepo.hygiene import REDACTION_MARKER

#: The generator modules, by the area of the detector they exercise.
GENERATORS = ("gen_tokens", "gen_keyed", "gen_structural", "gen_life", "gen_encoded")

#: The seed every report and test starts from; a family's cases differ by index.
SEED = 27
#: Cases generated per family (half of them are held out).
PER_FAMILY = 6

BASE62 = string.ascii_letters + string.digits
HEX_LOWER = "0123456789abcdef"
BASE64URL = BASE62 + "-_"
BASE64 = BASE62 + "+/"


@dataclass(frozen=True, slots=True)
class Case:
    """One generated text: the family it samples, where that family's shape is
    documented, and the secrets it holds (none for a look-alike)."""

    family: str
    source: str
    text: str
    secrets: tuple[str, ...] = ()


def random_string(rng: random.Random, alphabet: str, length: int) -> str:
    """``length`` characters drawn from ``alphabet`` (the body of a random token)."""
    return "".join(rng.choice(alphabet) for _ in range(length))


def generator(name: str) -> ModuleType | None:
    """The generator module ``name`` of this folder, or None while it is not written."""
    qualified = f"{__package__}.{name}"
    try:
        return importlib.import_module(qualified)
    except ModuleNotFoundError as exc:
        if exc.name != qualified:
            raise
        return None


def cases_of(name: str, seed: int = SEED, per_family: int = PER_FAMILY) -> list[Case]:
    """Generator ``name``'s secret cases (none while it is not written); each generator
    draws from a stream of its own, so adding one changes no other's cases."""
    module = generator(name)
    if module is None:
        return []
    return list(module.cases(random.Random(seed * 1000 + GENERATORS.index(name)), per_family))


def lookalikes_of(name: str, seed: int = SEED) -> list[Case]:
    """Generator ``name``'s look-alikes (texts that hold no secret)."""
    module = generator(name)
    if module is None:
        return []
    return list(module.lookalikes(random.Random(seed * 1000 + 500 + GENERATORS.index(name))))


def all_cases(seed: int = SEED, per_family: int = PER_FAMILY) -> list[Case]:
    """Every generator's secret cases, the same for the same seed."""
    return [case for name in GENERATORS for case in cases_of(name, seed, per_family)]


def all_lookalikes(seed: int = SEED) -> list[Case]:
    """Every generator's look-alikes."""
    return [case for name in GENERATORS for case in lookalikes_of(name, seed)]


def draw_each(
    families: dict[str, tuple[str, Callable[[random.Random], tuple[str, str]]]],
    prefix: str,
    rng: random.Random,
    per_family: int,
) -> list[Case]:
    """``per_family`` draws of every family of a ``{name: (source, draw)}`` table, where a
    draw gives a text and the one secret in it."""
    found: list[Case] = []
    for name, (source, draw) in families.items():
        for _ in range(per_family):
            text, secret = draw(rng)
            found.append(Case(f"{prefix}{name}", source, text, (secret,)))
    return found


def split(cases: Iterable[Case]) -> tuple[list[Case], list[Case]]:
    """(tuning, held_out): within each family, the 1st, 3rd, ... case tunes, the rest
    are held out."""
    seen: dict[str, int] = {}
    tuning: list[Case] = []
    held_out: list[Case] = []
    for case in cases:
        index = seen.get(case.family, 0)
        seen[case.family] = index + 1
        (tuning if index % 2 == 0 else held_out).append(case)
    return tuning, held_out


def leaked(case: Case, output: str) -> list[str]:
    """The secrets of ``case`` that ``output`` still shows, whole or as a 5-character
    piece that the rest of the case's text does not hold anyway."""
    visible = REDACTION_MARKER.sub("[]", output)
    kept: list[str] = []
    for secret in case.secrets:
        context = case.text.replace(secret, "\0")
        pieces = (secret[i : i + 5] for i in range(max(1, len(secret) - 4)))
        if secret in visible or any(p in visible and p not in context for p in pieces):
            kept.append(secret)
    return kept


def failures(
    cases: Iterable[Case], redact: Callable[[str], str]
) -> tuple[list[tuple[Case, list[str]]], list[Case]]:
    """(cases with kept secrets and which, look-alikes that ``redact`` changed)."""
    kept: list[tuple[Case, list[str]]] = []
    false_positives: list[Case] = []
    for case in cases:
        output = redact(case.text)
        if case.secrets:
            if lost := leaked(case, output):
                kept.append((case, lost))
        elif output != case.text:
            false_positives.append(case)
    return kept, false_positives
