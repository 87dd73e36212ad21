"""The secret corpus in fixtures/secrets/: real-shaped fake secrets and their look-alikes.

``secrets.tsv`` holds ``family<TAB>text`` lines with each secret between « and » and
broken by "·" (so that scanners reading the file see no token); ``load_secrets`` returns
the joined text and the secrets in it. ``lookalikes.tsv`` holds texts that must come out
of redaction unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "secrets"
_MARKED = re.compile("«([^»]*)»")


@dataclass(frozen=True)
class Sample:
    """One corpus line: its family, the text, and the secrets the text holds."""

    family: str
    text: str
    secrets: tuple[str, ...]
    line: int


def _rows(name: str) -> list[tuple[int, str, str]]:
    rows = []
    for number, line in enumerate((FIXTURES / name).read_text(encoding="utf-8").splitlines(), 1):
        if line and not line.startswith("#"):
            family, text = line.split("\t", 1)
            rows.append((number, family, text))
    return rows


def load_secrets() -> list[Sample]:
    """Every sample of secrets.tsv, with the breaks removed and the markers dropped."""
    samples = []
    for number, family, marked in _rows("secrets.tsv"):
        joined = marked.replace("·", "")
        secrets = tuple(_MARKED.findall(joined))
        assert secrets, f"secrets.tsv:{number} marks no secret"
        samples.append(Sample(family, _MARKED.sub(r"\1", joined), secrets, number))
    return samples


def load_lookalikes() -> list[Sample]:
    """Every sample of lookalikes.tsv (no secrets)."""
    return [Sample(family, text, (), number) for number, family, text in _rows("lookalikes.tsv")]
