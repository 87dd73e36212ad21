"""Who may use the hub: one-time login tokens, the sessions they open, their CSRF tokens.

`memrepo hub` prints a URL with a random token (like Jupyter's). Opening it once opens a
session: the browser gets a cookie, the address bar loses the token (a redirect), and
the token is spent, so a URL left in a terminal's scroll-back or a shell history opens
nothing later. Every session has its own CSRF token, which every form posts back.

The cookie lasts (`SESSION_MAX_AGE`), not only until the browser closes: a person who
bookmarked a page of the hub comes back to it signed in while the same `memrepo hub`
runs. Sessions live in this process only, so a restarted hub knows none of them and
asks for its new address (issue #31).

Secrets are kept as SHA-256 digests and looked up by digest: a guess costs the same
time whether or not it shares a prefix with a real token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass, field
from typing import Literal

TOKEN_BYTES = 32
#: Sessions one hub keeps at most (each login opens one); the oldest goes first.
MAX_SESSIONS = 32
#: How long the browser keeps the session cookie, in seconds: 30 days. The session itself
#: ends with the hub's process, whichever comes first.
SESSION_MAX_AGE = 30 * 24 * 3600
FlashKind = Literal["done", "error"]


@dataclass(frozen=True, slots=True)
class Flash:
    """A one-time message shown on the next page: what an action did, the commit a
    person may undo it with, and the page it made."""

    kind: FlashKind
    text: str
    undo: str | None = None
    #: A page the message points to, as (label, address): the memory a write landed as.
    link: tuple[str, str] | None = None


@dataclass(slots=True)
class Session:
    """One browser's session: its CSRF token and what the person chose for it."""

    csrf: str
    #: Private items are hidden until the person turns them on, for this session only.
    show_private: bool = False
    flashes: list[Flash] = field(default_factory=list)

    def csrf_matches(self, given: str) -> bool:
        return hmac.compare_digest(_digest(given), _digest(self.csrf))

    def take_flashes(self) -> list[Flash]:
        taken, self.flashes = self.flashes, []
        return taken


class Sessions:
    """Login tokens not yet used, and the sessions they opened (in memory: a restart of
    `memrepo hub` ends every session)."""

    def __init__(self) -> None:
        self._tokens: set[bytes] = set()
        self._sessions: dict[bytes, Session] = {}
        self._lock = threading.Lock()

    def new_login(self) -> str:
        """A fresh one-time login token (what the printed URL carries)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            self._tokens.add(_digest(token))
        return token

    def redeem(self, token: str) -> tuple[str, Session] | None:
        """Spend `token`: a new session and its id (the cookie's value), or None when
        the token is unknown or was used already."""
        with self._lock:
            digest = _digest(token)
            if digest not in self._tokens:
                return None
            self._tokens.discard(digest)
            session_id = secrets.token_urlsafe(TOKEN_BYTES)
            session = Session(csrf=secrets.token_urlsafe(TOKEN_BYTES))
            if len(self._sessions) >= MAX_SESSIONS:
                self._sessions.pop(next(iter(self._sessions)))
            self._sessions[_digest(session_id)] = session
            return session_id, session

    def get(self, session_id: str | None) -> Session | None:
        """The session this cookie value names, or None."""
        if not session_id:
            return None
        with self._lock:
            return self._sessions.get(_digest(session_id))


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogateescape")).digest()
