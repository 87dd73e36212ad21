"""Claude Code auto memory: `MEMORY.md` (an index) plus one file per memory.

The folder is `~/.claude/projects/<project>/memory/` (Claude Code's memory docs, "Auto
memory"). A memory file has frontmatter `name` (a stable key), `description` (a
one-line summary) and the memory's type (`user`, `feedback`, `project`, `reference`),
written `type:` by older versions and `metadata: {type: ...}` by newer ones; then the
memory itself as markdown, often with **Why:** and **How to apply:** lines.

The whole body is one fact: its parts only make sense together. It is flattened by
`memory_body` (bullets, code blocks and headings kept, with separators) and, when longer
than one entry, split into numbered parts (`part: 2 of 3`) at piece boundaries, never
cut silently. `name` becomes the fact's subject, so a changed memory supersedes the old
one on the next import; the description and type are kept on the entry. A memory that
links to another (`[label](other.md)` or `[[other]]`) keeps the link as `related:
<other's name>`: the linked file is not a file of the memory repo, so the text keeps
only the label.

Bullets of MEMORY.md that only link to a memory file are the index; any other bullet or
paragraph there is a fact of its own.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from memrepo.formats.importers.markdown import body_start, decode, facts_in_markdown, string_field
from memrepo.formats.importers.memory_body import Piece, join_pieces, pieces_of, split_parts
from memrepo.formats.importers.model import Fact, Rejected
from memrepo.formats.importers.privacy import marked

INDEX_FILE = "MEMORY.md"
_INDEX_LINE = re.compile(r"^\s*(?:\[[^\]]*\]\([^)\s]+\.md\)|\[\[[^\]]+\]\])")
_MD_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]+?\.md)(?:#[^()\s]*)?\)")
_WIKI_LINK = re.compile(r"\[\[([^\[\]|]+?)(?:\|([^\[\]]*))?\]\]")


def read_memory_file(
    data: bytes, path: str, names: Mapping[str, str] | None = None
) -> list[Fact | Rejected]:
    """The facts of one file of a Claude Code memory folder (`path` relative to it).

    `names` maps the folder's files to their memories' names, so a link names the memory
    it points to; without it a link names the file's stem.
    """
    decoded = decode(data, path)
    if isinstance(decoded, Rejected):
        return [decoded]
    texts, front = decoded
    start = body_start(front)
    if path.rsplit("/", 1)[-1] == INDEX_FILE:
        return [
            Fact(text, path, line)
            for line, text in facts_in_markdown(texts, start)
            if not _INDEX_LINE.match(text)
        ]
    meta = front.data if front is not None else {}
    description = string_field(meta, "description")
    parts = split_parts(pieces_of(texts, start))
    if not parts:
        if not description:
            return [Rejected(path, None, "no_text", "the memory file has no text")]
        parts = [[Piece(1, description, "paragraph")]]
    name = string_field(meta, "name")
    facts: list[Fact | Rejected] = []
    for number, part in enumerate(parts, start=1):
        text, related = _unlink(join_pieces(part), path, names or {})
        kept = [("description", description)] if description and description != text else []
        if related:
            kept.append(("related", ", ".join(related)))
        if len(parts) > 1:
            kept.append(("part", f"{number} of {len(parts)}"))
        facts.append(
            Fact(
                text,
                path,
                part[0].line,
                subject=_part_subject(name, number),
                kind=memory_type(meta),
                key=f"memory-file:{path}" + (f"#{number}" if number > 1 else ""),
                meta=tuple((k, v) for k, v in kept if v),
            )
        )
    return marked(facts, meta, path)  # `private: yes` in frontmatter, and its kin


def _part_subject(name: str | None, number: int) -> str | None:
    """A memory's name is its subject; its later parts are `name (part 2)` and so on,
    so each part supersedes only its own earlier text."""
    if name is None or number == 1:
        return name
    return f"{name} (part {number})"


def memory_name(data: bytes, path: str) -> str | None:
    """The `name` of a memory file, None when it has none (or cannot be read)."""
    decoded = decode(data, path)
    if isinstance(decoded, Rejected) or decoded[1] is None:
        return None
    return string_field(decoded[1].data, "name")


def memory_type(meta: dict[str, object]) -> str | None:
    """`metadata.type` (current Claude Code), else the older top-level `type`."""
    nested = meta.get("metadata")
    if isinstance(nested, dict):
        value = string_field({str(k): v for k, v in nested.items()}, "type")
        if value:
            return value
    return string_field(meta, "type")


def _unlink(text: str, path: str, names: Mapping[str, str]) -> tuple[str, list[str]]:
    """The text with links to other memories reduced to their labels, and the names of
    the memories linked (in order, once each)."""
    related: list[str] = []
    here = posixpath.dirname(path)

    def note(target: str) -> str:
        name = names.get(target) or posixpath.splitext(posixpath.basename(target))[0]
        if name and name not in related:
            related.append(name)
        return name

    def markdown_link(match: re.Match[str]) -> str:
        target = match.group(2)
        if "://" in target or target.startswith("/"):
            return match.group(0)  # a link out of the folder is text, not a relation
        note(posixpath.normpath(posixpath.join(here, target)))
        return match.group(1) or target

    def wiki_link(match: re.Match[str]) -> str:
        target = match.group(1).strip()
        file = target if target.endswith(".md") else f"{target}.md"
        name = note(posixpath.normpath(posixpath.join(here, file)))
        return (match.group(2) or name or target).strip()

    text = _MD_LINK.sub(markdown_link, text)
    return _WIKI_LINK.sub(wiki_link, text), related
