"""Posted forms, read the strict way: URL-encoded, UTF-8, bounded, fields checked.

A browser posts `application/x-www-form-urlencoded` UTF-8; anything else (multipart, a
JSON body, bytes that are not UTF-8, a flood of fields) is refused with a message
before a page handler sees it. Handlers ask for fields by name and get `BadForm` (shown
as a 400 page) for a field that is missing, too long or not one of the allowed values:
a forged form says what was wrong instead of ending in a traceback.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import parse_qsl

from memrepo.errors import InvalidArgument

MAX_FIELDS = 200
#: Longer than any fact (screened to 1,000 characters) with its metadata.
MAX_FIELD_CHARS = 20_000


class BadForm(InvalidArgument):
    """A posted form or a query string the hub cannot use (shown as a 400 page)."""


class Form:
    """The fields of one posted form (or query string), in order, repeats kept."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    @classmethod
    def parse(cls, body: bytes) -> Form:
        """Decode a URL-encoded body; BadForm when it is not ASCII on the wire, not
        UTF-8 once decoded, or has too many fields."""
        try:
            text = body.decode("ascii")
        except UnicodeDecodeError:
            raise BadForm("the form was not URL-encoded (raw non-ASCII bytes)") from None
        return cls.parse_query(text)

    @classmethod
    def parse_query(cls, text: str) -> Form:
        try:
            pairs = parse_qsl(
                text, keep_blank_values=True, encoding="utf-8", errors="strict",
                max_num_fields=MAX_FIELDS,
            )  # fmt: skip
        except UnicodeDecodeError:
            raise BadForm("the form or address holds text that is not UTF-8") from None
        except ValueError:
            raise BadForm(f"too many fields (at most {MAX_FIELDS})") from None
        for name, value in pairs:
            if len(value) > MAX_FIELD_CHARS:
                raise BadForm(f"the field {name!r} is too long (at most {MAX_FIELD_CHARS:,})")
            if "\x00" in value or "\x00" in name:
                raise BadForm(f"the field {name!r} holds a NUL character")
        return cls(pairs)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The first value of `name` (stripped), or `default` when absent or empty."""
        for key, value in self.pairs:
            if key == name:
                return value.strip() or default
        return default

    def raw(self, name: str) -> str | None:
        """The first value of `name` exactly as posted (None when absent)."""
        return next((value for key, value in self.pairs if key == name), None)

    def require(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise BadForm(f"the field {name!r} is missing")
        return value

    def getall(self, name: str) -> list[str]:
        return [value.strip() for key, value in self.pairs if key == name and value.strip()]

    def choice(self, name: str, allowed: Collection[str], default: str | None = None) -> str | None:
        """`name`'s value when it is one of `allowed` (absent: `default`); BadForm else."""
        value = self.get(name)
        if value is None:
            return default
        if value not in allowed:
            raise BadForm(f"{name}={value!r} is not one of {', '.join(sorted(allowed))}")
        return value

    def flag(self, name: str) -> bool:
        """A checkbox: on when sent as `1`, `on`, `yes` or `true`."""
        return (self.get(name) or "").lower() in ("1", "on", "yes", "true")

    def number(self, name: str, default: int, *, low: int = 1, high: int = 1_000_000) -> int:
        value = self.get(name)
        if value is None:
            return default
        if not value.isdigit() or not low <= int(value) <= high:
            raise BadForm(f"{name}={value!r} is not a number from {low} to {high}")
        return int(value)

    def local_path(self, name: str, default: str = "/") -> str:
        """A path of this hub to go back to (never another site: `//host` and
        `http://...` are refused, so a form cannot be turned into an open redirect)."""
        value = self.get(name) or default
        if not value.startswith("/") or value.startswith("//") or "\\" in value:
            raise BadForm(f"{name}={value!r} is not a page of the hub")
        if any(ord(c) < 0x21 for c in value):
            raise BadForm(f"{name}={value!r} is not a page of the hub")
        return value
