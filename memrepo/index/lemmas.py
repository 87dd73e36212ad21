"""Irregular English inflections mapped to their lemma, looked up before stemming.

Why: Snowball (Porter2) strips suffixes, so it never joins ``went`` to ``go``, ``won`` to
``win``, ``children`` to ``child`` or ``mice`` to ``mouse``. On the held-out recall set, 72
of the 1,194 missed evidence lines were such morphology (``../shared/research/recall.md``).
The stem field therefore holds ``stem(lemma(word))``, and queries ask for the same.

The table, ``irregular_forms.txt`` next to this module, is generated at development time
by ``scripts/gen_irregular_forms.py`` from lemminflect's English lexicon (MIT licence);
lemminflect is not a runtime dependency. It holds only the pairs the stemmer misses and
only forms with one reading (``saw``, ``found`` and ``left`` are not there); the script's
docstring gives the full rule. To regenerate: ``pip install lemminflect`` and run
``python scripts/gen_irregular_forms.py`` (``--check`` tells whether the table is stale).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

__all__ = ["lemma"]

_TABLE = "irregular_forms.txt"


@cache
def _table() -> dict[str, str]:
    """Loaded on first use (not at import) and read as package data, so a wheel works."""
    text = files("memrepo.index").joinpath(_TABLE).read_text(encoding="utf-8")
    pairs: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            form, base = line.split(" ")
            pairs[form] = base
    return pairs


def lemma(term: str) -> str:
    """The lemma of a folded lowercase term if it is an irregular form, else the term.

    ``lemma("went") == "go"``, ``lemma("mice") == "mouse"``; ``lemma("running")`` is
    ``"running"`` because the stemmer already joins it to ``run``.
    """
    return _table().get(term, term)
