"""The MCP resources: memory files a host may show or attach, and the prompt context.

- `memrepo://MEMORY.md`: the entry point;
- `memrepo://workspace/<slug>`: the session's workspace file (empty until its first write);
- `memrepo://file/{path}`: any memory file this session may see (the template);
- `memrepo://context/{surface}`: the context block memory adds to a prompt on that
  surface (`plan_step`, `chat`, `follow_up`), as `MemoryRepo.context` builds it for the
  session's workspace and task with no query (the standing layers: L0 and the swarm).

A file the session may not see (another workspace's, the swarm folders, anything outside
the memory folder) reads as "no such resource", like one that does not exist: the rule
is `memrepo.tools.files.visible_path`, the same as the tools'.
"""

from __future__ import annotations

from typing import get_args
from urllib.parse import unquote

import mcp.types as types

from memrepo.errors import EntryNotFound, MemrepoError
from memrepo.folder.paths import normalize_target
from memrepo.layout import ENTRY_POINT, workspace_file, workspace_slug
from memrepo.models.prompt_context import ContextRequest, Surface
from memrepo.tools import MemoryTools
from memrepo.tools.files import visible_path
from memrepo.tools.tool import ToolEnv

MEMORY_URI = "memrepo://MEMORY.md"
WORKSPACE_URI = "memrepo://workspace/"
FILE_URI = "memrepo://file/"
CONTEXT_URI = "memrepo://context/"
MARKDOWN = "text/markdown"
SURFACES: tuple[str, ...] = get_args(Surface)


def _workspace_slug(tools: MemoryTools) -> str | None:
    return workspace_slug(tools.context.workspace)


def resources(tools: MemoryTools) -> list[types.Resource]:
    """MEMORY.md, the session's workspace file and the chat context block."""
    found = [
        types.Resource(
            uri=MEMORY_URI,
            name=ENTRY_POINT,
            description="The memory entry point: entries every session needs, then the Index.",
            mime_type=MARKDOWN,
        )
    ]
    slug = _workspace_slug(tools)
    if slug is not None:
        found.append(
            types.Resource(
                uri=f"{WORKSPACE_URI}{slug}",
                name=workspace_file(slug),
                description="What is remembered for this workspace (empty until the first write).",
                mime_type=MARKDOWN,
            )
        )
    found.append(
        types.Resource(
            uri=f"{CONTEXT_URI}chat",
            name="memory context (chat)",
            description="The standing memory block a chat prompt gets (what to prepend).",
            mime_type="text/plain",
        )
    )
    return found


def resource_templates() -> list[types.ResourceTemplate]:
    """Any visible memory file, and the context block of any surface."""
    return [
        types.ResourceTemplate(
            uri_template=f"{FILE_URI}{{path}}",
            name="memory file",
            description="A memory file by its path in the folder, e.g. topics/deploys.md.",
            mime_type=MARKDOWN,
        ),
        types.ResourceTemplate(
            uri_template=f"{CONTEXT_URI}{{surface}}",
            name="memory context",
            description=f"The standing memory block of a surface: {', '.join(SURFACES)}.",
            mime_type="text/plain",
        ),
    ]


def read_resource(tools: MemoryTools, uri: str) -> types.ReadResourceResult:
    """The text behind `uri`; EntryNotFound for anything this session may not see."""
    if uri.startswith(CONTEXT_URI):
        text, mime = _context(tools, unquote(uri.removeprefix(CONTEXT_URI))), "text/plain"
    else:
        text, mime = _file(tools, uri), MARKDOWN
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
    )


def _file(tools: MemoryTools, uri: str) -> str:
    slug = _workspace_slug(tools)
    if uri == MEMORY_URI:
        path = ENTRY_POINT
    elif slug is not None and uri == f"{WORKSPACE_URI}{slug}":
        path = workspace_file(slug)
    elif uri.startswith(FILE_URI):
        path = _visible(tools, unquote(uri.removeprefix(FILE_URI)))
    else:
        raise EntryNotFound(uri, "no such resource; see resources/list for this session")
    try:
        return tools.repo.read_text(path)
    except EntryNotFound:
        if slug is not None and path == workspace_file(slug):
            return ""  # nothing remembered for this workspace yet
        raise EntryNotFound(uri, "no such resource; see resources/list for this session") from None


def _visible(tools: MemoryTools, path: str) -> str:
    env = ToolEnv(tools.repo, tools.context, tools.approval)
    try:
        relative = normalize_target(tools.repo.root, path)
    except MemrepoError:
        relative = None
    if relative is None or not visible_path(env, relative):
        raise EntryNotFound(path, "no such resource; see resources/list for this session")
    return relative


def _context(tools: MemoryTools, surface: str) -> str:
    if surface not in SURFACES:
        raise EntryNotFound(surface, f"no such surface; use one of {', '.join(SURFACES)}")
    ctx = tools.context
    request = ContextRequest(
        surface=surface,  # type: ignore[arg-type]
        workspace=ctx.workspace,
        task_id=ctx.task_id,
        include_private=ctx.sees_private,
        is_subagent=ctx.role != "agent",
        agent=ctx.agent,
    )
    return tools.repo.context(request).text
