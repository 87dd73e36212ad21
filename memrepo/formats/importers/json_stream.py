"""The memories of one JSON document, one at a time, without holding the document.

A mem0 export of 40,000 memories is one JSON document, often written on one line; read
whole it costs the file several times over in memory, and as JSON lines it is one line
over any sane line limit. This reader walks the document's outer shape itself (a bare
list, or an object whose memory list sits under one of `list_keys`) and hands each
element of that list to the stdlib decoder (`JSONDecoder.raw_decode`, the C scanner) as
soon as it is complete in the buffer, so memory is bounded by the largest element plus
one read, never by the document.

It is pure: it takes a `read(n) -> bytes` callable, not a file name. Any input that is
not such a document raises `ImportSourceError` naming the character where it broke: the
import reads everything before it writes, so a document broken anywhere imports nothing.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NoReturn

from memrepo.errors import ImportSourceError

Read = Callable[[int], bytes]

CHUNK = 1 << 20
#: The largest single value (a memory, or any other field of the outer object) held.
MAX_VALUE_CHARS = 64 << 20
_WHITESPACE = " \t\n\r"
_CUT_MARGIN = 16


@dataclass(slots=True)
class Outer:
    """What the outer object held besides its memory list (small fields only): a
    document with no list is judged by these (one memory, or not an export)."""

    fields: dict[str, object] = field(default_factory=dict)
    found_list: bool = False
    is_object: bool = False
    #: How many elements each other list after the memory list held (mem0's `relations`).
    counted: dict[str, int] = field(default_factory=dict)

    def count_of(self, key: str) -> int:
        """How many elements the document's list `key` held, wherever it stood."""
        held = self.fields.get(key)
        return len(held) if isinstance(held, list) else self.counted.get(key, 0)


class _Cursor:
    """A window on the decoded document: the text not consumed yet, refilled on demand."""

    def __init__(self, read: Read, name: str) -> None:
        self.read = read
        self.name = name
        self.buffer = ""
        self.pos = 0
        self.line = 1  # the line and column where the buffer starts, for messages
        self.column = 1
        self.fed = 0  # bytes given to the UTF-8 decoder so far
        self.eof = False
        # Bytes that are not UTF-8 become U+DC80-U+DCFF (surrogateescape): the memory
        # holding them is rejected by the row reader, the rest of the document is read.
        self.decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self.json = json.JSONDecoder()
        self.started = False

    def fill(self, want: int = CHUNK) -> None:
        """Read at least `want` more bytes (or to the end), dropping what was consumed."""
        data = self.read(max(want, CHUNK))
        self.eof = not data
        text = self.decoder.decode(data, final=self.eof)
        self.fed += len(data)
        if not self.started:
            text, self.started = text.removeprefix("\ufeff"), bool(text)
        self.line, self.column = self._where(self.pos)
        self.buffer = self.buffer[self.pos :] + text
        self.pos = 0

    def _where(self, at: int) -> tuple[int, int]:
        """The line and column of buffer offset `at`."""
        breaks = self.buffer.count("\n", 0, at)
        if not breaks:
            return self.line, self.column + at
        return self.line + breaks, at - self.buffer.rfind("\n", 0, at)

    def peek(self) -> str:
        """The next character that is not whitespace ("" at the end), not consumed."""
        while True:
            while self.pos < len(self.buffer) and self.buffer[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buffer) or self.eof:
                return self.buffer[self.pos] if self.pos < len(self.buffer) else ""
            self.fill()

    def take(self, expected: str) -> str:
        """Consume the next character, which must be one of `expected`."""
        got = self.peek()
        if not got or got not in expected:
            self.fail(f"expected {' or '.join(repr(c) for c in expected)}, found {got!r}")
        self.pos += 1
        return got

    def value(self) -> object:
        """Decode the next whole JSON value, reading more until it is complete."""
        self.peek()
        while True:
            try:
                found, end = self.json.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as exc:
                if self.eof or _broken_here(exc, len(self.buffer)):
                    self.fail(exc.msg, at=exc.pos)
                self._grow()
                continue
            except RecursionError:
                self.fail("nested too deeply to read")
            if end == len(self.buffer) and not self.eof:
                self._grow()  # a number may go on in the next read: decode it again
                continue
            self.pos = end
            return found

    def _grow(self) -> None:
        held = len(self.buffer) - self.pos
        if held > MAX_VALUE_CHARS:
            self.fail(f"one value is over {MAX_VALUE_CHARS >> 20} Mi characters")
        self.fill(held)  # doubling: decoding a large value again stays linear overall

    def fail(self, why: str, at: int | None = None) -> NoReturn:
        line, column = self._where(self.pos if at is None else at)
        raise ImportSourceError(
            f"{self.name}: not valid JSON at line {line} column {column}: {why} "
            "(nothing was imported)"
        )


def _broken_here(exc: json.JSONDecodeError, held: int) -> bool:
    """Whether a decode error is the document's fault rather than the buffer's end: an
    error well before the end (more than any literal or escape the end could cut) that
    is not a string running on past it."""
    return exc.pos < held - _CUT_MARGIN and not exc.msg.startswith("Unterminated string")


def stream_elements(
    read: Read, name: str, list_keys: tuple[str, ...], outer: Outer
) -> Iterator[object]:
    """Each element of the document's memory list, in order; `outer` is filled with
    what else the document held (see `Outer`)."""
    cursor = _Cursor(read, name)
    first = cursor.peek()
    if first == "[":
        cursor.take("[")
        outer.found_list = True
        yield from _elements(cursor)
    elif first == "{":
        outer.is_object = True
        yield from _object(cursor, list_keys, outer)
    else:
        outer.fields["value"] = cursor.value()  # judged by the caller: not a document
    if cursor.peek():
        cursor.fail("more data after the document")


def _elements(cursor: _Cursor) -> Iterator[object]:
    """The elements of a list whose `[` was consumed, through its `]`."""
    if cursor.peek() == "]":
        cursor.take("]")
        return
    while True:
        yield cursor.value()
        if cursor.take(",]") == "]":
            return


def _object(cursor: _Cursor, list_keys: tuple[str, ...], outer: Outer) -> Iterator[object]:
    """The outer object: its first list under `list_keys` is streamed, other fields kept
    (lists under other keys, such as mem0's graph `relations`, are walked and counted)."""
    cursor.take("{")
    if cursor.peek() == "}":
        cursor.take("}")
        return
    while True:
        key = cursor.value()
        if not isinstance(key, str):
            cursor.fail("an object key must be a string")
        cursor.take(":")
        if cursor.peek() == "[" and key in list_keys and not outer.found_list:
            cursor.take("[")
            outer.found_list = True
            yield from _elements(cursor)
        elif cursor.peek() == "[" and outer.found_list:
            cursor.take("[")
            outer.counted[str(key)] = sum(1 for _ in _elements(cursor))
        else:
            outer.fields[str(key)] = cursor.value()
        if cursor.take(",}") == "}":
            return
