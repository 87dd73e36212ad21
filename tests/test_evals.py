"""The recall-quality gate: metric math, the fixtures' schema, the CLI, and the gate itself."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from memrepo.cli import evals as eval_cli
from memrepo.errors import InvalidArgument
from memrepo.evals import DEFAULT_PATH, load_fixtures, run_evals, score_case, summarize
from memrepo.models.evals import CaseResult, EvalCase
from memrepo.models.recall import Provenance, RecallHit

#: Overall recall@5 the shipped fixtures must reach. Measured 1.000 (recall@1 0.961, MRR
#: 0.988, 242 scored cases of 299, team and swarm lanes included); the margin absorbs
#: about four ranking slips, not a lost feature.
MIN_RECALL_AT_5 = 0.98

#: Categories whose cases check that something does NOT show (visibility rules).
LEAK_CATEGORIES = ("privacy", "contact", "task", "workspace", "swarm")


def hit(text: str, ref: str | None = None) -> RecallHit:
    return RecallHit(
        ref=ref or f"folder:MEMORY.md#{hashlib.sha256(text.encode()).hexdigest()[:10]}",
        lane="folder",
        text=text,
        snippet=text,
        relevance=1.0,
        score=1.0,
        provenance=Provenance(path="MEMORY.md"),
        tokens=len(text) // 4 + 1,
    )


def write_fixture(directory: Path, name: str, data: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")


def run_cli(argv: list[str]) -> int:
    """Run `memrepo eval` through this module's parser (the same handler main() calls)."""
    parser = argparse.ArgumentParser(prog="memrepo")
    parser.add_argument("--repo", default=None)
    eval_cli.register(parser.add_subparsers(required=True))
    args = parser.parse_args(["eval", *argv])
    code: int = args.handler(args)
    return code


TINY: dict[str, Any] = {
    "category": "tiny",
    "description": "two entries, one private item",
    "setup": {
        "files": {"MEMORY.md": ["# Memory", "", "- Prefers pnpm over npm", "", "## Index"]},
        "remember": [
            {"text": "Build server is 10.0.4.17"},
            {"text": "Salary is 92,000 EUR", "private": True},
        ],
    },
    "cases": [
        {"id": "tiny-1", "query": "pnpm", "expect": ["Prefers pnpm"]},
        {"id": "tiny-2", "query": "10.0.4.17", "expect": ["Build server", "never there"]},
        {"id": "tiny-3", "query": "salary", "must_not": ["Salary is 92,000"]},
    ],
}


#: A team repo and two swarms: the lanes that are not in the memory folder itself.
LANES: dict[str, Any] = {
    "category": "lanes",
    "description": "a team repo that changes after it is added, and two swarms",
    "setup": {
        "files": {"MEMORY.md": ["# Memory", "", "- My deploys happen on Fridays", "", "## Index"]},
        "teams": {
            "core": {
                "files": {
                    "MEMORY.md": ["# Team", "", "- Team deploys happen on Tuesdays"],
                    "runbooks/oncall.md": ["# Oncall", "", "- Page the database owner first"],
                },
                "later": {"MEMORY.md": ["# Team", "", "- Team deploys happen on Wednesdays"]},
            }
        },
        "tasks": [
            {"id": "root-1", "title": "Fix the flaky build"},
            {"id": "child-1", "title": "Read the logs", "parent": "root-1"},
            {"id": "root-2", "title": "Write release notes"},
        ],
        "swarm_notes": [
            {"task_id": "child-1", "kind": "question", "text": "Do arm64 runners fail too?"},
            {
                "task_id": "root-1",
                "kind": "answer",
                "text": "Yes, arm64 runners fail as often",
                "answers": "Do arm64 runners fail too?",
            },
            {"task_id": "root-2", "kind": "finding", "text": "Changelog lacks the arm64 note"},
        ],
    },
    "cases": [
        {
            "id": "lanes-1",
            "query": "when do deploys happen",
            "expect": ["My deploys happen on Fridays", "Team deploys happen on Wednesdays"],
            "must_not": ["Tuesdays"],
            "ordered": True,
        },
        {"id": "lanes-2", "query": "database owner", "expect": ["Page the database owner"]},
        {
            "id": "lanes-3",
            "query": "arm64 runners",
            "options": {"task_id": "child-1"},
            "expect": ["Do arm64 runners fail too?", "Yes, arm64 runners fail as often"],
            "must_not": ["Changelog lacks"],
        },
        {
            "id": "lanes-4",
            "query": "arm64",
            "options": {"task_id": "root-2"},
            "expect": ["Changelog lacks the arm64 note"],
            "must_not": ["arm64 runners fail"],
        },
        {"id": "lanes-5", "query": "arm64", "must_not": ["arm64"]},
    ],
}


