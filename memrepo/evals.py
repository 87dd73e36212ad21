"""The recall-quality gate: run the eval fixtures and measure recall@k, MRR and leaks.

Each fixture file (``memrepo/evals_data/<category>.json``, schema in
:mod:`memrepo.models.evals`) describes a memory repo and the queries to run against it.
:func:`run_evals` builds each category's repo once in a temporary directory (files
committed with the plain ``git`` command, as a person would; ``remember`` and
``swarm_note`` calls through :class:`~memrepo.engine.MemoryRepo` with a fixed clock; team
repos published to local bare repos beside it and added with ``team_add``, so no
network), runs every case through ``MemoryRepo.recall`` and scores the hits:

* recall@k: the share of a case's ``expect`` texts found in the top k hits;
* MRR: 1 / rank of the first hit holding any expected text (0 when none is within the
  limit);
* a leak: a ``must_not`` text in any hit within the limit;
* a misorder: an ``ordered`` case found its expected texts out of the listed order;
* a failure: recall raised, or reported a failed lane. A failed case scores 0 and the run
  goes on.

Texts are compared after NFC normalization and casefolding, so an expectation does not
depend on how a hit's text is cased. Metrics are averaged over the cases that have
expectations; ``overall`` averages over every such case (not over categories).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from memrepo import progress
from memrepo.clock import FixedClock, Identity
from memrepo.engine import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.models.evals import (
    CaseResult,
    CategoryScore,
    EvalCase,
    EvalCategory,
    EvalReport,
    EvalSetup,
    Failure,
    FileText,
    Leak,
    SwarmNoteStep,
    TeamRepo,
)
from memrepo.models.recall import RecallHit

__all__ = [
    "CUTOFFS",
    "DEFAULT_PATH",
    "EVAL_CLOCK",
    "load_fixtures",
    "run_evals",
    "score_case",
    "summarize",
]

DEFAULT_PATH = Path(__file__).resolve().parent / "evals_data"
"""The fixtures, shipped inside the package so `memrepo eval` runs from an installed
wheel too (``--path`` points elsewhere); ``fixtures/evals`` of the source tree links
here."""

EVAL_CLOCK = FixedClock(datetime(2025, 3, 14, 9, 30, tzinfo=UTC))
"""Every setup is written at this instant, so runs are reproducible."""

CUTOFFS = (1, 5, 10)

_IDENTITY = Identity(name="memrepo eval", email="eval@memrepo.invalid")
_GIT_DATE = "2025-03-13T18:00:00+00:00"
_HIT_PREVIEW = 160


def load_fixtures(
    path: Path | None = None, categories: Sequence[str] | None = None
) -> list[EvalCategory]:
    """Parse every ``*.json`` fixture under `path` (sorted by name), optionally only the
    named `categories`. A bad file or an unknown category is an InvalidArgument."""
    root = Path(path) if path is not None else DEFAULT_PATH
    if not root.is_dir():
        raise InvalidArgument(f"{root}: no such eval fixture directory (give --path DIR)")
    loaded: list[EvalCategory] = []
    for file in sorted(root.glob("*.json")):
        # json.loads, not pydantic's parser: a hostile case may hold a lone surrogate
        # (a "\\ud800" escape), which is a valid Python str that pydantic's JSON refuses.
        try:
            loaded.append(EvalCategory.model_validate(json.loads(file.read_text("utf-8"))))
        except (ValueError, ValidationError) as exc:
            raise InvalidArgument(f"{file}: not a valid eval fixture: {exc}") from exc
    if not loaded:
        raise InvalidArgument(f"{root}: holds no *.json eval fixtures")
    _check_unique_ids(loaded)
    if categories:
        known = {fixture.category for fixture in loaded}
        unknown = sorted(set(categories) - known)
        if unknown:
            raise InvalidArgument(
                f"unknown eval categories {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        loaded = [fixture for fixture in loaded if fixture.category in categories]
    return loaded


def _check_unique_ids(fixtures: Iterable[EvalCategory]) -> None:
    seen: set[str] = set()
    for fixture in fixtures:
        for case in fixture.cases:
            if case.id in seen:
                raise InvalidArgument(f"eval case id {case.id!r} appears twice")
            seen.add(case.id)


def run_evals(
    path: Path | None = None, *, categories: Sequence[str] | None = None, limit: int = 10
) -> EvalReport:
    """Run the eval fixtures under `path` (default :data:`DEFAULT_PATH`) and score them."""
    if limit < 1:
        raise InvalidArgument(f"limit={limit}: must be at least 1")
    results: list[CaseResult] = []
    rows: list[CategoryScore] = []
    fixtures = load_fixtures(path, categories)
    with progress.task("eval cases", sum(len(fixture.cases) for fixture in fixtures)):
        for fixture in fixtures:
            category_results = _run_category(fixture, limit)
            results.extend(category_results)
            rows.append(summarize(fixture.category, category_results))
    leaks = [leak for result in results for leak in result.leaks]
    failures = [
        Failure(case_id=result.id, message=result.error)
        for result in results
        if result.error is not None
    ]
    return EvalReport(
        limit=limit,
        categories=rows,
        overall=summarize("overall", results),
        leaks=leaks,
        failures=failures,
        misordered=[result.id for result in results if result.misordered],
        cases=results,
    )


def _run_category(fixture: EvalCategory, limit: int) -> list[CaseResult]:
    with tempfile.TemporaryDirectory(prefix="memrepo-eval-", ignore_cleanup_errors=True) as tmp:
        try:
            repo = _build(fixture.setup, Path(tmp) / "memory")
        except Exception as exc:  # a broken setup fails its cases; the run goes on
            message = f"setup of {fixture.category} failed: {_describe(exc)}"
            progress.advance(len(fixture.cases))
            return [_failed(case, fixture.category, message) for case in fixture.cases]
        with repo:
            return [_run_case(repo, case, fixture.category, limit) for case in fixture.cases]


def _run_case(repo: MemoryRepo, case: EvalCase, category: str, limit: int) -> CaseResult:
    progress.advance()  # case n of the run (a rebuild inside its recall is its own task)
    options = case.options
    try:
        result = repo.recall(
            case.query,
            limit=limit,
            workspace=options.workspace,
            include_private=options.include_private,
            contact_ref=options.contact_ref,
            task_id=options.task_id,
            min_trust=options.min_trust,
            lanes=options.lanes,
        )
    except Exception as exc:  # reported as a failed case, never hidden
        return _failed(case, category, _describe(exc))
    scored = score_case(case, result.hits, category=category, limit=limit)
    if result.lane_errors:
        lanes = "; ".join(f"{lane}: {error}" for lane, error in sorted(result.lane_errors.items()))
        return scored.model_copy(update={"error": f"lane failed: {lanes}"})
    return scored


def _failed(case: EvalCase, category: str, message: str) -> CaseResult:
    expected = bool(case.expect)
    return CaseResult(
        id=case.id,
        category=category,
        query=_preview(case.query),
        ranks=[None] * len(case.expect),
        recall_at_1=0.0 if expected else None,
        recall_at_5=0.0 if expected else None,
        recall_at_10=0.0 if expected else None,
        reciprocal_rank=0.0 if expected else None,
        error=message,
    )


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


# --- scoring (pure) --------------------------------------------------------------------


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def score_case(
    case: EvalCase, hits: Sequence[RecallHit], *, category: str, limit: int = 10
) -> CaseResult:
    """Score one case's hits (best first); only the first `limit` hits count."""
    shown = list(hits)[:limit]
    texts = [_norm(hit.text) for hit in shown]
    ranks = [
        next((i for i, text in enumerate(texts, start=1) if _norm(want) in text), None)
        for want in case.expect
    ]
    leaks = [
        Leak(case_id=case.id, text=bad, rank=rank, ref=shown[rank - 1].ref)
        for bad in case.must_not
        for rank, text in enumerate(texts, start=1)
        if _norm(bad) in text
    ]
    found_ranks = [rank for rank in ranks if rank is not None]
    misordered = case.ordered and found_ranks != sorted(found_ranks)
    at: dict[int, float | None] = dict.fromkeys(CUTOFFS)
    reciprocal: float | None = None
    if case.expect:
        for k in CUTOFFS:
            found = sum(1 for rank in ranks if rank is not None and rank <= k)
            at[k] = found / len(case.expect)
        first = min((rank for rank in ranks if rank is not None), default=None)
        reciprocal = 1.0 / first if first is not None else 0.0
    imperfect = leaks or misordered or any(rank is None or rank > 1 for rank in ranks)
    return CaseResult(
        id=case.id,
        category=category,
        query=_preview(case.query),
        ranks=ranks,
        leaks=leaks,
        misordered=misordered,
        recall_at_1=at[1],
        recall_at_5=at[5],
        recall_at_10=at[10],
        reciprocal_rank=reciprocal,
        hits=[_preview(hit.text) for hit in shown] if imperfect else [],
    )


