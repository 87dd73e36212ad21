"""The memory_items verbs of `MemoryRepo`: read, explain, revise, pin, purge, workspace
settings, and the person's own secret rules."""

from __future__ import annotations

from datetime import date, datetime

from memrepo.config import WorkspaceSettings, save_config
from memrepo.engine.core import ITEM_PREFIX, Area, install_secret_rules, refuse_team_ref
from memrepo.engine.writes import _item_result, named_due_day
from memrepo.errors import EntryNotFound, InvalidArgument
from memrepo.layout import slugify, workspace_file
from memrepo.models.folder import ConfirmResult, WhyReport, WriteResult
from memrepo.models.items import (
    ItemDetail,
    ItemFilters,
    MemoryItem,
    PurgeReport,
    RetentionReport,
    candidate,
)
from memrepo.models.settings import SecretCheck, SecretRuleSetting


class ItemsApi(Area):
    """memory_items: the SQLite store of contact, task and private facts, and the
    settings that decide what reaches it."""

    def list_items(self, filters: ItemFilters | None = None) -> list[MemoryItem]:
        """Items matching `filters` (active, non-private ones by default)."""
        return self.items.store.list(filters)

    def item(self, ref: str) -> ItemDetail:
        """One item (`memory:<id>`, the bare id, or a unique prefix of at least
        six characters, like a git short id) with the revisions it replaced."""
        detail = self.items.store.get(self.item_id(ref))
        if detail is None:
            raise EntryNotFound(ref, "no such memory item")
        return detail

    def item_id(self, ref: str) -> str:
        """The full id `ref` names (see `ItemStore.full_id`)."""
        return self.items.store.full_id(ref)

    def why(self, ref: str) -> WhyReport:
        """Where a memory came from: for a folder entry the commits that added, changed
        and moved it (with their by/origin/task trailers), for an item its origin and the
        chain of values it superseded."""
        ref = self.whole_ref(ref)
        if not ref.startswith(ITEM_PREFIX):
            return self.folder.why(ref)
        item = self.item(ref).item
        return WhyReport(
            ref=item.ref,
            store="items",
            present=item.status == "active",
            text=item.content,
            explanation=self.items.why(item.id),
        )

    def confirm(self, ref: str, *, task_id: str | None = None) -> ConfirmResult:
        """A person confirms a memory the agent saved on its own (or an import or a dream
        wrote), so it may stand in every prompt (L0, reference §4a). A folder entry's
        line becomes `by: user` (taint dropped, `confirmed: <date>` added) in one
        undoable commit; an item becomes `user_confirmed` and untainted. Team entries
        are read-only (ReadOnlyRef)."""
        refuse_team_ref(ref)
        ref = self.whole_ref(ref)
        if not ref.startswith(ITEM_PREFIX):
            from memrepo.folder.confirm import confirm_entry

            return confirm_entry(self.folder, ref, task=task_id)
        detail = self.item(ref)
        changed = self.items.confirm(detail.item.id)
        return ConfirmResult(ref=ref, store="items", confirmed=changed, text=detail.item.content)

    def revise_item(self, ref: str, text: str) -> WriteResult:
        """A person's corrected text for an active item (reference §5a: a person's
        correction supersedes): a new `user_stated` revision with the same scope,
        workspace, contact, kind, subject and privacy, screened like any write (secrets
        redacted; empty or too-short text is skipped with its reason). The old value stays
        in the chain `why` and `item` show. The result's `ref` names the new revision."""
        old = self.item(ref).item
        fields: dict[str, object] = {
            "content": text,
            "kind": old.kind,
            "scope": old.scope,
            "workspace_id": old.workspace_id,
            "scope_ref": old.scope_ref,
            "subject_key": None if old.derived_subject else old.subject_key,
            "source": "user_stated",
            "source_ref": old.source_ref,
            "confidence": old.confidence,
            "pinned": old.pinned,
            "privacy": old.privacy,
            "task_id": old.task_id,
            "expires_at": old.expires_at,
        }
        return _item_result(self.items.revise(old.id, candidate(**fields)))

    def pin_item(self, ref: str, pinned: bool = True) -> ItemDetail:
        """A person pins an item into every prompt (L0, reference §4a) or unpins it. Only
        a person's face (the hub, the CLI) calls this: an agent's inference pinned would
        stand as if the user had said it. Returns the item as it now is."""
        item_id = self.item(ref).item.id
        self.items.set_pinned(item_id, pinned)
        return self.item(item_id)

    def set_item_due(self, ref: str, due: str | date | None) -> ItemDetail:
        """A person sets the item's due day (a day, "friday", "in 2 weeks") or clears it
        (None): the day recall and the prompt show and commitment expiry reads. A `fact`
        with a due day becomes a `commitment`, as `remember --due` makes one. Returns the
        item as it now is (the same revision: the text did not change)."""
        item_id = self.item(ref).item.id
        day = None if due is None else named_due_day(due, self.folder.clock.now().date())
        self.items.set_due(item_id, day)
        return self.item(item_id)

    def run_retention(self, now: datetime | None = None) -> RetentionReport:
        """Drop tombstones, expired items and old superseded revisions (reference §7)."""
        return self.items.run_retention(now)

    def purge_task(self, task_id: str, *, purge_derived: bool = False) -> PurgeReport:
        """Delete a task's items (and what it inferred, with `purge_derived`); a root
        task's swarm folder goes too, in one commit."""
        report = self.items.purge_task(task_id, purge_derived)
        self.parts.swarms.remove_root_folder(task_id)  # its swarm goes with its items
        return report

    def clear_global_items(self) -> PurgeReport:
        """Delete every global-scope item (the folder is untouched: undo covers it)."""
        return self.items.clear_global_items()

    def clear_workspace(self, workspace: str, *, by: str = "user") -> PurgeReport:
        """Delete a workspace's items and remove its folder file in one commit."""
        key = slugify(workspace)
        report = self.items.clear_workspace(key)
        self.folder.remove_file(workspace_file(key), by=by, reason=f"clear workspace {key}")
        return report

    def set_workspace(
        self,
        workspace: str,
        *,
        memory: bool | None = None,
        privacy: str | None = None,
        approval: str | None = None,
    ) -> WorkspaceSettings:
        """Turn a workspace's memory on or off, set its privacy mode and which of the
        agent's writes wait for a person's approval (`none`, `background`: its own
        inferences, `all`; reference §8.7), in the local config."""
        key = slugify(workspace)
        current = self.config.workspace(key)
        changes: dict[str, object] = {}
        if memory is not None:
            changes["enabled"] = memory
        if privacy is not None:
            changes["privacy"] = privacy
        if approval is not None:
            changes["approval"] = approval
        try:
            updated = WorkspaceSettings.model_validate({**current.model_dump(), **changes})
        except ValueError as exc:
            raise InvalidArgument(
                f"privacy={privacy!r} / approval={approval!r}: use normal, strict or disabled "
                "/ none, background or all"
            ) from exc
        self.config.workspaces[key] = updated
        save_config(self.folder.state_dir, self.config)
        return updated

    def secret_rules(self) -> list[SecretRuleSetting]:
        """The person's own secret rules, in the order they were added."""
        return list(self.config.secret_rules)

    def add_secret_rule(self, kind: str, pattern: str) -> SecretRuleSetting:
        """Redact matches of `pattern` as `[redacted <kind>]` from now on, on every path
        (local config; a rule of the same kind is replaced). The pattern must have a
        bounded width (`{16,64}`, not `+`)."""
        from memrepo.hygiene.custom import compile_custom_rule

        try:
            compile_custom_rule(kind, pattern)
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        rule = SecretRuleSetting(kind=kind, pattern=pattern)
        kept = [r for r in self.config.secret_rules if r.kind != kind]
        self.config.secret_rules = [*kept, rule]
        save_config(self.folder.state_dir, self.config)
        install_secret_rules(self.config)
        return rule

    def remove_secret_rule(self, kind: str) -> SecretRuleSetting:
        """Stop redacting by the person's rule `kind` (what it already redacted stays so)."""
        from memrepo.hygiene.custom import compile_custom_rule, uninstall_custom_rules

        found = [r for r in self.config.secret_rules if r.kind == kind]
        if not found:
            names = ", ".join(r.kind for r in self.config.secret_rules) or "none"
            raise InvalidArgument(f"no secret rule {kind!r} (rules: {names})")
        self.config.secret_rules = [r for r in self.config.secret_rules if r.kind != kind]
        save_config(self.folder.state_dir, self.config)
        uninstall_custom_rules(compile_custom_rule(r.kind, r.pattern) for r in found)
        return found[0]

    def check_secrets(self, text: str) -> SecretCheck:
        """What screening would store of `text`: secrets replaced by their markers, and
        the kinds found (the built-in rules and the person's own)."""
        from memrepo.hygiene import redact_secrets

        redacted, kinds = redact_secrets(text)
        return SecretCheck(text=redacted, redacted=list(kinds))
