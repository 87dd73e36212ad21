"""Who sees what: every surface x every kind of memory, against reference §4a/§4b.

One repo holds one memory of each kind, each with its own marker word and the shared
word "zebra"; each surface builds the whole prompt context (L0 and L1) for a turn
asking about "zebra" in workspace `ws`, handling contact `mail:ana` and task `t-1`.
A kind is visible when its marker word is anywhere in the injected text.

The rules (reference §4a `resolveMemoryInjection` / `memoryItemAllowed`, §4b recall):
- private items only in the user's own private chat, never for a sub-agent; every
  private item only when asked for; a strict-privacy workspace's own items without
  asking, but never the user's other (global) private items;
- contact items (and that contact's third-party and private items: "unless the surface
  is handling that contact") only on the surface handling that contact, in the user's
  own chat, never for a sub-agent;
- task items only for the active task, never in a group or public reply;
- group and public contexts get nothing without shared-context memory, and with it only
  shared, normal memory;
- `retain_memory` off, `<no-memory>` and a disabled workspace: nothing;
- other contacts', tasks' and workspaces' items never.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextBlocks, ContextRequest

from .context_helpers import item

MARKERS: dict[str, dict[str, Any]] = {
    "globalnormal": {"source": "user_stated"},
    "globalprivate": {"source": "user_stated", "privacy": "private"},
    "workspacenormal": {"source": "user_stated", "scope": "workspace", "workspace_id": "ws"},
    "workspaceprivate": {
        "source": "user_stated",
        "scope": "workspace",
        "workspace_id": "ws",
        "privacy": "private",
    },
    "contactfact": {"source": "user_stated", "scope": "contact", "scope_ref": "mail:ana"},
    "taskfact": {"scope": "task", "scope_ref": "t-1"},
    "thirdparty": {"source": "third_party", "scope": "contact", "scope_ref": "mail:ana"},
    "othercontact": {"source": "user_stated", "scope": "contact", "scope_ref": "mail:bo"},
    "othertask": {"scope": "task", "scope_ref": "t-2"},
    "otherworkspace": {"source": "user_stated", "scope": "workspace", "workspace_id": "ws2"},
}
KINDS = ("folderentry", *MARKERS)

SHARED = {"folderentry", "globalnormal", "workspacenormal"}
OWN = SHARED | {"contactfact", "taskfact", "thirdparty"}
NOTHING: set[str] = set()

BASE: dict[str, Any] = {"workspace": "ws", "contact_ref": "mail:ana", "task_id": "t-1"}
# surface -> (request fields, workspace privacy mode, kinds visible)
SURFACES: dict[str, tuple[dict[str, Any], str, set[str]]] = {
    "private chat": ({}, "normal", OWN),
    "private chat, private asked": (
        {"include_private": True},
        "normal",
        OWN | {"globalprivate", "workspaceprivate"},
    ),
    "private chat, no contact or task": ({"contact_ref": None, "task_id": None}, "normal", SHARED),
    "private chat, strict workspace": ({}, "strict", OWN | {"workspaceprivate"}),
    "private chat, strict workspace, private asked": (
        {"include_private": True},
        "strict",
        OWN | {"globalprivate", "workspaceprivate"},
    ),
    "group": ({"gateway": "group"}, "normal", NOTHING),
    "group, private asked": ({"gateway": "group", "include_private": True}, "normal", NOTHING),
    "group, shared memory": (
        {"gateway": "group", "allow_shared_context_memory": True, "include_private": True},
        "normal",
        SHARED,
    ),
    "public": ({"gateway": "public"}, "normal", NOTHING),
    "public, shared memory": (
        {"gateway": "public", "allow_shared_context_memory": True},
        "normal",
        SHARED,
    ),
    "public, shared memory, strict workspace": (
        {"gateway": "public", "allow_shared_context_memory": True},
        "strict",
        SHARED,
    ),
    "sub-agent, private asked": (
        {"is_subagent": True, "include_private": True},
        "normal",
        SHARED | {"taskfact"},
    ),
    "sub-agent, strict workspace": ({"is_subagent": True}, "strict", SHARED | {"taskfact"}),
    "sub-agent, shared public memory": (
        {"is_subagent": True, "gateway": "public", "allow_shared_context_memory": True},
        "normal",
        SHARED,
    ),
    "retain_memory off": ({"retain_memory": False, "include_private": True}, "normal", NOTHING),
    "<no-memory> in the message": ({"query": "zebra <no-memory>"}, "normal", NOTHING),
    "<no-memory> in the task": ({"task_text": "triage <no-memory>"}, "normal", NOTHING),
    "workspace memory disabled": ({"include_private": True}, "disabled", NOTHING),
}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ContextBlocks]:
    """The context every surface gets, built once per surface from one repo."""
    repo = MemoryRepo.init(Path(tmp_path_factory.mktemp("table")) / "mem")
    repo.remember("zebra folderentry stands in the shared folder", by="user")
    for marker, fields in MARKERS.items():
        item(repo, f"zebra {marker} is remembered", **fields)
    built: dict[str, ContextBlocks] = {}
    for name, (fields, mode, _visible) in SURFACES.items():
        repo.set_workspace("ws", privacy=mode)
        request = {"query": "zebra", "surface": "plan_step", "preview": True, **BASE, **fields}
        built[name] = repo.context(ContextRequest(**request))
    repo.set_workspace("ws", privacy="normal")
    repo.close()
    return built


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.slow
def test_visibility(table: dict[str, ContextBlocks], surface: str, kind: str) -> None:
    visible = kind in SURFACES[surface][2]
    text = table[surface].text
    assert (kind in text) == visible, (
        f"{surface}: {kind} should be {'visible' if visible else 'hidden'}\n{text}"
    )


def test_every_expected_kind_is_a_kind() -> None:
    for _fields, _mode, visible in SURFACES.values():
        assert visible <= set(KINDS)