# --- metric math (pure) ----------------------------------------------------------------


def test_score_case_ranks_recall_at_k_and_reciprocal_rank() -> None:
    case = EvalCase(id="c", query="q", expect=["alpha", "delta"], must_not=["omega"])
    hits = [hit(t) for t in ("x", "y", "Alpha one", "z", "w", "v", "DELTA two")]
    result = score_case(case, hits, category="cat")
    assert result.ranks == [3, 7]
    assert (result.recall_at_1, result.recall_at_5, result.recall_at_10) == (0.0, 0.5, 1.0)
    assert result.reciprocal_rank == pytest.approx(1 / 3)
    assert result.leaks == []
    assert len(result.hits) == 7  # a case below rank 1 keeps its hits for diagnosis


def test_score_case_counts_only_hits_within_the_limit() -> None:
    case = EvalCase(id="c", query="q", expect=["target"], must_not=["secret"])
    hits = [hit("a"), hit("b"), hit("target"), hit("the secret", ref="memory:s1")]
    cut = score_case(case, hits, category="cat", limit=2)
    assert cut.ranks == [None]
    assert (cut.recall_at_10, cut.reciprocal_rank, cut.leaks) == (0.0, 0.0, [])
    full = score_case(case, hits, category="cat", limit=10)
    assert full.ranks == [3]
    assert [(leak.text, leak.rank, leak.ref) for leak in full.leaks] == [("secret", 4, "memory:s1")]


def test_a_case_without_expectations_is_not_scored() -> None:
    case = EvalCase(id="c", query="AND OR NOT")
    result = score_case(case, [hit("anything")], category="cat")
    assert result.recall_at_5 is None and result.reciprocal_rank is None
    assert result.hits == []


def test_matching_ignores_case_and_unicode_normalization() -> None:
    case = EvalCase(id="c", query="q", expect=["CAFÉ LUMEN"])  # precomposed É
    result = score_case(case, [hit("Cafe\u0301 Lumen opens at 7")], category="cat")
    assert result.ranks == [1]


def test_summarize_averages_scored_cases_and_counts_leaks_and_failures() -> None:
    rows = [
        CaseResult(id="a", category="c", query="q", ranks=[1], recall_at_1=1.0,
                   recall_at_5=1.0, recall_at_10=1.0, reciprocal_rank=1.0),
        CaseResult(id="b", category="c", query="q", ranks=[None, 4], recall_at_1=0.0,
                   recall_at_5=0.5, recall_at_10=0.5, reciprocal_rank=0.25),
        CaseResult(id="n", category="c", query="q", error="boom"),
    ]  # fmt: skip
    rows.append(CaseResult(id="m", category="c", query="q", misordered=True))
    score = summarize("c", rows)
    assert (score.cases, score.scored, score.failures, score.leaks) == (4, 2, 1, 0)
    assert score.misordered == 1
    assert score.recall_at_1 == 0.5
    assert score.recall_at_5 == 0.75
    assert score.mrr == 0.625


def test_summarize_of_unscored_cases_has_no_metrics() -> None:
    score = summarize("c", [CaseResult(id="a", category="c", query="q")])
    assert score.recall_at_5 is None and score.mrr is None


