"""Each deterministic pass on parsed files (real parser, no git)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.dreaming import similarity
from memrepo.dreaming.duplicates import find_exact, find_near
from memrepo.dreaming.expiry import find_expired
from memrepo.dreaming.links import find_broken_links
from memrepo.dreaming.overflow import find_overflow
from memrepo.dreaming.snapshot import Snapshot, build_snapshot
from memrepo.dreaming.subjects import find_contradictions
from memrepo.dreaming.unlisted import find_unlisted

from .helpers import memory

TODAY = date(2026, 3, 1)


def snap(files: dict[str, str]) -> Snapshot:
    return build_snapshot("c0", {p: t.encode() for p, t in files.items()}, TODAY)


def test_exact_duplicates_merge_into_one_line_with_every_source_and_the_earliest_date() -> None:
    s = snap({"MEMORY.md": memory(
        "- Use pnpm [source: t1; added: 2026-02-02; by: agent]",
        "- use  PNPM [source: t2; added: 2026-01-05; by: agent]",
        "- Use pnpm [subject: web-pm; by: agent]",
    )})  # fmt: skip
    (op,) = find_exact(s, set())
    assert op.kind == "merge" and len(op.targets) == 2
    assert op.text == "- Use pnpm [sources: t1, t2; added: 2026-01-05; by: agent]"


def test_duplicates_in_two_workspaces_are_not_merged() -> None:
    line = "- Use pnpm [by: agent]"
    s = snap({"MEMORY.md": memory(), "workspaces/a.md": f"# A\n\n{line}\n",
              "workspaces/b.md": f"# B\n\n{line}\n"})  # fmt: skip
    assert find_exact(s, set()) == []


def test_near_duplicates_never_cross_subjects() -> None:
    s = snap({"MEMORY.md": memory(
        "- Deploys happen on Fridays [subject: web-deploy; by: agent]",
        "- Deploys happen on Friday [subject: api-deploy; by: agent]",
        "- Ana owns the billing services [by: agent; added: 2026-01-01]",
        "- Ana owns the billing service [by: agent; added: 2026-02-01]",
    )})  # fmt: skip
    (op,) = find_near(s, set())
    assert op.text is not None and op.text.startswith("- Ana owns the billing service [")
    assert {t.raw for t in op.targets} == {e.raw for e in s.facts[2:]}


def test_near_duplicates_with_their_numbers_in_another_order_merge() -> None:
    s = snap({"MEMORY.md": memory(
        "- Nightly backups of the billing database run at 02:00 and 14:00 on the replica "
        "server in the main data center [by: agent]",
        "- Nightly backups of the billing database run at 14:00 and 02:00 on the replica "
        "server in the main data center [by: agent]",
    )})  # fmt: skip
    (op,) = find_near(s, set())
    assert len(op.targets) == 2


def test_near_duplicates_tell_non_ascii_digits_apart() -> None:
    s = snap({"MEMORY.md": memory(
        "- Deploys go out on port ٣ of the staging gateway [by: agent]",
        "- Deploys go out on port ٣ of the staging gateways [by: agent]",
        "- Deploys go out on port ٤ of the staging gateways [by: agent]",
    )})  # fmt: skip
    (op,) = find_near(s, set())
    assert [t.line for t in op.targets] == [3, 2]  # kept: the one written last
    assert all("٣" in t.raw for t in op.targets)


#: Words that make two entries differ in numbers (however written), negations, plurals,
#: order, and in nothing at all.
VOCABULARY = ["deploy", "deploys", "web", "shop", "shops", "not", "never", "the", "on", "8080",
              "8081", "٣", "3.14", "3,14", "1..2", "v2", "x86_64", "02:00", "Friday"]  # fmt: skip
ENTRY_TEXT = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=7).map(" ".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(a=ENTRY_TEXT, b=ENTRY_TEXT)
def test_two_entries_merge_exactly_when_the_rule_says_they_are_one_fact(a: str, b: str) -> None:
    s = snap({"MEMORY.md": memory(f"- {a} [by: agent]", f"- {b} [by: agent]")})
    merged = bool(find_near(s, set()))
    if not similarity.tokens(a) and not similarity.tokens(b):
        assert not merged  # nothing to compare but function words
    else:
        assert merged == similarity.same_fact(a, b)


def test_only_past_expiry_dates_expire() -> None:
    s = snap({"MEMORY.md": memory(
        "- Gone [expires: 2026-02-28; by: agent]",
        "- Today still counts [expires: 2026-03-01; by: agent]",
        "- Not a date [expires: soon; by: agent]",
    )})  # fmt: skip
    (op,) = find_expired(s, set())
    assert op.targets[0].raw.startswith("- Gone")


def test_a_contradiction_keeps_the_most_trusted_then_the_newest() -> None:
    s = snap({"MEMORY.md": memory(
        "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
        "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
        "- Deploy day is Tuesday [subject: deploy-day; by: agent; added: 2026-02-20]",
    )})  # fmt: skip
    (op,) = find_contradictions(s, set())
    assert sorted(t.raw.split(" [")[0] for t in op.targets) == [
        "- Deploy day is Friday",
        "- Deploy day is Tuesday",
    ]
    assert "Monday" in op.reason


def test_broken_links_are_fixed_from_renames_or_reported() -> None:
    s = snap({"MEMORY.md": memory("- See [[notes/old|the notes]] and [[gone]] [by: agent]",
                                  "- Also [[notes/old]] [by: agent]", index=("notes/old",)),
              "notes/new.md": "# New\n"})  # fmt: skip
    ops, broken, moved = find_broken_links(s, set(), lambda paths: {"notes/old.md": "notes/new.md"})
    assert moved == {"notes/old.md": "notes/new.md"}
    assert sorted(op.text or "" for op in ops) == ["- Also [[notes/new]] [by: agent]",
                                                   "- [[notes/new]]"]  # fmt: skip
    assert [(b.target, b.line) for b in broken] == [("gone", 3)]


def test_unlisted_files_are_linked_but_reachable_ones_are_not() -> None:
    s = snap({"MEMORY.md": memory(index=("a",)), "a.md": "# A\n\n- see [[b]] [by: agent]\n",
              "b.md": "# B\n", "c.md": "# C\n", "swarms/x-1/findings.md": "# F\n"})  # fmt: skip
    assert [op.dest for op in find_unlisted(s, {})] == ["c.md"]


def test_overflow_moves_the_least_used_agent_entries_until_the_budget_fits() -> None:
    lines = [f"- agent fact {n:03d} {'x' * 60} [by: agent; added: 2026-01-{n % 28 + 1:02d}]"
             for n in range(40)]  # fmt: skip
    lines.append("- a person's own rule " + "y" * 60)
    s = snap({"MEMORY.md": memory(*lines)})
    ops = find_overflow(s, set(), budget=600)
    assert ops and all(op.kind == "move" and op.dest == "topics/notes.md" for op in ops)
    moved = [op.targets[0].raw for op in ops]
    assert not any("person" in raw for raw in moved)
    assert moved[0].endswith("added: 2026-01-01]")
    left = len(s.files["MEMORY.md"]) - sum(len(r) + 1 for r in moved) + len("- [[topics/notes]]\n")
    assert left / 4 <= 600


def test_near_duplicates_are_found_even_after_a_text_holding_a_line_break() -> None:
    s = snap({"MEMORY.md": memory(
        "- Alpha release notes 5 [by: agent]",
        "- Deploys go out on port 8080 of the staging gateway [by: agent]",
        "- Deploys go out on port 8080 of the staging gateways [by: agent]",
        "- Gamma release notes 7 [by: agent]",
    )})  # fmt: skip
    first, *rest = s.facts
    facts = (first._replace(norm=first.norm.replace(" ", "\n", 1)), *rest)
    (op,) = find_near(replace(s, facts=facts), set())
    assert [t.line for t in op.targets] == [4, 3]
