"""The usage log: when each memory was last put in a prompt or quoted, and by which agent.

Recall ranks items on `last_used_at`; the Hub's list says "last used 2 h ago by
claude-code" of folder lines and items alike (issue #31), so the log is keyed by any
recall ref, not only `memory:<id>`. The agent is the host's own name for itself (an MCP
client's `clientInfo.name`, `ToolContext.agent`), which a host chooses freely: it is
kept as one short printable line with secrets redacted, like every value written.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from memrepo import hygiene
from memrepo.items._rows import from_ms, to_ms
from memrepo.items._tx import Tx
from memrepo.layout import item_ids
from memrepo.models.usage import MemoryUse

MAX_AGENT_CHARS = 64


def agent_label(name: str | None) -> str:
    """`name` as the log keeps it: one printable line of at most 64 characters, secrets
    redacted; '' when the host named no agent."""
    if not name:
        return ""
    line = "".join(c for c in hygiene.collapse_whitespace(name) if c.isprintable())
    return hygiene.redact_secrets(line)[0][:MAX_AGENT_CHARS].strip()


def mark_used(tx: Tx, refs: list[str], agent: str, now: datetime) -> None:
    """Record that these memories were injected or quoted by `agent`: an item's
    `last_used_at` and one usage row per ref and agent (the newest use wins)."""
    when = to_ms(now)
    tx.conn.executemany(
        "UPDATE memory_items SET last_used_at = ? WHERE id = ?",
        [(when, i) for i in item_ids(refs)],
    )
    tx.conn.executemany(
        "INSERT INTO memory_usage(ref, agent, used_at) VALUES (?, ?, ?) "
        "ON CONFLICT(ref, agent) DO UPDATE SET used_at = MAX(used_at, excluded.used_at)",
        [(ref, agent, when) for ref in dict.fromkeys(refs)],
    )


#: The newest use of each ref (SQLite gives a bare column the row of the MAX).
LAST_USES = "SELECT ref, agent, MAX(used_at) FROM memory_usage GROUP BY ref"
LAST_USE_OF = "SELECT ref, agent, MAX(used_at) FROM memory_usage WHERE ref = ? GROUP BY ref"


def uses_of(rows: Iterable[tuple[str, str, int]]) -> dict[str, MemoryUse]:
    """`LAST_USES` rows as MemoryUse by ref."""
    return {ref: MemoryUse(ref=ref, at=from_ms(ms), agent=agent) for ref, agent, ms in rows}
