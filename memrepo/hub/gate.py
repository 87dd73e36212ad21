"""The gate in front of every request the hub answers, in this order:

1. The client must be this machine (the socket is bound to 127.0.0.1 only; checked
   again per request, so a proxy in front cannot widen it by accident).
2. `Host` must be `127.0.0.1:<port>` or `localhost:<port>`, else 421: a web page that
   got a hostile name to resolve to 127.0.0.1 (DNS rebinding) still sends its own name.
3. An `Origin`, when sent, must be the hub's own, else 403; a POST must send one (every
   browser does). `Sec-Fetch-Site`, when sent, must be same-origin (or `none`, a typed
   address) for anything but a top-level navigation.
4. GET, HEAD and POST only (405).
5. `/login?token=...` spends a one-time token and sets the session cookie
   (HttpOnly, SameSite=Strict, kept across browser restarts for `SESSION_MAX_AGE`: a
   bookmark works while this hub runs), then redirects to the front page; every other
   request needs that cookie's session, else 401.
6. A POST is a URL-encoded UTF-8 form of at most `MAX_BODY` bytes (413, 415, 400)
   whose `csrf` field is the session's token (403). The parsed form and the session
   reach the page as `request.state.form` and `request.state.session`.

Every response gets headers that keep the page to itself: a Content-Security-Policy
allowing only the hub's own script and style, no framing, no referrer to other sites, no
caching (pages carry memory text), and `Server-Timing` (the server's time, which
bench_hub reads). One line per request goes to the log: method, path (never the query:
it can hold a search), status, time.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl

from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memrepo.hub.forms import BadForm, Form
from memrepo.hub.sessions import SESSION_MAX_AGE, Session, Sessions
from memrepo.serving import read_body

LOGIN_PATH = "/login"
MAX_BODY = 64 * 1024
METHODS = frozenset({"GET", "HEAD", "POST"})
FORM_TYPE = "application/x-www-form-urlencoded"
CSRF_FIELD = "csrf"
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'"
    ),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    # Not no-referrer: with it, browsers send `Origin: null` on the hub's own forms.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}

Log = Callable[[str], None]
#: Renders a refusal page: (status, title, what to do) -> HTML.
Refusal = Callable[[int, str, str], str]


def cookie_name(port: int) -> str:
    """The session cookie's name. Cookies ignore ports, so two hubs on one machine
    (different ports) each get their own name instead of logging each other out."""
    return f"memrepo_hub_{port}"


class Gate:
    """ASGI middleware: the checks of the module docstring, then the app."""

    def __init__(
        self, app: ASGIApp, *, port: int, sessions: Sessions, refusal: Refusal, log: Log
    ) -> None:
        self.app = app
        self.port = port
        self.sessions = sessions
        self.refusal = refusal
        self.log = log
        self.cookie = cookie_name(port)
        self.hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})
        self.origins = frozenset(f"http://{host}" for host in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets are off in uvicorn; refuse anything else
            return
        started = time.perf_counter()
        status = [0]

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                headers = list(message.get("headers", []))
                took = (time.perf_counter() - started) * 1000
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                headers.append((b"server-timing", f"app;dur={took:.1f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self._handle(scope, receive, timed)
        finally:
            took = (time.perf_counter() - started) * 1000
            self.log(f"{scope['method']} {_safe_path(scope)} -> {status[0]} in {took:.1f} ms")

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        refused = self._refuse_request(scope, headers)
        if refused is not None:
            await refused(scope, receive, send)
            return
        if scope["path"] == LOGIN_PATH:
            await self._login(scope)(scope, receive, send)
            return
        session = self.sessions.get(cookie_parser(headers.get("cookie", "")).get(self.cookie))
        if session is None:
            await self._page(
                401,
                "Not signed in",
                "Open the address `memrepo hub` printed in its terminal (each address "
                "works once; start `memrepo hub` again for a new one). A bookmark of the "
                "hub works while the hub that signed you in runs: a restarted hub asks "
                "for its new address.",
            )(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["session"] = session
        if scope["method"] == "POST":
            body, refused = await self._read_form(headers, receive, session)
            if refused is not None:
                await refused(scope, receive, send)
                return
            state["form"] = body
        await self.app(scope, receive, send)

    def _refuse_request(self, scope: Scope, headers: Mapping[str, str]) -> Response | None:
        client = scope.get("client")
        if client is None or not _loopback(str(client[0])):
            return self._page(403, "Refused", "The Memory Hub answers this machine only.")
        if headers.get("host", "").lower() not in self.hosts:
            return self._page(
                421,
                "Wrong address",
                f"The Memory Hub answers at http://127.0.0.1:{self.port}/ only "
                "(this request named another host).",
            )
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return self._page(403, "Refused", "This request came from another site.")
        method = scope["method"]
        if method == "POST" and origin is None:
            return self._page(403, "Refused", "A form must come from a page of the hub.")
        site = headers.get("sec-fetch-site")
        navigating = method == "GET" and headers.get("sec-fetch-mode") == "navigate"
        if site is not None and site not in ("same-origin", "none") and not navigating:
            return self._page(403, "Refused", "This request came from another site.")
        if method not in METHODS:
            return self._page(405, "Not allowed", f"The hub does not answer {method} requests.")
        return None

    def _login(self, scope: Scope) -> Response:
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        opened = self.sessions.redeem(query.get("token", ""))
        if opened is None:
            return self._page(
                403,
                "This address does not open the hub",
                "Each address `memrepo hub` prints works once. Start `memrepo hub` again "
                "for a new one, or use the browser window you opened it in.",
            )
        session_id, _ = opened
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            self.cookie, session_id, max_age=SESSION_MAX_AGE, httponly=True,
            samesite="strict", path="/", secure=False,
        )  # fmt: skip
        return response

    async def _read_form(
        self, headers: Mapping[str, str], receive: Receive, session: Session
    ) -> tuple[Form | None, Response | None]:
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != FORM_TYPE:
            return None, self._page(415, "Not a form", "The hub takes URL-encoded forms only.")
        length = headers.get("content-length")
        too_big = self._page(413, "Too large", f"A form may hold {MAX_BODY // 1024} KiB at most.")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return None, too_big
        body = await read_body(receive, MAX_BODY)
        if body is None:
            return None, too_big
        try:
            form = Form.parse(body)
        except BadForm as exc:
            return None, self._page(400, "Bad form", str(exc))
        token = form.raw(CSRF_FIELD)
        if token is None or not session.csrf_matches(token):
            return None, self._page(
                403,
                "Refused",
                "The form had no valid CSRF token (it did not come from this hub's page). "
                "Reload the page and try again.",
            )
        return form, None

    def _page(self, status: int, title: str, detail: str) -> Response:
        return HTMLResponse(self.refusal(status, title, detail), status_code=status)


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name; a repeated header counts as wrong
    (except cookies, which browsers may split)."""
    found: dict[str, str] = {}
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        if name == "cookie" and name in found:
            found[name] += "; " + value
        else:
            found[name] = "\x00repeated" if name in found else value
    return found


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _safe_path(scope: Scope) -> str:
    """The path for the log, printable characters only (a hostile path cannot forge lines)."""
    path = str(scope.get("path", ""))
    return "".join(c if c.isprintable() else "?" for c in path)[:200]
