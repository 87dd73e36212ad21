"""The settings models that the local config holds (context budgets, remote, teams).

They live apart from the result models of their areas so that reading the config, which
every command does, does not build every model of context and sync.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ContextBudgets(BaseModel):
    """Token budgets of the prompt blocks (docs/architecture.md §7), set in the local config.

    L1 is bigger for a plan step (the step works on it) than for the compact surfaces
    (chat, follow-up), where memory shares the system prompt with everything else.
    """

    model_config = ConfigDict(extra="allow")

    l0_tokens: int = Field(default=600, ge=0)
    l1_plan_step_tokens: int = Field(default=400, ge=0)
    l1_compact_tokens: int = Field(default=250, ge=0)
    swarm_tokens: int = Field(default=400, ge=0)
    #: How many hits L1 asks recall for (L0 overlap and the budget cut it further).
    l1_hits: int = Field(default=12, ge=1)


class RemoteSettings(BaseModel):
    """The user's own remote: set only after they confirmed it is private and theirs.

    `ssh_key` is a path to a private key file the user chose (the key stays where it is;
    memrepo stores the path, never a secret).
    """

    model_config = ConfigDict(extra="allow")

    url: str
    confirmed: bool = False
    ssh_key: str | None = None


class TeamSettings(BaseModel):
    """One read-only team memory repo: a name (used in refs) and where to fetch it."""

    model_config = ConfigDict(extra="allow")

    name: str
    url: str


class SecretRuleSetting(BaseModel):
    """A person's own secret rule (memrepo/hygiene/custom.py): matches of `pattern` are
    redacted as `[redacted <kind>]` on every path that screens text."""

    model_config = ConfigDict(extra="allow")

    kind: str
    pattern: str

    @model_validator(mode="after")
    def _compiles(self) -> SecretRuleSetting:
        from memrepo.hygiene.custom import compile_custom_rule

        compile_custom_rule(self.kind, self.pattern)  # ValueError says what to change
        return self


class SecretCheck(BaseModel):
    """What the secret detector does to a text: the text as it would be stored, and the
    kinds of secret it replaced (built-in and the person's own rules)."""

    text: str
    redacted: list[str]