def _preview(text: str) -> str:
    return text if len(text) <= _HIT_PREVIEW else text[: _HIT_PREVIEW - 1] + "…"


def summarize(category: str, results: Sequence[CaseResult]) -> CategoryScore:
    """Average the metrics of `results` (cases without expectations are not averaged)."""
    scored = [result for result in results if result.recall_at_1 is not None]

    def mean(values: Iterable[float | None]) -> float | None:
        numbers = [value for value in values if value is not None]
        return round(sum(numbers) / len(numbers), 4) if numbers else None

    return CategoryScore(
        category=category,
        cases=len(results),
        scored=len(scored),
        recall_at_1=mean(result.recall_at_1 for result in scored),
        recall_at_5=mean(result.recall_at_5 for result in scored),
        recall_at_10=mean(result.recall_at_10 for result in scored),
        mrr=mean(result.reciprocal_rank for result in scored),
        leaks=sum(len(result.leaks) for result in results),
        failures=sum(1 for result in results if result.error is not None),
        misordered=sum(1 for result in results if result.misordered),
    )


# --- building a category's repo --------------------------------------------------------


def _build(setup: EvalSetup, root: Path) -> MemoryRepo:
    """Build the memory of one category at `root` in the order EvalSetup documents; team
    repos are published beside it, under `root`'s parent."""
    root.mkdir(parents=True)
    _git(root, "init", "--quiet", "--initial-branch=main")
    if setup.files:
        _write_files(root, setup.files)
        _commit_all(root, "Notes written by hand")
    repo = MemoryRepo.init(root, identity=_IDENTITY, clock=EVAL_CLOCK)
    try:
        for step in setup.settings:
            repo.set_workspace(step.workspace, memory=step.memory, privacy=step.privacy)
        teams = root.parent / "teams"
        for name, team in setup.teams.items():
            _add_team(repo, name, _publish_team(teams / name, team.files))
        for task in setup.tasks:
            repo.add_task(task.id, task.title, parent=task.parent)
        for remember in setup.remember:
            repo.remember(**remember.model_dump(exclude_none=True))
        _write_swarm_notes(repo, setup.swarm_notes)
        _update_teams(repo, teams, setup.teams)
        if setup.committed_after:
            _write_files(root, setup.committed_after)
            _commit_all(root, "More notes written by hand")
        _write_files(root, setup.uncommitted)
    except BaseException:
        repo.close()
        raise
    return repo


