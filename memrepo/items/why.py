"""`why`: where an item came from, in one plain sentence a person can read."""

from __future__ import annotations

from memrepo.models.items import ItemDetail

_SAID_BY = {
    "user_stated": "Stated by the user",
    "user_confirmed": "Confirmed by the user",
    "curated": "Curated by hand",
    "import": "Imported",
    "system": "Recorded by the system",
    "inferred": "Inferred by the agent",
    "third_party": "Said by someone other than the user",
}
_QUOTE_CHARS = 60


def explain(detail: ItemDetail) -> str:
    """E.g. "Stated by the user on 2026-11-30; reinforced 2 times; private; from task:T1."."""
    item = detail.item
    parts = [f"{_SAID_BY[item.source]} on {item.created_at.date().isoformat()}"]
    if item.reinforced_count:
        times = "once" if item.reinforced_count == 1 else f"{item.reinforced_count} times"
        parts.append(f"reinforced {times}")
    if detail.chain:
        older = detail.chain[0]
        what = _quote(older.content) if older.status != "deleted" else "since deleted"
        parts.append(f"supersedes an earlier value ({what})")
    if item.status != "active":
        parts.append(f"now {item.status}")
    if item.pinned:
        parts.append("pinned")
    if item.privacy == "private":
        parts.append("private")
    if item.tainted:
        parts.append("tainted: written after the task read untrusted content")
    if item.scope == "contact":
        parts.append(f"about contact {item.scope_ref}")
    if item.task_id:
        parts.append(f"learned in task {item.task_id}")
    if item.expires_at is not None:
        parts.append(f"expires on {item.expires_at.date().isoformat()}")
    if item.source_ref is not None:
        ref = f"from {item.source_ref.store}:{item.source_ref.id}"
        merged = len(item.source_ref.aliases)
        if merged:
            ref += f" (and {merged} merged record{'s' if merged > 1 else ''})"
        parts.append(ref)
    return "; ".join(parts) + "."


def _quote(text: str) -> str:
    if len(text) > _QUOTE_CHARS:
        text = text[: _QUOTE_CHARS - 1].rstrip() + "…"
    return f"“{text}”"
