"""Server-rendered pages: the Jinja2 templates of `templates/`, escaped by default.

`page()` gives every template what the layout needs: the session's CSRF token (every
form posts it), its one-time messages, whether private items are shown, and which
page of the navigation is current.

The environment trims the newline after a block tag (`trim_blocks`), which keeps the
markup of lists and tables tidy; inside `<pre>`, where a newline is what the person
sees, a block tag that ends a line is written `+%}` to keep it (issue #31: a commit's
diff once showed as one run-on paragraph).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from memrepo.hub.sessions import Session
from memrepo.models.constants import SHORT_COMMIT
from memrepo.models.recall import due_label

#: The navigation: (path, label); each is a page of its own.
NAV = (
    ("/", "What it knows"),
    ("/history", "History"),
    ("/review", "Review"),
    ("/agent", "What the agent sees"),
    ("/health", "Health"),
    ("/sources", "Sources"),
    ("/settings", "Settings"),
)


def short(commit: str | None) -> str:
    """A commit id as git prints it short."""
    return (commit or "")[:SHORT_COMMIT]


def when(value: datetime | str | None) -> str:
    """A date as people read it in a list (YYYY-MM-DD HH:MM, or the date text as is)."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return value


def number(value: float | None) -> str:
    """A count or a figure as people read it: a whole number without a decimal point
    ("14 entries", never "14.0"), thousands grouped, a fraction to two places."""
    if value is None:
        return ""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def link(to: str, /, **params: object) -> str:
    """The page `to` with a query string of the params that are set (None, "" and
    False left out)."""
    query = {k: str(v) for k, v in params.items() if v is not None and v != "" and v is not False}
    return f"{to}?{urlencode(query)}" if query else to


class Templates:
    """The hub's templates, loaded once from the package."""

    def __init__(self) -> None:
        self.env = Environment(
            loader=PackageLoader("memrepo.hub", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["short"] = short
        self.env.filters["when"] = when
        self.env.filters["number"] = number
        self.env.filters["due"] = due_label
        self.env.globals["link"] = link
        self.env.globals["nav"] = NAV

    def page(
        self, request: Request, name: str, context: Mapping[str, Any], *, status: int = 200
    ) -> HTMLResponse:
        session: Session = request.state.session
        html = self.env.get_template(name).render(
            **context,
            csrf=session.csrf,
            flashes=session.take_flashes(),
            show_private=session.show_private,
            here=request.url.path,
            here_full=_here(request),
        )
        return HTMLResponse(html, status_code=status)

    def refusal(self, status: int, title: str, detail: str) -> str:
        """A page for a request refused before any session is known (no navigation)."""
        return self.env.get_template("refused.html").render(
            status=status, title=title, detail=detail
        )


def _here(request: Request) -> str:
    """This page's path and query, for a form's "come back here" field."""
    query = request.url.query
    return f"{request.url.path}?{query}" if query else request.url.path