def _publish_team(work: Path, files: Mapping[str, FileText]) -> Path:
    """What a teammate does: commit the team's files and push main to a bare repo (the
    URL this memory adds). Returns the bare repo's path."""
    bare = work.with_name(work.name + ".git")
    work.mkdir(parents=True)
    _git(work.parent, "init", "--quiet", "--bare", "--initial-branch=main", str(bare))
    _git(work, "init", "--quiet", "--initial-branch=main")
    _write_files(work, files)
    _commit_all(work, "Team notes")
    _git(work, "push", "--quiet", str(bare), "main")
    return bare


def _add_team(repo: MemoryRepo, name: str, url: Path) -> None:
    info = repo.team_add(name, str(url))
    if info.last_error is not None or info.commit is None:
        # team_add keeps an unreachable team (sync retries it); an eval must not.
        raise RuntimeError(f"team {name!r} could not be fetched: {info.last_error}")


def _update_teams(repo: MemoryRepo, teams: Path, setup: Mapping[str, TeamRepo]) -> None:
    """Push every team's `later` files, then fetch them all with one sync."""
    changed = [name for name, team in setup.items() if team.later]
    if not changed:
        return
    for name in changed:
        work = teams / name
        _write_files(work, setup[name].later)
        _commit_all(work, "Team notes, later")
        _git(work, "push", "--quiet", str(work.with_name(name + ".git")), "main")
    report = repo.sync()
    errors = [f"{team.name}: {team.error}" for team in report.teams if team.error]
    if errors:
        raise RuntimeError(f"team sync failed: {'; '.join(errors)}")


def _write_swarm_notes(repo: MemoryRepo, notes: Sequence[SwarmNoteStep]) -> None:
    """Write the notes in order; an answer's `answers` names an earlier question's text."""
    questions: dict[str, str] = {}
    for note in notes:
        answers = None
        if note.answers is not None:
            answers = questions.get(note.answers)
            if answers is None:
                raise InvalidArgument(
                    f"swarm note {note.text!r} answers {note.answers!r}, which is not the "
                    "text of an earlier question note of this setup"
                )
        result = repo.swarm_note(
            note.task_id, note.kind, note.text, sources=note.sources, author=note.author,
            tainted=note.tainted, answers=answers,
        )  # fmt: skip
        if note.kind == "question" and result.ref is not None:
            questions[note.text] = result.ref


def _write_files(root: Path, files: Mapping[str, FileText]) -> None:
    for relative, content in files.items():
        target = (root / relative).resolve()
        if not target.is_relative_to(root.resolve()) or ".git" in Path(relative).parts:
            raise InvalidArgument(f"{relative}: an eval fixture file must stay inside the repo")
        target.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else "\n".join(content) + "\n"
        target.write_bytes(text.encode("utf-8"))


def _commit_all(root: Path, message: str) -> None:
    _git(root, "add", "--all")
    _git(root, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message)


def _git(root: Path, *args: str) -> None:
    """Run the real git command, isolated from the machine's config, with fixed dates."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") or key == "GIT_EXEC_PATH"
    }
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="A Person",
        GIT_AUTHOR_EMAIL="person@example.com",
        GIT_COMMITTER_NAME="A Person",
        GIT_COMMITTER_EMAIL="person@example.com",
        GIT_AUTHOR_DATE=_GIT_DATE,
        GIT_COMMITTER_DATE=_GIT_DATE,
    )
    completed = subprocess.run(
        ["git", "-C", str(root), *args], env=env, capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        # Only a setup step runs git; _run_category reports this as the category's failure.
        raise RuntimeError(f"git {' '.join(args)} failed: {completed.stderr.strip()}")
