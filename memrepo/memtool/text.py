"""A memory file as the model sees it, and its new bytes from what the model changed.

The model reads and edits a file as text (`view`, `str_replace`, `insert`). It sees
each entry without its metadata group: the group is memrepo's bookkeeping (who wrote
the line, when, that an agent did), and a model shown it would copy it, edit it or
forge it. So the text a command works on is the file with every entry's group left
off, and the file written back is rebuilt from that text line by line:

- a line the command did not change is the file's line as it was, byte for byte (its
  group, its line ending, a person's prose, frontmatter);
- an entry the command changed in place (one line replaced by one line) keeps its
  metadata, now `by: agent` and `tainted: yes`: an agent reworded it, so it no longer
  stands as a person's word (the rule of `MemoryRepo.edit`). With a `subject` its ref
  stays; without one, `why` follows the rewording as it follows any edit;
- a new bullet is a new entry, its group the agent's (`fresh`), so the model's own
  words can never be read as metadata: only the last group of a line is.
"""

from __future__ import annotations

from collections.abc import Mapping
from difflib import SequenceMatcher

from memrepo.formats import Document, format_entry, parse, serialize
from memrepo.formats.lines import dominant_ending

#: Keys a person's confirmation sets: an agent's rewording takes them away.
_PERSON_ONLY = ("confirmed",)


def view_lines(doc: Document) -> list[str]:
    """The file's lines as the model sees them: entries without their group."""
    lines = list(doc.line_texts())
    for entry in doc.entries:
        if entry.metadata:
            stripped = entry.raw.rstrip()
            lines[entry.line_no] = stripped[: stripped.rfind("[")].rstrip()
    return lines


def view_text(doc: Document) -> str:
    """The file as one text, lines joined by "\\n" (a last line without an ending
    stays without one), as `str_replace` and `insert` work on it."""
    endings = [line.ending for line in doc.lines]
    return "".join(
        text + ("\n" if ending else "")
        for text, ending in zip(view_lines(doc), endings, strict=True)
    )


def split_view(text: str) -> tuple[list[str], bool]:
    """`text`'s lines and whether the last one ends with a newline."""
    if not text:
        return [], False
    ends = text.endswith("\n")
    lines = text.split("\n")
    if ends:
        lines.pop()
    return lines, ends


def rebuild(old: Document | None, new_text: str, path: str, fresh: Mapping[str, str]) -> bytes:
    """The file's new bytes when the model's view of it became `new_text` (see the
    module docstring); `old` None for a file that is new."""
    before = old if old is not None else parse(b"", path)
    old_view = view_lines(before)
    old_lines = before.lines
    new_lines, ends = split_view(new_text)
    ending = dominant_ending([line.ending for line in old_lines if line.ending]) or "\n"
    texts: list[str] = []
    endings: list[str] = []
    #: line number in the result -> the metadata to give it when it is an entry
    groups: dict[int, dict[str, str]] = {}
    matcher = SequenceMatcher(None, old_view, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for i in range(i1, i2):
                texts.append(old_lines[i].text)
                endings.append(old_lines[i].ending or ending)
            continue
        for k, j in enumerate(range(j1, j2)):
            was = before.entry_at(i1 + k) if i1 + k < i2 else None
            metadata = dict(fresh)
            if was is not None and was.metadata:
                metadata = {**was.metadata, "by": "agent", "tainted": "yes"}
                for key in _PERSON_ONLY:
                    metadata.pop(key, None)
            groups[len(texts)] = metadata
            texts.append(new_lines[j])
            endings.append(ending)
    if endings and not ends:
        endings[-1] = ""
    draft = Document(path, before.bom, list(texts), list(endings))
    for entry in draft.entries:
        given = groups.get(entry.line_no)
        if given is None or not entry.raw.strip()[1:].strip():
            continue
        group = format_entry("", given)[2:]
        texts[entry.line_no] = entry.raw.rstrip() + " " + group
    return serialize(Document(path, before.bom, texts, endings))
