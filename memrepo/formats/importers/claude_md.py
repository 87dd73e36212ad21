"""CLAUDE.md instruction files: facts with their headings, and the `@path` imports.

Claude Code reads `~/.claude/CLAUDE.md` (the user's), `CLAUDE.md` or `.claude/CLAUDE.md`
(the project's, shared through its repository) and `CLAUDE.local.md` (the user's own for
one project), and expands `@path/to/file` anywhere in them into the imported file's
text; relative paths are relative to the importing file, `@~/...` to the home folder,
imports inside code spans and fenced code blocks are not imports, and imports nest at
most five hops deep (Claude Code's memory docs, "CLAUDE.md imports").

Each bullet or paragraph is a fact, kept with the headings above it (`section: Testing >
Python`), and a paragraph of `Key: value` lines is one fact per line. A rule file's
`paths:` frontmatter (one glob or a list; Claude Code loads the rule only for matching
files) is kept on each of its facts as `paths: src/api/**, tests/**`. A line that is only
an import (`@docs/style.md`) is structure, not a fact. Resolving and reading the
imported files is `memrepo.transfer`'s job; this module only finds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.formats.importers.markdown import (
    FENCE,
    blocks_in_markdown,
    body_start,
    decode,
    fence_end,
    is_placeholder,
    split_records,
)
from memrepo.formats.importers.model import Fact, Rejected

#: How deep Claude Code follows imports (its memory docs: "a max-depth of 5 hops").
MAX_IMPORT_HOPS = 5
#: The files an import may name that memrepo reads as memory; others are context only.
MARKDOWN_SUFFIXES = (".md", ".markdown", ".txt")

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# `@` at a word's start (so dana@example.com is no import), then a path-looking token.
_IMPORT = re.compile(r"(?<![\w@/\\])@((?:~/|\.{1,2}/|/)?[^\s`'\"<>()\[\]{},;]+)")
_TRAILING = ".,:;!?"
_ONLY_STRUCTURE = re.compile(r"^[\s\-*+:>|]*$")


@dataclass(frozen=True, slots=True)
class Import:
    """One `@path` of a file: the 1-based line it is on and the path as written."""

    line: int
    target: str


@dataclass(frozen=True, slots=True)
class ClaudeMd:
    """What one CLAUDE.md (or imported) file holds: facts (or why not) and imports."""

    items: list[Fact | Rejected]
    imports: list[Import]


def read_claude_md(data: bytes, path: str, *, private: bool = False) -> ClaudeMd | Rejected:
    """The facts and imports of one file (`path` as the import names it).

    `private` marks every fact private: `CLAUDE.local.md` is the user's own file, which
    Claude Code keeps out of the project's git, so its facts stay out of memrepo's too.
    """
    decoded = decode(data, path)
    if isinstance(decoded, Rejected):
        return decoded
    texts, front = decoded
    start = body_start(front)
    imports = find_imports(texts, start)
    scoped = _paths(front.data if front is not None else {})
    items: list[Fact | Rejected] = []
    for block in blocks_in_markdown(texts, start):
        section = " > ".join(block.headings)
        meta = (("section", section),) if section else ()
        if scoped:
            meta = (*meta, ("paths", scoped))
        for line, text in split_records(block):
            if _ONLY_STRUCTURE.match(_IMPORT.sub("", text)):
                continue  # an import on its own line: the imported file brings the facts
            if is_placeholder(text):
                items.append(_placeholder(path, line, text))
                continue
            items.append(Fact(text, path, line, private=private, meta=meta))
    return ClaudeMd(items, imports)


def _paths(front: dict[str, object]) -> str | None:
    """A rule's `paths:` globs as one value (None when the rule applies everywhere)."""
    value = front.get("paths")
    globs = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    kept = [" ".join(str(g).split()) for g in globs if isinstance(g, str | int) and str(g)]
    return ", ".join(kept) or None


def find_imports(texts: list[str], start: int = 0) -> list[Import]:
    """Every `@path` outside code, in order; an email address or `@name` is no import."""
    found: list[Import] = []
    n = start
    while n < len(texts):
        opened = FENCE.match(texts[n])
        if opened:
            n = fence_end(texts, n + 1, opened.group(1)) + 1
            continue
        for match in _IMPORT.finditer(_CODE_SPAN.sub(" ", texts[n])):
            target = match.group(1).rstrip(_TRAILING)
            if "/" in target or "." in target.lstrip("."):
                found.append(Import(n + 1, target))
        n += 1
    return found


def is_markdown(target: str) -> bool:
    """Whether an import names a file memrepo reads as memory (by its suffix)."""
    return target.lower().endswith(MARKDOWN_SUFFIXES)


def _placeholder(path: str, line: int, text: str) -> Rejected:
    return Rejected(path, line, "placeholder", f"{text!r} has no value yet", quiet=True)