def test_an_ordered_case_found_out_of_order_is_misordered() -> None:
    case = EvalCase(id="c", query="q", expect=["own fact", "team fact"], ordered=True)
    wrong = score_case(case, [hit("x"), hit("team fact"), hit("own fact")], category="cat")
    assert (wrong.ranks, wrong.misordered) == ([3, 2], True)
    assert wrong.recall_at_5 == 1.0  # found is found: the order is judged on its own
    assert len(wrong.hits) == 3
    right = score_case(case, [hit("own fact"), hit("x"), hit("team fact")], category="cat")
    assert (right.ranks, right.misordered) == ([1, 3], False)
    missing = score_case(case, [hit("team fact")], category="cat")
    assert (missing.ranks, missing.misordered) == ([None, 1], False)  # a miss, not a misorder


def test_the_same_order_unasked_is_no_misorder() -> None:
    case = EvalCase(id="c", query="q", expect=["own fact", "team fact"])
    assert not score_case(case, [hit("team fact"), hit("own fact")], category="cat").misordered


def test_ordered_needs_two_expectations() -> None:
    with pytest.raises(ValueError, match="at least two"):
        EvalCase(id="c", query="q", expect=["one"], ordered=True)


def test_empty_expectation_text_is_rejected() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        EvalCase(id="c", query="q", expect=[" "])


# --- running a tiny fixture dir end to end ---------------------------------------------


@pytest.mark.slow
def test_run_evals_on_a_tiny_fixture_dir(tmp_path: Path) -> None:
    write_fixture(tmp_path / "evals", "tiny", TINY)
    report = run_evals(tmp_path / "evals")
    by_id = {case.id: case for case in report.cases}
    assert by_id["tiny-1"].ranks == [1]
    assert by_id["tiny-2"].ranks == [1, None]
    assert by_id["tiny-2"].recall_at_5 == 0.5
    assert [row.category for row in report.categories] == ["tiny"]
    assert report.overall.scored == 2
    assert report.overall.recall_at_5 == 0.75
    assert report.overall.mrr == 1.0
    assert report.leaks == [] and report.failures == []


@pytest.mark.slow
def test_team_repos_and_swarm_notes_join_a_setup(tmp_path: Path) -> None:
    """A team published to a local bare repo, then changed and synced; notes in two
    swarms, one an answer naming its question by text: each reader sees what it may."""
    write_fixture(tmp_path, "lanes", LANES)
    report = run_evals(tmp_path)
    assert report.failures == [] and report.leaks == [] and report.misordered == []
    by_id = {case.id: case for case in report.cases}
    assert by_id["lanes-1"].ranks == [1, 2]  # own folder 1.0 above team 0.8; sync followed
    assert by_id["lanes-2"].ranks == [1]  # a team topic file
    assert set(by_id["lanes-3"].ranks) == {1, 2}  # the answer was written
    assert by_id["lanes-4"].ranks == [1]
    assert report.overall.recall_at_5 == 1.0


@pytest.mark.slow
def test_a_team_or_swarm_leak_is_caught(tmp_path: Path) -> None:
    """The leak check sees team and swarm hits: the gate could fail on these lanes."""
    leaky = {
        **LANES,
        "cases": [
            {"id": "l-1", "query": "database owner", "must_not": ["database owner"]},
            {
                "id": "l-2",
                "query": "arm64",
                "options": {"task_id": "child-1"},
                "must_not": ["Yes, arm64"],
            },
        ],
    }
    write_fixture(tmp_path, "lanes", leaky)
    report = run_evals(tmp_path)
    assert sorted((leak.case_id, leak.ref.split(":")[0]) for leak in report.leaks) == [
        ("l-1", "team"),
        ("l-2", "swarm"),
    ]


@pytest.mark.slow
def test_an_answer_to_an_unknown_question_fails_the_setup(tmp_path: Path) -> None:
    setup = json.loads(json.dumps(LANES["setup"]))
    setup["swarm_notes"][1]["answers"] = "Never asked?"
    write_fixture(tmp_path, "lanes", {**LANES, "setup": setup})
    report = run_evals(tmp_path)
    assert len(report.failures) == len(LANES["cases"])
    assert "not the text of an earlier question" in report.failures[0].message


def test_a_team_that_cannot_be_added_fails_the_setup(tmp_path: Path) -> None:
    setup = {**LANES["setup"], "teams": {"Not A Name": LANES["setup"]["teams"]["core"]}}
    write_fixture(tmp_path, "lanes", {**LANES, "setup": setup})
    report = run_evals(tmp_path)
    assert "setup of lanes failed: InvalidArgument: team name" in report.failures[0].message


