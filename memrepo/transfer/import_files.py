"""An import file as the bytes its format reader wants, however it was packed.

Exports reach people zipped (OpenMemory's backup is a zip of `memories.json` and
`memories.jsonl.gz`; mail and chat apps zip attachments), gzipped, saved as UTF-16 by a
Windows editor, or double-encoded (a whole document stored as one JSON string, as
letta-ai/agent-file's `memgpt_agent.af` is). Each is recognised by its first bytes,
never by its name, and opened as a plain `Input`:

* a zip: each member that can hold memory (`.json`, `.jsonl`, `.ndjson`, `.af`, and those
  gzipped) is an input named `<zip>/<member>`; any other member is reported, not read;
* gzip: the decompressed stream, read lazily like the plain file;
* a UTF-16 or UTF-32 byte-order mark: the text re-encoded as UTF-8 (read whole, so at
  most `MAX_DOCUMENT_BYTES`);
* a document that is one JSON string holding JSON: that JSON (read whole).

JSONL and JSON documents stay streamed when they are plain or gzipped, so a 2 GB dump
costs little memory in either form.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import Rejected

MAX_DOCUMENT_BYTES = 64 << 20
ZIP_MAGIC = b"PK\x03\x04"
GZIP_MAGIC = b"\x1f\x8b"
MEMORY_SUFFIXES = (".json", ".jsonl", ".ndjson", ".af")
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_SKIPPED_MEMBERS = ("__MACOSX/", ".")

Opener = Callable[[], AbstractContextManager[BinaryIO]]


@dataclass(frozen=True, slots=True)
class Input:
    """One readable stream of an import: its name in messages and sources (never a
    path of this machine), and how to open it (again, for a second look)."""

    name: str
    open: Opener

    def head(self, size: int = 64 << 10) -> bytes:
        """The first `size` bytes (fewer when the stream is shorter)."""
        with self.open() as handle:
            return handle.read(size)

    def whole(self) -> bytes:
        """All of it, refused when it is larger than any document memrepo holds."""
        with self.open() as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ImportSourceError(
                f"{self.name}: over {MAX_DOCUMENT_BYTES >> 20} MiB; a JSON document is read "
                f"whole, at most {MAX_DOCUMENT_BYTES >> 20} MiB: export it in parts, or as "
                "JSONL (one memory per line), which is streamed (nothing was imported)"
            )
        return data


def inputs_of(path: Path) -> Iterator[Input | Rejected]:
    """The inputs packed in the file at `path` (see the module docstring), in order."""
    with open(path, "rb") as handle:
        magic = handle.read(4)
    if magic.startswith(ZIP_MAGIC):
        yield from _zip_members(path)
    else:
        yield unpacked(file_input(path), magic)


def file_input(path: Path) -> Input:
    """A plain file as an input named by its file name."""

    def opener() -> BinaryIO:
        return open(path, "rb")  # the Input's user closes it

    return Input(path.name, opener)


def unpacked(raw: Input, magic: bytes | None = None) -> Input:
    """`raw` with gzip, a byte-order mark or a double encoding taken off."""
    magic = raw.head(4) if magic is None else magic
    if magic.startswith(GZIP_MAGIC):
        return unpacked(Input(raw.name, lambda: _Gunzipped(raw)))
    for bom, encoding in _BOMS:
        if magic.startswith(bom):
            text = raw.whole().decode(encoding, "surrogateescape")
            return unpacked(_in_memory(raw.name, text.encode("utf-8", "surrogateescape")))
    if raw.head(256).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b'"'):
        return _string_document(raw)
    return raw


def zip_names(path: Path) -> list[str]:
    """The member names of a zip file, or ImportSourceError when it is no zip."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise ImportSourceError(f"{path.name}: a damaged zip file ({exc})") from exc


def member(path: Path, name: str) -> Input:
    """One member of the zip at `path`, unpacked like a file."""

    def opener() -> AbstractContextManager[BinaryIO]:
        archive = zipfile.ZipFile(path)
        return _ZipMember(archive, name)

    return unpacked(Input(f"{path.name}/{name}", opener))


def is_zip(path: Path) -> bool:
    """Whether a file is a zip archive, by its first bytes."""
    with open(path, "rb") as handle:
        return handle.read(4).startswith(ZIP_MAGIC)


def _zip_members(path: Path) -> Iterator[Input | Rejected]:
    for name in zip_names(path):
        base = name.rsplit("/", 1)[-1]
        if name.endswith("/") or name.startswith(_SKIPPED_MEMBERS) or base.startswith("."):
            continue
        if base.lower().removesuffix(".gz").endswith(MEMORY_SUFFIXES):
            yield member(path, name)
        else:
            yield Rejected(
                f"{path.name}/{name}",
                None,
                "not_memory_file",
                "not a JSON, JSONL or agent file; not read",
            )


class _ZipMember(AbstractContextManager[BinaryIO]):
    """A zip member's stream that closes its archive with it."""

    def __init__(self, archive: zipfile.ZipFile, name: str) -> None:
        self.archive = archive
        self.name = name

    def __enter__(self) -> BinaryIO:
        try:
            self.stream: BinaryIO = self.archive.open(self.name)  # type: ignore[assignment]
        except (zipfile.BadZipFile, OSError, KeyError) as exc:
            self.archive.close()
            raise ImportSourceError(f"{self.name}: cannot be read from the zip ({exc})") from exc
        return self.stream

    def __exit__(self, *exc: object) -> None:
        self.stream.close()
        self.archive.close()


class _Gunzipped(AbstractContextManager[BinaryIO]):
    """The decompressed stream of a gzipped input, closing the input with it."""

    def __init__(self, raw: Input) -> None:
        self.outer = raw.open()

    def __enter__(self) -> BinaryIO:
        self.stream = gzip.GzipFile(fileobj=self.outer.__enter__(), mode="rb")
        return self.stream  # type: ignore[return-value]

    def __exit__(self, *exc: object) -> None:
        self.stream.close()
        self.outer.__exit__(None, None, None)


def _string_document(raw: Input) -> Input:
    """A document stored as one JSON string: the JSON it holds (or `raw`, when the
    string holds no JSON: the reader then says what it is)."""
    try:
        value = json.loads(raw.whole().decode("utf-8", "surrogateescape").lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return raw
    if not isinstance(value, str) or not value.lstrip().startswith(("{", "[")):
        return raw
    return _in_memory(raw.name, value.encode("utf-8", "surrogateescape"))


def _in_memory(name: str, data: bytes) -> Input:
    return Input(name, lambda: nullcontext(io.BytesIO(data)))
