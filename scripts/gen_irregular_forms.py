"""Generate ``memrepo/index/irregular_forms.txt``: irregular English forms and their lemma.

Why: Snowball stemming cannot join ``went`` to ``go`` or ``mice`` to ``mouse``; the index
looks each word up in this table first (:func:`memrepo.index.lemmas.lemma`), so the stem
field stores ``stem(lemma(word))``. This script is run by hand, never at runtime:

    pip install lemminflect          # dev-time only, not a memrepo dependency
    python scripts/gen_irregular_forms.py            # rewrite the table
    python scripts/gen_irregular_forms.py --check    # exit 1 if the table is stale

Source: lemminflect's lookup tables (its English lexicon, MIT licence). For every lemma it
knows, the script takes the verb forms (VBD, VBN, VBG, VBZ) and the noun plural (NNS).

The rule. A pair ``form lemma`` is kept only when all of these hold:

1. Both words are lowercase ASCII letters (``re-write`` and ``Aaron`` are not).
2. The stemmer misses it: ``stem(form) != stem(lemma)``, with the bare Snowball English
   stemmer the index uses. Whatever Snowball already joins
   (``running``/``run``) stays out, which keeps the table small.
3. The lemma is a base form: lemminflect lemmatises it to itself (drops lexicon noise such
   as ``consisteded -> consisted``), and it is not a modal (``can``, ``may``, ``shall``,
   ``will``, ``must``): ``might -> may`` would make "May" the month match "might".
4. The form has one reading. Every lemma lemminflect knows for it, in any part of speech
   and in either direction (its lemmatiser, and every inflection table listing the form),
   is this lemma (hyphens ignored: ``re-write`` is ``rewrite``). So ``saw`` (the tool),
   ``found`` (to found), ``left``, ``felt``, ``rose``, ``wound``, ``thought``, ``lay``,
   ``leaves`` (leaf/leave), ``axes`` and ``data`` (its own noun) are out. One exception:
   a verb form that is also an adjective spelled the same (a participial adjective:
   ``broken``, ``frozen``, ``done``) is kept, since the adjective is the same word.
5. The stemmer does not already join the form to a spelling neighbour of its lemma: if
   ``stem(form)`` is the stem of another lemma that is a prefix-variant or one edit away
   from the lemma, the lemma is a variant spelling and the mapping would split the form
   from the common one (the lemma's own forms, such as the adjective ``experienced``,
   do not count). lemminflect files ``programmed`` under ``programme`` (its
   ``program`` takes ``programed``); mapping it would pull ``programming`` away from
   ``program``, which the stemmer already joins.
6. The mapping keeps the lemma's paradigm whole: a form is dropped when another form of
   the same lemma that stays unmapped shares its stem. ``embedding`` is a noun of its own
   (rule 4), so ``embedded -> embed`` would pull ``embedded`` away from ``embedding`` and
   ``embeddings``, which the stemmer already joins.
7. The form is not in :data:`EXCLUDED`, the few cases the rules above let through that
   would hurt a search (each with its reason).

Adjective comparison (``better -> good``, ``worse -> bad``) is left out on purpose: only
verb and noun inflections are read, and ``better`` is as often a verb or an adverb.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

import lemminflect  # type: ignore[import-untyped]
from lemminflect import config, getAllInflections, getAllLemmas
from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec  # type: ignore[import-untyped]
from whoosh.lang import stemmer_for_language

TABLE = Path(__file__).resolve().parent.parent / "memrepo" / "index" / "irregular_forms.txt"

TAGS = {"VERB": ("VBD", "VBN", "VBG", "VBZ"), "NOUN": ("NNS",)}
# The bare Snowball English stemmer memrepo.index.analysis uses. Not analysis.stem, which
# now looks this very table up first: the rules must compare against the stemmer alone.
_snowball = stemmer_for_language("en")


def stem(word: str) -> str:
    """Snowball English, as the index applies it to a lowercase ASCII word."""
    return str(_snowball(word))


MODALS = frozenset({"can", "may", "shall", "will", "must"})

EXCLUDED: dict[str, str] = {
    "sat": "Sat is Saturday in dates",
    "led": "LED, the light, in technical notes",
    "born": "born -> bear would make 'born in 1990' match the animal",
    "staid": "staid is an adjective of its own (sober), not 'stayed'",
    "slew": "'a slew of' is a noun of its own",
    "regalia": "a noun of its own, not a plural of 'regale'",
    "excreta": "a noun of its own, not a plural of 'excretion'",
    "comites": "Latin plural of 'comes'; would stem to 'come'",
    "partes": "Latin plural of 'pars'; would stem near 'part'",
    "dentes": "Latin plural of 'dens'; would stem near 'dent'",
    "fiant": "legal Latin, not a plural of 'fiat'",
    "pura": "not an English plural of 'pus'",
    "ani": "a given name far more often than a plural of 'anus'",
}


def _word(text: str) -> bool:
    return text.isascii() and text.isalpha() and text.islower()


def _norm(text: str) -> str:
    return text.lower().replace("-", "")


def _near(a: str, b: str) -> bool:
    """True when one spelling is a prefix of the other or they are one edit apart."""
    if a.startswith(b) or b.startswith(a):
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _lemmas_of(form: str, listed_under: dict[str, set[str]]) -> tuple[set[str], set[str]]:
    """Every lemma of ``form`` (normalised), and the parts of speech it is its own lemma in."""
    found = {_norm(lem) for lem in listed_under.get(form, ())} - {form}
    self_pos: set[str] = set()
    for pos, lems in getAllLemmas(form).items():
        for lem in lems:
            if _norm(lem) == form:
                self_pos.add(pos)
            else:
                found.add(_norm(lem))
    return found, self_pos


def _is_base(lemma: str) -> bool:
    return any(lemma in map(_norm, lems) for lems in getAllLemmas(lemma).values())


def candidates(lexicon: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """``(form, lemma, upos)`` for every verb form and noun plural that passes rules 1-2."""
    for lemma in lexicon:
        if not _word(lemma):
            continue
        for upos, tags in TAGS.items():
            forms = getAllInflections(lemma, upos)
            for tag in tags:
                for form in forms.get(tag, ()):
                    if _word(form) and form != lemma and stem(form) != stem(lemma):
                        yield form, lemma, upos


def build() -> list[tuple[str, str]]:
    """The sorted ``(form, lemma)`` pairs that pass every rule of the module docstring (1-7)."""
    lexicon = [word for word in InflectionLUCodec.load(config.inflection_lu_fn) if word.islower()]
    listed_under: dict[str, set[str]] = defaultdict(set)
    lemmas_by_stem: dict[str, set[str]] = defaultdict(set)
    for lemma in lexicon:
        if _word(lemma):
            lemmas_by_stem[stem(lemma)].add(lemma)
        for forms in getAllInflections(lemma).values():
            for form in forms:
                listed_under[form.lower()].add(lemma)

    pairs: dict[str, tuple[str, set[str]]] = {}
    for form, lemma, upos in candidates(lexicon):
        first, pos_set = pairs.setdefault(form, (lemma, set()))
        if first != lemma:
            pairs[form] = ("", pos_set)  # two lemmas from the inflection tables: rule 4
        pos_set.add(upos)

    kept = []
    for form, (lemma, pos_set) in sorted(pairs.items()):
        if not lemma or lemma in MODALS or form in EXCLUDED or not _is_base(lemma):
            continue
        others, self_pos = _lemmas_of(form, listed_under)
        if others != {lemma}:
            continue
        if self_pos and not (self_pos == {"ADJ"} and pos_set == {"VERB"}):
            continue
        own_forms = {lemma} | {f for fs in getAllInflections(lemma).values() for f in fs}
        if any(_near(other, lemma) for other in lemmas_by_stem[stem(form)] - own_forms):
            continue
        kept.append((form, lemma))
    return _keep_paradigms_whole(kept)


def _keep_paradigms_whole(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Rule 6: drop a pair that would split its form from an unmapped sibling form."""
    kept = dict(pairs)
    changed = True
    while changed:  # dropping a pair can leave a sibling of another pair unmapped
        changed = False
        for form, lemma in list(kept.items()):
            siblings = {f for fs in getAllInflections(lemma).values() for f in fs if _word(f)}
            if any(
                sib != form and sib not in kept and stem(sib) == stem(form) != stem(lemma)
                for sib in siblings
            ):
                del kept[form]
                changed = True
    return sorted(kept.items())


def render(pairs: Iterable[tuple[str, str]]) -> str:
    """The table file: a provenance header, then one ``form lemma`` line per pair."""
    header = (
        f"# Generated by scripts/gen_irregular_forms.py from lemminflect "
        f"{lemminflect.__version__} (MIT licence, (c) 2019 Brad Jascob). Do not edit by hand.\n"
    )
    return header + "".join(f"{form} {lemma}\n" for form, lemma in pairs)


def main(argv: list[str] | None = None) -> int:
    """Write the table, or with ``--check`` report whether the committed one is current."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    args = parser.parse_args(argv)
    text = render(build())
    if args.check:
        current = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
        if current != text:
            print(f"{TABLE} is stale; run scripts/gen_irregular_forms.py", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {len(text.splitlines()) - 1} pairs to {TABLE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