@pytest.mark.slow
def test_a_must_not_text_in_a_hit_is_a_leak(tmp_path: Path) -> None:
    leaky = {**TINY, "cases": [{"id": "l-1", "query": "pnpm", "must_not": ["pnpm over"]}]}
    write_fixture(tmp_path, "leaky", leaky)
    report = run_evals(tmp_path)
    assert [(leak.case_id, leak.text, leak.rank) for leak in report.leaks] == [
        ("l-1", "pnpm over", 1)
    ]
    assert report.overall.leaks == 1 and not report.passed


@pytest.mark.slow
def test_a_broken_setup_fails_its_cases_and_the_run_goes_on(tmp_path: Path) -> None:
    broken = {
        **TINY,
        "category": "broken",
        "setup": {"remember": [{"text": "x y z", "scope": "nonsense"}]},
    }
    broken["cases"] = [{"id": "b-1", "query": "pnpm", "expect": ["pnpm"]}]
    write_fixture(tmp_path, "broken", broken)
    write_fixture(tmp_path, "tiny", TINY)
    report = run_evals(tmp_path)
    assert [failure.case_id for failure in report.failures] == ["b-1"]
    assert "setup of broken failed" in report.failures[0].message
    assert report.categories[0].recall_at_5 == 0.0
    assert report.categories[1].recall_at_5 == 0.75


def test_categories_filter_and_unknown_category(tmp_path: Path) -> None:
    write_fixture(tmp_path, "tiny", TINY)
    write_fixture(tmp_path, "other", {**TINY, "category": "other", "cases": []})
    assert [f.category for f in load_fixtures(tmp_path, ["tiny"])] == ["tiny"]
    with pytest.raises(InvalidArgument, match="unknown eval categories nope"):
        load_fixtures(tmp_path, ["nope"])


def test_bad_fixture_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="no such eval fixture directory"):
        load_fixtures(tmp_path / "missing")
    with pytest.raises(InvalidArgument, match=r"no \*\.json eval fixtures"):
        load_fixtures(tmp_path)
    (tmp_path / "bad.json").write_text('{"category": "x"}', encoding="utf-8")
    with pytest.raises(InvalidArgument, match=r"bad\.json: not a valid eval fixture"):
        load_fixtures(tmp_path)


def test_duplicate_case_ids_are_rejected(tmp_path: Path) -> None:
    write_fixture(tmp_path, "a", TINY)
    write_fixture(tmp_path, "b", {**TINY, "category": "b"})
    with pytest.raises(InvalidArgument, match=r"tiny-1.* twice"):
        load_fixtures(tmp_path)


def test_a_fixture_file_cannot_write_outside_the_repo(tmp_path: Path) -> None:
    escape = {**TINY, "setup": {"files": {"../outside.md": "- x"}}}
    write_fixture(tmp_path / "evals", "tiny", escape)
    report = run_evals(tmp_path / "evals")
    assert len(report.failures) == len(TINY["cases"])
    assert "must stay inside the repo" in report.failures[0].message
    assert not (tmp_path / "outside.md").exists()


