"""Local settings of one memory root, kept untracked in `.git/memrepo/config.json`.

Local because they describe this machine's copy (credentials never live here), and JSON
because people open it in an editor when something needs a nudge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memrepo.diskio import read_state, write_state
from memrepo.errors import MemrepoError
from memrepo.models.items import PrivacyMode
from memrepo.models.settings import (
    ContextBudgets,
    RemoteSettings,
    SecretRuleSetting,
    TeamSettings,
)

#: Reference §8.7's modes: `curated_only` (none held), `background_only`, `all`.
ApprovalMode = Literal["none", "background", "all"]

CONFIG_NAME = "config.json"


class WorkspaceSettings(BaseModel):
    """Memory settings of one workspace (reference §3, policy).

    Memory off (`enabled = false` or privacy `disabled`) blocks what the agent would learn
    on its own but still records what the user explicitly states; `strict` keeps every
    fact of the workspace private, in memory_items, out of the shared folder.
    """

    model_config = ConfigDict(extra="allow")

    enabled: bool = True
    privacy: PrivacyMode = "normal"
    #: What an agent writes that waits for a person's approval (reference §8.7):
    #: nothing, its own inferences (`background`), or everything it writes (`all`).
    approval: ApprovalMode = "none"

    @property
    def memory_on(self) -> bool:
        return self.enabled and self.privacy != "disabled"


class MeaningSettings(BaseModel):
    """The meaning lane of this memory root (issue #29, docs/architecture.md §6): off
    until a person switches it on (`memrepo meaning on`), and the model it was switched
    on with, so its vectors are never compared with another model's."""

    model_config = ConfigDict(extra="allow")

    enabled: bool = False
    model: str | None = None


class LocalConfig(BaseModel):
    """Settings read on open; unknown keys are kept so newer versions can add some."""

    model_config = ConfigDict(extra="allow")

    auto_commit_user_edits: bool = True
    lock_timeout_seconds: float = 30.0
    store_busy_timeout_seconds: float = 5.0
    workspaces: dict[str, WorkspaceSettings] = Field(default_factory=dict)
    #: Token budgets of the prompt blocks (docs/architecture.md §7: L0 600, L1 400 / compact 250).
    context: ContextBudgets = Field(default_factory=ContextBudgets)
    #: The user's own remote for `sync` (URL, confirmation, ssh key path; no credential).
    remote: RemoteSettings | None = None
    #: Read-only team memory repos (name and URL), at most three.
    teams: list[TeamSettings] = Field(default_factory=list)
    #: A person's own secret rules, added to the built-in detector (README, "What memrepo
    #: guarantees"; memrepo/hygiene/custom.py).
    secret_rules: list[SecretRuleSetting] = Field(default_factory=list)
    #: The meaning lane: recall by what a question means (issue #29).
    meaning: MeaningSettings = Field(default_factory=MeaningSettings)

    def workspace(self, key: str | None) -> WorkspaceSettings:
        """The settings of a workspace (by slug); defaults when never set or no workspace."""
        if not key:
            return WorkspaceSettings()
        return self.workspaces.get(key, WorkspaceSettings())


def load_config(state_dir: Path) -> LocalConfig:
    """Read the config, or the defaults when there is none yet."""
    path = state_dir / CONFIG_NAME
    try:
        return read_state(path, LocalConfig) or LocalConfig()
    except ValueError as exc:
        raise MemrepoError(f"{path}: invalid config ({exc}); fix or delete the file") from exc


def save_config(state_dir: Path, config: LocalConfig) -> None:
    """Write atomically so a crash never leaves half a config."""
    write_state(state_dir / CONFIG_NAME, config)
