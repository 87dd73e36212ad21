"""Models of prompt context: what a turn asks for, what the gate allowed, what was built.

`ContextRequest` is what a host knows about the turn; `InjectionInputs` and
`InjectionDecision` are the two sides of the one gate (`memrepo.recall.gate`);
`ContextBlocks` is exactly what goes into the prompt (the rendered `text`) plus the lines,
refs and token counts behind it, so a person can check what their agent saw.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from memrepo.layout import TEAM_REF_PREFIX
from memrepo.models._base import Frozen
from memrepo.models.items import PrivacyMode
from memrepo.models.recall import due_label
from memrepo.models.settings import ContextBudgets as ContextBudgets

Surface = Literal["plan_step", "chat", "follow_up"]
Gateway = Literal["private", "group", "public"]
#: The layers the gate decides on, in the order they are reported.
GateLayer = Literal[
    "folder_l0",
    "items_l0",
    "recall_l1",
    "private_items",
    "workspace_private",
    "contact_items",
    "task_items",
    "team",
    "swarm",
]
GATE_LAYERS: tuple[GateLayer, ...] = get_args(GateLayer)
Tag = Literal["inferred", "imported", "tainted"]
BlockName = Literal["l0", "l1", "swarm"]


class InjectionInputs(Frozen):
    """Everything the gate looks at (reference §4a, `resolveMemoryInjection`).

    `retain_memory` is the user's global switch; `gateway` is where the reply goes (the
    user's own private chat, a group channel, a public surface); `want_private` says the
    reader asked for private items; `task_text` and `current_message` are scanned for
    `<no-memory>`; `has_swarm` says the task belongs to a swarm.
    """

    retain_memory: bool = True
    is_subagent: bool = False
    gateway: Gateway = "private"
    allow_shared_context_memory: bool = False
    workspace_enabled: bool = True
    workspace_privacy: PrivacyMode = "normal"
    want_private: bool = False
    task_text: str = ""
    current_message: str = ""
    has_swarm: bool = False
    #: Whether the turn names a contact / a task; None when the caller does not say
    #: (the layer is then open and shows only what recall's visibility lets through).
    has_contact: bool | None = None
    has_task: bool | None = None


class InjectionDecision(Frozen):
    """Which prompt layers may carry memory this turn, each with the reason why (or not).

    `private_items`: every private item the reader may see (asked for, own chat);
    `workspace_private`: only the active workspace's own private items (a strict-privacy
    workspace, own chat); `contact_items`: the items (also private and third-party) of
    the contact the turn handles; `task_items`: the active task's items.
    """

    folder_l0: bool
    items_l0: bool
    recall_l1: bool
    private_items: bool
    team: bool
    swarm: bool
    reasons: dict[GateLayer, str]
    workspace_private: bool = False
    contact_items: bool = False
    task_items: bool = False

    def allows(self, layer: GateLayer) -> bool:
        allowed: bool = getattr(self, layer)
        return allowed

    @property
    def anything(self) -> bool:
        """True when at least one layer may carry memory."""
        return any(self.allows(layer) for layer in GATE_LAYERS)


class ContextRequest(Frozen):
    """One turn's request for memory context.

    `query` is the undecorated user prompt (what recall searches, and the current
    message the gate scans for `<no-memory>`). The host's situation (sub-agent, gateway,
    shared-context permission, the user's memory switch, the task text) feeds the gate;
    a host that already resolved the gate passes `decision` instead. `turn` groups the
    builds of one turn for the `memory_used` event; `preview` (what `memrepo context`
    shows a person) reports no use and marks nothing used.
    """

    query: str = ""
    surface: Surface = "chat"
    workspace: str | None = None
    task_id: str | None = None
    contact_ref: str | None = None
    swarm: str | None = None
    include_private: bool = False
    is_subagent: bool = False
    gateway: Gateway = "private"
    allow_shared_context_memory: bool = False
    retain_memory: bool = True
    task_text: str = ""
    turn: str | None = None
    preview: bool = False
    decision: InjectionDecision | None = None
    #: The agent building this prompt, by its host's name for itself ("claude-code"):
    #: the usage log records it ("last used 2 h ago by claude-code" in the Hub).
    agent: str | None = None


class ContextLine(Frozen):
    """One line as injected: sanitized text, its tags and where it came from.

    `ref` is empty for lines that are not facts (Index links, a swarm's goal); `trust`
    is the source of the statement (user_stated ... third_party); `added` sorts newest
    first (an ISO date or datetime, "" when unknown).
    """

    ref: str
    text: str
    tags: tuple[Tag, ...] = ()
    origin: str
    trust: str
    pinned: bool = False
    added: str = ""
    subject: str = ""
    section: Literal["fact", "index"] = "fact"
    #: A commitment's due day (YYYY-MM-DD), shown with the line.
    due: str = ""
    tokens: int

    @property
    def rendered(self) -> str:
        """The line exactly as it stands in the block. A team repo's line says which
        team it is from, so a team's rule never reads as the user's own (issue #31)."""
        suffix = "".join(f" ({tag})" for tag in self.tags)
        if self.origin.startswith(TEAM_REF_PREFIX) and self.section == "fact":
            suffix += f" (team {self.origin.removeprefix(TEAM_REF_PREFIX)})"
        if self.due:
            suffix += f" (due {due_label(self.due)})"
        return f"- {self.text}{suffix}"


class ContextBlock(Frozen):
    """One tagged block of the prompt: its lines, refs, size and rendered text.

    `used` is what the lines cost against `budget`; `dropped` counts lines the budget
    left out; `tokens` is the estimate of the whole `text`, frame included.
    """

    name: BlockName
    lines: tuple[ContextLine, ...]
    refs: tuple[str, ...]
    budget: int
    used: int
    dropped: int = 0
    tokens: int
    text: str


class ContextBlocks(Frozen):
    """Everything memory adds to one turn's prompt; `text` is exactly what is injected."""

    surface: Surface
    query: str
    decision: InjectionDecision
    blocks: tuple[ContextBlock, ...] = ()
    refs: tuple[str, ...] = ()
    tokens: int = 0
    text: str = ""
    l0_cached: bool = False
    errors: dict[str, str] = Field(default_factory=dict)

    def block(self, name: BlockName) -> ContextBlock | None:
        """The block called `name`, or None when it is empty or not allowed."""
        return next((b for b in self.blocks if b.name == name), None)


class MemoryUsed(Frozen):
    """What a `memory_used` listener hears: the refs a surface injected in one turn."""

    surface: Surface
    refs: tuple[str, ...]
    task_id: str | None = None
    turn: str | None = None
    agent: str | None = None