# --- the CLI ---------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_prints_a_table_and_exits_0_when_the_gate_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_fixture(tmp_path, "tiny", TINY)
    assert run_cli(["--path", str(tmp_path), "--min-recall-at-5", "0.7"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == [
        "category", "cases", "R@1", "R@5", "R@10", "MRR", "leaks", "failed", "order",
    ]  # fmt: skip
    assert "tiny" in out and out.splitlines()[-1].split()[:4] == ["overall", "3", "0.750", "0.750"]


@pytest.mark.slow
def test_cli_exits_1_below_the_recall_threshold(tmp_path: Path) -> None:
    write_fixture(tmp_path, "tiny", TINY)
    assert run_cli(["--path", str(tmp_path), "--min-recall-at-5", "0.8"]) == 1


@pytest.mark.slow
def test_cli_exits_1_on_a_leak_and_lists_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_fixture(
        tmp_path,
        "leaky",
        {**TINY, "cases": [{"id": "l-1", "query": "pnpm", "must_not": ["pnpm over"]}]},
    )
    assert run_cli(["--path", str(tmp_path)]) == 1
    assert "l-1: 'pnpm over' at rank 1" in capsys.readouterr().out


@pytest.mark.slow
def test_cli_exits_1_on_a_misordered_case_and_lists_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flipped = {
        **LANES,
        "cases": [{**LANES["cases"][0], "expect": LANES["cases"][0]["expect"][::-1]}],
    }
    write_fixture(tmp_path, "lanes", flipped)
    assert run_cli(["--path", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "lanes-1: expected texts found at ranks 2, 1, not in the listed order" in out


def test_cli_exits_1_on_a_failed_case(tmp_path: Path) -> None:
    broken = {**TINY, "setup": {"remember": [{"text": "x y z", "scope": "nonsense"}]}}
    write_fixture(tmp_path, "broken", broken)
    assert run_cli(["--path", str(tmp_path)]) == 1


@pytest.mark.slow
def test_cli_json_is_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_fixture(tmp_path, "tiny", TINY)
    assert run_cli(["--path", str(tmp_path), "--json", "--category", "tiny"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overall"]["recall_at_5"] == 0.75
    assert [case["id"] for case in data["cases"]] == ["tiny-1", "tiny-2", "tiny-3"]


def test_cli_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_cli(["--help"])
    assert exited.value.code == 0
    assert "Example:\n  memrepo eval" in capsys.readouterr().out


# --- the shipped fixtures --------------------------------------------------------------


def test_fixtures_parse_with_unique_ids_and_enough_cases() -> None:
    fixtures = load_fixtures()  # raises on a bad file or a duplicate id
    cases = [case for fixture in fixtures for case in fixture.cases]
    assert len(cases) >= 150
    for fixture in fixtures:
        assert len(fixture.cases) >= 10, fixture.category
        assert (DEFAULT_PATH / f"{fixture.category}.json").is_file()
        assert all(case.id.startswith(f"{fixture.category}-") for case in fixture.cases)


def test_the_team_and_swarm_lanes_are_covered() -> None:
    """Team and swarm cases run against real team repos and swarm notes, with leak
    cases (a must_not and nothing expected) for the swarm's visibility rule."""
    fixtures = {fixture.category: fixture for fixture in load_fixtures()}
    team, swarm = fixtures["team"], fixtures["swarm"]
    assert len(team.setup.teams) >= 2 and any(t.later for t in team.setup.teams.values())
    assert swarm.setup.swarm_notes and swarm.setup.tasks
    assert len(team.cases) + len(swarm.cases) >= 30
    assert sum(1 for case in team.cases if case.ordered) >= 3
    swarm_leaks = [case for case in swarm.cases if case.must_not and not case.expect]
    assert len(swarm_leaks) >= 8


def test_every_leak_category_case_has_must_not() -> None:
    fixtures = {fixture.category: fixture for fixture in load_fixtures()}
    for name in LEAK_CATEGORIES:
        missing = [case.id for case in fixtures[name].cases if not case.must_not]
        assert missing == [], f"{name}: cases without must_not: {missing}"


@pytest.mark.slow
def test_the_gate() -> None:
    """Recall over every shipped fixture: recall@5 at the threshold, no leak, no failure."""
    report = run_evals()
    misses = [
        f"{case.id} {case.query!r} ranks={case.ranks} hits={case.hits[:5]}"
        for case in report.cases
        if any(rank is None or rank > 5 for rank in case.ranks)
    ]
    assert report.failures == [], report.failures
    assert report.leaks == [], report.leaks
    assert report.misordered == [], report.misordered
    assert (report.overall.recall_at_5 or 0.0) >= MIN_RECALL_AT_5, "\n".join(misses)
    # Every category holds the bar too: a small one (the conversation excerpt, where
    # the context ranking is what finds half its turns) must not hide in the average.
    weak = {c.category: c.recall_at_5 for c in report.categories if c.category != "overall"}
    assert all((r or 0.0) >= MIN_RECALL_AT_5 for r in weak.values() if r is not None), weak
