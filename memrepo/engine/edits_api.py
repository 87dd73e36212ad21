"""The entry verbs of `MemoryRepo`: edit one entry in place, move one to another file,
and hand an agent host the file-command memory tool (`memory_tool`).

Both change folder entries only, each in one undoable commit (`memrepo.folder.edits`).
The new text and values are screened like a `remember` (secrets redacted, invisible and
control characters dropped). What an agent writes can never pass for the person's word:
an agent's edit cannot set `by`, `confirmed` or drop `tainted`, and the line it changes
becomes `by: agent` (a person's rule an agent reworded is no longer a standing rule
until the person confirms it, reference §4a).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memrepo.engine.core import ITEM_PREFIX, Area, refuse_team_ref
from memrepo.engine.writes import named_due_day
from memrepo.errors import InvalidArgument
from memrepo.folder.edits import EntryEdit, edit_entry, move_entry
from memrepo.folder.paths import normalize_target
from memrepo.hygiene import collapse_whitespace, redact_secrets, screen
from memrepo.models.constants import BY_VALUES
from memrepo.models.folder import EditResult, MoveResult

if TYPE_CHECKING:
    from memrepo.memtool import MemoryCommands
    from memrepo.memtool.anthropic_sdk import AsyncGitMemoryTool, GitMemoryTool

#: Keys only a person sets: they decide whether a line stands as the person's word.
PERSON_KEYS = frozenset({"by", "confirmed", "tainted"})
#: Who may edit: anyone who may write (the `by` values).
EDITORS = BY_VALUES


class EditsApi(Area):
    """Edit and move folder entries (see the module docstring)."""

    def edit(
        self,
        ref: str,
        *,
        text: str | None = None,
        metadata: Mapping[str, str | None] | None = None,
        by: str = "user",
        task_id: str | None = None,
        tainted: bool = False,
    ) -> EditResult:
        """Reword the entry `ref` and/or change its metadata (a value of None removes
        the key), in one commit. A reworded entry without a `subject` gets a new id: the
        result's `ref` is the one to use from then on."""
        ref = self.whole_ref(ref)
        _refuse_other_stores(ref, "edit")
        if by not in EDITORS:
            raise InvalidArgument(f"by={by!r}: must be one of {', '.join(EDITORS)}")
        if text is None and not metadata:
            raise InvalidArgument("nothing to change: give a new text or metadata")
        redacted: tuple[str, ...] = ()
        if text is not None:
            screened = screen(text)
            if screened.text is None:
                raise InvalidArgument(f"the new text cannot be stored ({screened.skip_reason})")
            text, redacted = screened.text, screened.redacted
        changes = {key: _value(value) for key, value in (metadata or {}).items()}
        if changes.get("due"):  # "friday" is written as the day it names
            today = self.folder.clock.now().date()
            changes["due"] = named_due_day(str(changes["due"]), today).isoformat()
        if by != "user":
            named = PERSON_KEYS.intersection(changes)
            if named:
                raise InvalidArgument(
                    f"only a person may set {', '.join(sorted(named))}; "
                    "ask the user to confirm the memory instead"
                )
            changes["by"] = by
            if tainted:
                changes["tainted"] = "yes"
        result = edit_entry(
            self.folder,
            EntryEdit(ref=ref, text=text, metadata=changes, by=by, task=task_id),
        )
        return result.model_copy(update={"redacted": redacted})

    def move(
        self, ref: str, file: str, *, by: str = "user", task_id: str | None = None
    ) -> MoveResult:
        """Move the entry `ref` to `file` (created and linked from the Index when new),
        in one commit; its text and metadata do not change."""
        ref = self.whole_ref(ref)
        _refuse_other_stores(ref, "move")
        refuse_team_ref(file)
        if by not in EDITORS:
            raise InvalidArgument(f"by={by!r}: must be one of {', '.join(EDITORS)}")
        target = normalize_target(self.root, file)
        return move_entry(self.folder, ref, target, by=by, task=task_id)

    def memory_tool(
        self,
        folder: str = "memories",
        *,
        task_id: str | None = None,
        workspace: str | None = None,
        cache_control: Any = None,
    ) -> GitMemoryTool:
        """Claude's memory tool (`memory_20250818`) on `folder` of this repo: an
        Anthropic SDK `BetaAbstractMemoryTool` to hand the SDK's tool runner.
        `/memories` is `folder` ("" the whole repo); each command is one commit by the
        agent (the task `task_id`), its lines tainted; `workspace` decides which
        workspace files it may see. Needs the `claude` extra."""
        commands = self._memory_commands(folder, task_id, workspace)
        from memrepo.memtool.anthropic_sdk import GitMemoryTool

        return GitMemoryTool(commands, cache_control=cache_control)

    def async_memory_tool(
        self,
        folder: str = "memories",
        *,
        task_id: str | None = None,
        workspace: str | None = None,
        cache_control: Any = None,
    ) -> AsyncGitMemoryTool:
        """`memory_tool`'s async twin (`BetaAsyncAbstractMemoryTool`), for the SDK's
        async tool runner: each command runs on a worker thread."""
        commands = self._memory_commands(folder, task_id, workspace)
        from memrepo.memtool.anthropic_sdk import AsyncGitMemoryTool

        return AsyncGitMemoryTool(commands, cache_control=cache_control)

    def _memory_commands(
        self, folder: str, task_id: str | None, workspace: str | None
    ) -> MemoryCommands:
        """The commands on `folder`, once the SDK is known to be there."""
        from memrepo.errors import MemoryToolError
        from memrepo.memtool import MemoryCommands, Mount

        mount = Mount.of(self.root, folder, workspace)
        try:
            import anthropic.lib.tools  # noqa: F401 (the extra's one package)
        except ImportError as exc:
            raise MemoryToolError(
                f"the memory tool needs the Anthropic SDK ({exc.name} is not installed): "
                "install memrepo with its `claude` extra"
            ) from exc
        return MemoryCommands(self.folder, mount, task=task_id)


def _refuse_other_stores(ref: str, verb: str) -> None:
    """Team entries are read-only; memory items change by supersession, not in place."""
    refuse_team_ref(ref)
    if ref.startswith(ITEM_PREFIX):
        raise InvalidArgument(
            f"{ref}: {verb} works on folder entries; a memory item is changed by "
            "remembering its new version with the same subject, or forgotten"
        )


def _value(value: str | None) -> str | None:
    """A metadata value as it may be written: one line, no control characters, no
    secret (a value reaches the file and may reach a commit message)."""
    if value is None:
        return None
    return collapse_whitespace(redact_secrets(value)[0])
