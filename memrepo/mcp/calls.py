"""The task a tool call belongs to, when the host names it in the call.

A host that runs several tasks (or sub-agents) over one MCP connection cannot restart the
server per task with `--task`. It names the call's task in the request's `_meta`, which
the host writes and the model never sees or sets:

    {"memrepo/task": "read-logs", "memrepo/parent": "fix-ci", "memrepo/title": "Read the logs"}

A host relaying someone else's message (a group chat, an email) names its author too,
`"memrepo/sender": "slack:U0123"`: the call then runs under the channel rule
(`ToolContext.sender`: it remembers a fact about the sender, it changes nothing else).

`memrepo/task` replaces the server's task for that call (what writes record as
`Memrepo-Task`, whose own inferences forget and edit may change unasked, and which swarm
`swarm_note` writes to); `memrepo/parent` and `memrepo/title` go with it, as `--parent`
and `--title` do. A call without them runs as the server's task. Bad values are the
host's mistake, said in one line (`ToolInputError`), and nothing runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from memrepo.errors import ToolInputError
from memrepo.tools import ToolContext

TASK_KEY = "memrepo/task"
PARENT_KEY = "memrepo/parent"
TITLE_KEY = "memrepo/title"
SENDER_KEY = "memrepo/sender"
MAX_ID_CHARS = 200
MAX_TITLE_CHARS = 300
_PRINTABLE = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")


def call_context(tool: str, base: ToolContext, meta: Mapping[str, object] | None) -> ToolContext:
    """`base`, or `base` for the task `meta` names; ToolInputError when `meta` names one
    badly (a parent or title without a task, a value that is not a short line of text).
    `memrepo/sender` names who wrote the message the call handles when it is not the
    memory's owner (`ToolContext.sender`)."""
    if not meta:
        return base
    sender = _text(tool, meta, SENDER_KEY, MAX_ID_CHARS)
    if sender is not None:
        base = replace(base, sender=sender)
    task = _text(tool, meta, TASK_KEY, MAX_ID_CHARS)
    parent = _text(tool, meta, PARENT_KEY, MAX_ID_CHARS)
    title = _text(tool, meta, TITLE_KEY, MAX_TITLE_CHARS)
    if task is None:
        if parent is not None or title is not None:
            raise ToolInputError(tool, [f"_meta: {PARENT_KEY} and {TITLE_KEY} need {TASK_KEY}"])
        return base
    return replace(
        base, task_id=task, task_parent=parent, task_title=title or f"MCP session {task}"
    )


def _text(tool: str, meta: Mapping[str, object], key: str, limit: int) -> str | None:
    value = meta.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not _PRINTABLE.fullmatch(value.strip() or "\x00"):
        raise ToolInputError(tool, [f"_meta.{key}: must be a non-empty line of text"])
    if len(value) > limit:
        raise ToolInputError(tool, [f"_meta.{key}: at most {limit} characters"])
    return value.strip()
