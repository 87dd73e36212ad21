"""Near-duplicate candidates: the index finds every pair the rule accepts, and few others.

The oracle is the comparison of every pair, written here from the public rule
(`similarity.compare`, `duplicates.compatible`), so the index is checked against what
the pass would merge if it compared everything. `candidates.py`'s docstring says why
nothing can be missed; these tests are where a change to the rule (say, a swapped word
no longer vetoing a merge) would show that the index relies on it.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.dreaming import similarity
from memrepo.dreaming.candidates import candidate_pairs
from memrepo.dreaming.duplicates import compatible, find_exact, find_near
from memrepo.dreaming.snapshot import Fact, Snapshot, build_snapshot
from memrepo.formats import normalize_text

REPO = Path(__file__).resolve().parents[2]
TODAY = date(2026, 3, 1)


def accepted(a: Fact, b: Fact, shape_a: similarity.Shape, shape_b: similarity.Shape) -> bool:
    """The rule for one pair, as the pass states it."""
    if not compatible(a, b) or not shape_a.words or not shape_b.words:
        return False
    same_subject = bool(a.subject) and a.subject == b.subject
    return similarity.compare(shape_a, shape_b) >= similarity.threshold(same_subject)


def clusters_of_all_pairs(snap: Snapshot, claimed: set[tuple[str, int]]) -> set[frozenset[str]]:
    """Union-find over every accepted pair of unclaimed facts: the handles of each cluster."""
    facts = [f for f in snap.facts if f.norm and f.key not in claimed]
    shapes = [similarity.shape(f.text) for f in facts]
    parent = list(range(len(facts)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(facts)), 2):
        if shapes[i].guard == shapes[j].guard and accepted(
            facts[i], facts[j], shapes[i], shapes[j]
        ):
            parent[root(i)] = root(j)
    groups: dict[int, set[str]] = {}
    for i, fact in enumerate(facts):
        groups.setdefault(root(i), set()).add(fact.handle)
    return {frozenset(g) for g in groups.values() if len(g) > 1}


def clusters_found(snap: Snapshot) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """What the near pass merges (after the exact pass, as in a dream), and the oracle's."""
    claimed: set[tuple[str, int]] = set()
    find_exact(snap, claimed)
    oracle = clusters_of_all_pairs(snap, claimed)
    ops = find_near(snap, claimed)
    found = {frozenset(f"{t.path}:{t.line + 1}" for t in op.targets) for op in ops}
    return found, oracle


def snapshot_of(lines: Sequence[str], per_file: int = 40) -> Snapshot:
    """The lines as entries of topic files (one visibility group), a few workspaces."""
    files: dict[str, bytes] = {}
    for n in range(0, len(lines), per_file):
        path = f"workspaces/w{n}.md" if n % (per_file * 7) == per_file else f"topics/t{n}.md"
        body = "".join(f"{line}\n" for line in lines[n : n + per_file])
        files[path] = f"# {path}\n\n{body}".encode()
    return build_snapshot("c0", files, TODAY)


def eval_fixture_texts() -> list[str]:
    """Every entry of the recall eval fixtures: facts people and agents really keep."""
    texts: list[str] = []
    for path in sorted((REPO / "fixtures" / "evals").glob("*.json")):
        setup = json.loads(path.read_text(encoding="utf-8"))["setup"]
        for body in setup.get("files", {}).values():
            lines = body if isinstance(body, list) else body.splitlines()
            texts += [line.strip()[2:].split(" [")[0] for line in lines
                      if line.strip().startswith("- ")]  # fmt: skip
    return [t for t in texts if t.strip()]


def reworded(text: str, rng: random.Random) -> str:
    """One of the edits that make near duplicates (and near misses): a plural, a word
    added or dropped, two words swapped, a function word, another capitalization."""
    words = text.split()
    at = rng.randrange(len(words))
    edit = rng.randrange(6)
    if edit == 0:
        words[at] += "s"
    elif edit == 1:
        words.insert(at, rng.choice(["really", "always", "the", "new"]))
    elif edit == 2 and len(words) > 2:
        del words[at]
    elif edit == 3 and len(words) > 1:
        j = (at + 1) % len(words)
        words[at], words[j] = words[j], words[at]
    elif edit == 4:
        words.append(rng.choice(["too", "again", "daily"]))
    else:
        words = [w.upper() if rng.random() < 0.3 else w for w in words]
    return " ".join(words)


@pytest.mark.slow
def test_the_index_merges_what_all_pairs_merge_on_the_eval_fixtures() -> None:
    rng = random.Random(18)
    texts = eval_fixture_texts()
    assert len(texts) > 700
    lines = [f"- {t} [by: agent]" for t in texts]
    lines += [f"- {reworded(t, rng)} [by: agent]" for t in texts]
    lines += [f"- {reworded(reworded(t, rng), rng)} [by: agent]" for t in texts[::3]]
    found, oracle = clusters_found(snapshot_of(lines))
    assert len(oracle) > 200  # the fixture holds many near duplicates, not a few
    assert found == oracle


def load_fixture_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "dream_fixture", REPO / "fixtures" / "dream" / "generate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dream_fixture"] = module
    spec.loader.exec_module(module)
    return module


