"""Settings: each workspace's memory on/off, privacy mode and which of the agent's
writes wait for approval (issue #32), and the confirmed remote (`set_workspace`,
`set_remote(url, confirm_private=...)`, `remove_remote`); all of it is local config,
never pushed."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from memrepo.engine import MemoryRepo
from memrepo.hub.forms import BadForm
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, session_of
from memrepo.hub.rows import entry_row
from memrepo.models import ItemFilters, RemoteInfo, TeamInfo

PRIVACY = ("normal", "strict", "disabled")
#: Which of the agent's writes wait for a person (`WorkspaceSettings.approval`).
APPROVAL = ("none", "background", "all")
MAX_NAME = 100


@dataclass(frozen=True, slots=True)
class WorkspaceView:
    name: str
    memory_on: bool
    enabled: bool
    privacy: str
    approval: str


async def settings(request: Request) -> Response:
    hub = hub_of(request)
    private = session_of(request).show_private

    def read(repo: MemoryRepo) -> tuple[list[WorkspaceView], RemoteInfo | None, list[TeamInfo]]:
        names = set(repo.config.workspaces)
        names |= {row.workspace for row in map(entry_row, repo.entries()) if row.workspace}
        items = repo.list_items(ItemFilters(include_private=private))
        names |= {item.workspace_id for item in items if item.workspace_id}
        views = []
        for name in sorted(names):
            found = repo.config.workspace(name)
            views.append(
                WorkspaceView(name, found.memory_on, found.enabled, found.privacy, found.approval)
            )
        return views, repo.remote(), repo.team_list()

    workspaces, remote, teams = await hub.call(read)
    context = {
        "workspaces": workspaces,
        "remote": remote,
        "teams": teams,
        "privacy": PRIVACY,
        "approval": APPROVAL,
    }
    return hub.templates.page(request, "settings.html", context)


async def workspace(request: Request) -> Response:
    form = form_of(request)
    name = form.require("name")
    if len(name) > MAX_NAME:
        raise BadForm(f"a workspace name has at most {MAX_NAME} characters")
    memory = form.choice("memory", ("on", "off"))
    privacy = form.choice("privacy", PRIVACY)
    approval = form.choice("approval", APPROVAL)
    on = None if memory is None else memory == "on"
    saved = await hub_of(request).call(
        lambda repo: repo.set_workspace(name, memory=on, privacy=privacy, approval=approval)
    )
    state = "on" if saved.memory_on else "off"
    return done(
        request,
        f"Workspace {name}: memory {state}, privacy {saved.privacy}, "
        f"agent writes held: {saved.approval}.",
    )


async def remote(request: Request) -> Response:
    form = form_of(request)
    url = form.require("url")
    confirmed = form.flag("confirm_private")
    info = await hub_of(request).call(lambda repo: repo.set_remote(url, confirm_private=confirmed))
    return done(request, f"Sync remote set to {info.url} (confirmed private and yours).")


async def remove_remote(request: Request) -> Response:
    removed = await hub_of(request).call(lambda repo: repo.remove_remote())
    text = f"Stopped syncing with {removed.url}." if removed else "No remote was set."
    return done(request, text)


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/settings", settings, "GET"),
    ("/settings/workspace", workspace, "POST"),
    ("/settings/remote", remote, "POST"),
    ("/settings/remote/remove", remove_remote, "POST"),
]
