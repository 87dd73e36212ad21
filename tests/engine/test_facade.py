"""MemoryRepo is composed of its areas (docs/architecture.md §1): every public verb is an
area method, the extensions plug in and out the same way, and `remember` takes a request."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo import InvalidArgument, MemoryRepo
from memrepo.engine.core import Area, RepoParts
from memrepo.engine.verb import verb
from memrepo.index import PlainQuery
from memrepo.models.prompt_context import ContextRequest, InjectionDecision
from memrepo.models.swarm import TaskInfo
from memrepo.models.writes import RememberOptions, RememberRequest
from memrepo.recall.context_lines import ExtraLayer, SourceLine
from memrepo.recall.lanes import LaneHit
from memrepo.recall.visibility import Visibility


def _verbs() -> dict[str, verb[..., object]]:
    return {name: v for name, v in vars(MemoryRepo).items() if isinstance(v, verb)}


def test_every_public_verb_is_the_bound_method_of_one_area(memory_repo: MemoryRepo) -> None:
    verbs = _verbs()
    assert len(verbs) >= 60
    for name, declared in verbs.items():
        bound = getattr(memory_repo, name)
        assert isinstance(bound.__self__, Area), name
        assert bound.__self__.parts is memory_repo._parts, name
        assert bound.__func__ is declared.method, name
        assert declared.__doc__ and bound.__doc__ == declared.__doc__, name
        # help() and inspect see the area's own signature, without `self`.
        assert "self" not in inspect.signature(bound).parameters, name


def test_the_areas_share_one_set_of_parts_and_hold_nothing_else(
    memory_repo: MemoryRepo,
) -> None:
    areas = [v for v in vars(memory_repo).values() if isinstance(v, Area)]
    assert len(areas) == len({type(a) for a in areas}) == 11
    for area in areas:
        assert vars(area) == {"parts": memory_repo._parts}
    assert isinstance(memory_repo._parts, RepoParts)


def test_the_parts_stay_behind_the_facade() -> None:
    """A host reaches the stores through verbs and `plug_*`, never the parts themselves:
    what the facade shows is its whole API (issue #33)."""
    public = {name for name in dir(MemoryRepo) if not name.startswith("_")}
    assert not public & {"parts", "items", "searcher", "swarms", "context_builder"}
    assert {"plug_lane", "plug_context_source", "plug_task_registry", "add_task"} <= public


class _HostLane:
    """A host's own store behind the `Lane` protocol (it applies visibility itself)."""

    name = "crm"
    weight = 1.0

    def __init__(self) -> None:
        self.asked: list[str] = []

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> Sequence[LaneHit]:
        self.asked.append(query.text)
        return [LaneHit(ref="crm:42", text="Ana takes the tram to work", rank=1)]


@pytest.mark.slow
def test_a_plugged_lane_is_searched_and_fused_until_it_is_unplugged(
    memory_repo: MemoryRepo,
) -> None:
    memory_repo.remember("The tram to the office leaves at 8:10")
    lane = _HostLane()
    unplug = memory_repo.plug_lane(lane)
    hits = memory_repo.recall("tram").hits
    assert {h.ref for h in hits} >= {"crm:42"} and any(h.lane == "folder" for h in hits)
    assert lane.asked == ["tram"]
    unplug()
    unplug()  # twice is harmless
    assert [h.lane for h in memory_repo.recall("tram").hits] == ["folder"]
    assert lane.asked == ["tram"]


class _Runbook:
    """A host's prompt layer: lines the gate lets into the agent's L0 block."""

    name = "runbook"
    layer: ExtraLayer = "team"

    def lines(self, request: ContextRequest, decision: InjectionDecision) -> list[SourceLine]:
        return [SourceLine(ref="runbook:1", text="Page the on-call before a rollback",
                           origin="runbook", trust="curated")]  # fmt: skip


@pytest.mark.slow
def test_a_plugged_context_source_adds_its_lines_until_it_is_unplugged(
    memory_repo: MemoryRepo,
) -> None:
    request = ContextRequest(query="rollback")
    unplug = memory_repo.plug_context_source(_Runbook())
    assert "Page the on-call before a rollback" in memory_repo.context(request).text
    unplug()
    assert "Page the on-call" not in memory_repo.context(request).text


class _HostTasks:
    def task(self, task_id: str) -> TaskInfo | None:
        return {"t-1": TaskInfo(id="t-1", title="Fix the flaky build")}.get(task_id)


def test_a_plugged_task_registry_is_followed_until_it_is_unplugged(
    memory_repo: MemoryRepo,
) -> None:
    memory_repo.add_task("local-1", "Local task")
    unplug = memory_repo.plug_task_registry(_HostTasks())
    assert memory_repo.resolve_swarm("t-1").root_id == "t-1"
    unplug()
    assert memory_repo.resolve_swarm("local-1").root_id == "local-1"
    with pytest.raises(Exception, match="t-1"):
        memory_repo.resolve_swarm("t-1")


def test_remember_takes_a_request_as_it_takes_keywords(tmp_path: Path) -> None:
    by_keywords = MemoryRepo.init(tmp_path / "a")
    by_request = MemoryRepo.init(tmp_path / "b")
    kwargs = {"workspace": "Web Shop", "subject": "pm", "by": "user", "kind": "preference"}
    one = by_keywords.remember("We use pnpm, not npm", **kwargs)  # type: ignore[arg-type]
    request = RememberRequest(text="We use pnpm, not npm", **kwargs)  # type: ignore[arg-type]
    two = by_request.remember(request)
    assert (one.status, one.ref, one.path) == (two.status, two.ref, two.path)
    assert by_keywords.read_text(one.path or "") == by_request.read_text(two.path or "")


def test_remember_refuses_a_request_and_keywords_at_once(memory_repo: MemoryRepo) -> None:
    with pytest.raises(InvalidArgument, match="not both"):
        memory_repo.remember(RememberRequest(text="Deploys happen on Tuesdays"), by="user")
    assert memory_repo.entries() == []
    with pytest.raises(TypeError, match="colour"):
        memory_repo.remember("Deploys happen on Tuesdays", colour="red")  # type: ignore[call-arg]


def test_the_keywords_of_remember_are_the_fields_of_its_request() -> None:
    """`RememberOptions` (the typed keywords) and `RememberRequest` are two spellings of
    one list: a field added to one and not the other would be a keyword mypy refuses or
    a field no keyword reaches."""
    fields = typing.get_type_hints(RememberRequest)
    del fields["text"]
    assert fields == typing.get_type_hints(RememberOptions)
    assert set(fields) == {f.name for f in dataclasses.fields(RememberRequest)} - {"text"}


def test_a_session_joins_its_task_once_and_never_into_a_hosts_registry(
    memory_repo: MemoryRepo,
) -> None:
    joined = memory_repo.join_task("s-1", "MCP session", parent=None)
    assert joined is not None and joined.id == "s-1"
    assert memory_repo.join_task("s-1", "Another title") is None  # known: kept as it was
    assert [t.title for t in memory_repo.local_tasks()] == ["MCP session"]
    unplug = memory_repo.plug_task_registry(_HostTasks())
    assert memory_repo.join_task("s-2", "Not ours to add") is None
    unplug()
    assert [t.id for t in memory_repo.local_tasks()] == ["s-1"]