def test_the_index_merges_what_all_pairs_merge_on_the_dream_fixture(tmp_path: Path) -> None:
    """The benchmark's seeded repo (traps across subjects, contradictions, duplicates,
    numbered facts), with every fifth entry reworded into another file."""
    load_fixture_generator().build(tmp_path / "fx", 600, 7)
    files = {p.relative_to(tmp_path / "fx").as_posix(): p.read_bytes()
             for p in (tmp_path / "fx").rglob("*.md")}  # fmt: skip
    rng = random.Random(5)
    facts = build_snapshot("c0", files, TODAY).facts[::5]
    again = "".join(f"- {reworded(f.text, rng)} [{f.meta}]\n" for f in facts if f.meta)
    files["topics/again.md"] = f"# Again\n\n{again}".encode()
    found, oracle = clusters_found(build_snapshot("c0", files, TODAY))
    assert len(oracle) > 30
    assert found == oracle


def templated(n: int, rng: random.Random) -> list[str]:
    """`n` distinct facts filled into one template: no rare word, no number."""
    people = ["Ana", "Bob", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo"]
    services = ["billing", "search", "auth", "payments", "gateway", "queue", "cache", "mail"]
    places = ["staging", "production", "the lab", "the edge cluster"]
    days = ["Mondays", "Fridays", "weekends"]
    slots = list(itertools.product(people, ["owns", "reviews", "tests"], services, places, days))
    return [f"{who} {verb} the {what} service in {where} on {day}"
            for who, verb, what, where, day in rng.sample(slots, n)]  # fmt: skip


@pytest.mark.slow
def test_the_index_merges_what_all_pairs_merge_on_templated_facts() -> None:
    rng = random.Random(7)
    texts = templated(1500, rng)
    lines = [f"- {t} [by: agent]" for t in texts]
    lines += [f"- {reworded(t, rng)} [by: agent]" for t in texts[::10]]
    found, oracle = clusters_found(snapshot_of(lines))
    assert len(oracle) > 50
    assert found == oracle


def entries_of(texts: Sequence[str]) -> dict[int, tuple[frozenset[str], int]]:
    norms = [normalize_text(t) for t in texts]
    return dict(enumerate(similarity.word_sets(norms)))


def test_templated_facts_are_compared_linearly_not_pairwise() -> None:
    """2,500 template facts, each sharing most words with hundreds of others: all pairs
    would be over 3 million; the index hands over only the reworded copies planted."""
    rng = random.Random(3)
    texts = templated(2500, rng)
    copies = [f"On {t.rsplit(' on ', 1)[1]} {t.rsplit(' on ', 1)[0]}" for t in texts[::100]]
    pairs = candidate_pairs(entries_of([*texts, *copies]), similarity.NEAR)
    assert len(pairs) == len(copies)
    assert {(i, j - 2500) for i, j in pairs} == {(i, i // 100) for i in range(0, 2500, 100)}


def test_a_word_every_entry_holds_brings_no_pairs() -> None:
    """A word in every entry (a project's name) ranks last: it pairs nothing by itself."""
    texts = [f"memrepo owner{a} area{b}" for a, b in itertools.product(range(60), range(50))]
    assert candidate_pairs(entries_of(texts), similarity.NEAR) == set()


def test_an_entry_without_words_is_never_paired() -> None:
    assert candidate_pairs(entries_of(["the", "a of the", "it is"]), similarity.NEAR) == set()


VOCABULARY = ["deploy", "deploys", "web", "shop", "shops", "not", "never", "the", "on",
              "api", "Friday", "fridays", "build", "ci", "café", "CAFÉ", "straße", "STRASSE",
              "x_y"]  # fmt: skip
TEXT = st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=8).map(" ".join)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(texts=st.lists(TEXT, min_size=2, max_size=30))
def test_every_pair_the_rule_accepts_is_a_candidate(texts: list[str]) -> None:
    shapes = [similarity.shape(t) for t in texts]
    entries = entries_of(texts)
    for threshold in (similarity.NEAR, similarity.SAME_SUBJECT):
        found = candidate_pairs(entries, threshold)
        for i, j in itertools.combinations(range(len(texts)), 2):
            if shapes[i].words and similarity.compare(shapes[i], shapes[j]) >= threshold:
                assert (i, j) in found, (texts[i], texts[j], threshold)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    base=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8),
    extra=st.integers(min_value=1, max_value=6),
    threshold=st.sampled_from([similarity.NEAR, similarity.SAME_SUBJECT]),
)
def test_a_longer_entry_whose_added_words_are_rarest_is_found(
    base: list[str], extra: int, threshold: float
) -> None:
    """The prefix's edge: B adds words rarer than any of A's (each in B alone), as many
    as the threshold allows, so B's rarest words are all words A lacks."""
    a = " ".join(base)
    b = " ".join([*(f"rare{'abcdef'[n]}" for n in range(extra)), *base])
    common = [f"{word} filler{'xyz'[n]}" for word in base for n in range(3)]
    texts = [a, b, *common]
    pairs = candidate_pairs(entries_of(texts), threshold)
    shape_a, shape_b = similarity.shape(a), similarity.shape(b)
    if shape_a.words and similarity.compare(shape_a, shape_b) >= threshold:
        assert (0, 1) in pairs


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(codec="utf-8"), max_size=40) | TEXT)
def test_word_sets_are_the_shapes_words(text: str) -> None:
    """The bulk reading of the words is the rule's own, and its gram count a bound."""
    ((words, grams),) = similarity.word_sets([normalize_text(text)])
    shape = similarity.shape(text)
    assert words == shape.words
    assert grams >= len(shape.grams)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Ana owns the billing service", "Ana owns the billing services"),
     ("Prefers pnpm", "Prefers pnpm for every project"),  # same subject only
     ("deploys happen on fridays", "on fridays deploys happen")],
)  # fmt: skip
def test_the_labelled_rewordings_are_candidates(a: str, b: str) -> None:
    assert candidate_pairs(entries_of([a, b]), similarity.SAME_SUBJECT) == {(0, 1)}
