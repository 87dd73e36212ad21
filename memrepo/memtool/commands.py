"""The six commands of the file-command memory tool, each one commit of the memory repo.

Anthropic's memory tool (`memory_20250818`) and Letta's `memory` tool give a model the
same commands over a `/memories` directory: view, create, str_replace, insert, delete,
rename. Here they run on a folder of a memory repo (`mount.Mount`), so what a model
writes is versioned, screened and reviewable like every other write
(docs/architecture.md §8, "The memory tool"):

- each changing command is one write transaction and one commit (`Memrepo-By: agent`,
  `Memrepo-Origin: memory-tool`, the task when the host names one), so `log`, `why`
  and `undo` (entry by entry) see it like any write;
- its lines are the agent's and tainted (`text.rebuild`): they stay out of the
  standing rules of every prompt until a person confirms them;
- text is screened as `remember` screens it: invisible characters removed, secrets
  redacted (a secret the redaction cannot take out of the file refuses the command:
  a write never leaves a file that blocks later writes), sizes bounded;
- errors are `MemoryToolError`, whose message is the contract's text where the SDK's
  own backend defines one, and nothing is written when one is raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from memrepo.errors import InvalidUtf8, MemoryToolError
from memrepo.folder.entries import ENTRY_POINT, link_from_index
from memrepo.folder.messages import build_message, summarize
from memrepo.folder.paths import resolve_link
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.secret_scan import secrets_in
from memrepo.folder.snapshot import Snapshot, run_on_snapshot
from memrepo.folder.transaction import Change
from memrepo.formats import Document, parse, serialize
from memrepo.hygiene import redact_secrets
from memrepo.hygiene.text import clean_invisible
from memrepo.memtool.listing import listing, numbered
from memrepo.memtool.mount import VIRTUAL_ROOT, Mount, stored_name
from memrepo.memtool.text import rebuild, split_view, view_text

ORIGIN = "memory-tool"
#: The largest file a command may leave behind: a model's memory file, not a dump.
MAX_FILE_BYTES = 1024 * 1024
#: Lines of context around an edit in `str_replace`'s answer (as the SDK shows them).
_SNIPPET = 2


@dataclass(frozen=True, slots=True)
class Screened:
    """Text as it may be written, and the kinds of the secrets taken out of it."""

    text: str
    redacted: tuple[str, ...] = ()


def screen_text(text: str) -> Screened:
    """Line breaks made "\\n", invisible characters removed, secrets redacted."""
    text = clean_invisible(text.replace("\r\n", "\n").replace("\r", "\n"))
    cleaned, kinds = redact_secrets(text)
    return Screened(cleaned, kinds)


class MemoryCommands:
    """The commands over `mount`, written to `folder` as the agent (task `task`)."""

    def __init__(self, folder: MemoryFolder, mount: Mount, *, task: str | None = None) -> None:
        self.folder = folder
        self.mount = mount
        self.task = task

    # -- reading -------------------------------------------------------------------

    def view(self, path: str, view_range: list[int] | None = None) -> str:
        """A directory's listing (two levels) or a file with line numbers."""
        relative = self.mount.resolve(path)
        on_disk = self.folder.root / relative if relative else self.folder.root
        if relative == self.mount.folder or on_disk.is_dir():
            return listing(self.mount, relative, path)
        doc = self._worktree_doc(path, stored_name(relative))
        return numbered(path, view_text(doc), view_range)

    def _worktree_doc(self, path: str, relative: str) -> Document:
        """The file as it is on disk (a person's pending edit included)."""
        target = self.folder.root / relative
        if not target.is_file() or target.is_symlink():
            raise MemoryToolError(f"The path {path} does not exist. Please provide a valid path.")
        return self._parse(path, relative, target.read_bytes())

    @staticmethod
    def _parse(path: str, relative: str, data: bytes) -> Document:
        try:
            return parse(data, relative)
        except InvalidUtf8 as exc:
            raise MemoryToolError(f"The file {path} is not UTF-8 text: {exc}") from exc

    # -- writing -------------------------------------------------------------------

    def create(self, path: str, file_text: str) -> str:
        """A new file holding `file_text` (its bullets the agent's entries)."""
        relative = self.mount.file(path)
        screened = screen_text(file_text)

        def plan(parent: Snapshot) -> Change:
            if parent.read(relative) is not None or self._is_dir(parent, relative):
                raise MemoryToolError(f"File {path} already exists")
            data = self._checked(
                path, relative, rebuild(None, screened.text, relative, self._fresh())
            )
            changes: dict[str, bytes | None] = {relative: data}
            link_from_index(changes, relative, parent.read(ENTRY_POINT))
            return Change(changes, self._message("Create", path))

        run_on_snapshot(self.folder, plan)
        return _noted(f"File created successfully at: {path}", screened.redacted)

    def str_replace(self, path: str, old_str: str, new_str: str) -> str:
        """Replace the one occurrence of `old_str` in the file as `view` shows it."""
        relative = self.mount.file(path)
        old_str = old_str.replace("\r\n", "\n").replace("\r", "\n")
        screened = screen_text(new_str)
        snippet: list[str] = []

        def plan(parent: Snapshot) -> Change:
            doc = self._committed_doc(path, relative, parent)
            text = view_text(doc)
            count = text.count(old_str) if old_str else 0
            if count == 0:
                raise MemoryToolError(
                    f"No replacement was performed, old_str `{old_str}` did not appear "
                    f"verbatim in {path}."
                )
            if count > 1:
                raise MemoryToolError(
                    f"No replacement was performed. Multiple occurrences of old_str "
                    f"`{old_str}` in lines: {', '.join(map(str, _lines_of(text, old_str)))}. "
                    "Please ensure it is unique"
                )
            at = text.index(old_str)
            new_text = text[:at] + screened.text + text[at + len(old_str) :]
            snippet[:] = [_snippet(new_text, text[:at].count("\n"))]
            data = self._checked(path, relative, rebuild(doc, new_text, relative, self._fresh()))
            return Change({relative: data}, self._message("Edit", path))

        run_on_snapshot(self.folder, plan)
        head = (
            "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n"
        )
        return _noted(head + snippet[0], screened.redacted)

    def insert(self, path: str, insert_line: int, insert_text: str) -> str:
        """`insert_text` as new lines after line `insert_line` (0: at the top)."""
        relative = self.mount.file(path)
        screened = screen_text(insert_text)

        def plan(parent: Snapshot) -> Change:
            doc = self._committed_doc(path, relative, parent)
            lines, _ends = split_view(view_text(doc))
            if insert_line < 0 or insert_line > len(lines):
                raise MemoryToolError(
                    f"Invalid `insert_line` parameter: {insert_line}. "
                    f"It should be within the range [0, {len(lines)}]."
                )
            lines[insert_line:insert_line] = screened.text.rstrip("\n").split("\n")
            new_text = "\n".join(lines) + "\n"
            data = self._checked(path, relative, rebuild(doc, new_text, relative, self._fresh()))
            return Change({relative: data}, self._message("Insert into", path))

        run_on_snapshot(self.folder, plan)
        return _noted(f"The file {path} has been edited.", screened.redacted)

    def delete(self, path: str) -> str:
        """Delete a file, or a directory with the memory files in it."""
        relative = self.mount.resolve(path)
        if relative == self.mount.folder:
            raise MemoryToolError(f"Cannot delete the {VIRTUAL_ROOT} directory itself")
        self._refuse_entry_point(path, relative)

        def plan(parent: Snapshot) -> Change:
            gone = self._files_at(parent, relative)
            if not gone:
                raise MemoryToolError(f"The path {path} does not exist")
            changes: dict[str, bytes | None] = dict.fromkeys(gone)
            self._unlink(changes, gone, parent)
            return Change(changes, self._message("Delete", path))

        run_on_snapshot(self.folder, plan)
        return f"Successfully deleted {path}"

    def rename(self, old_path: str, new_path: str) -> str:
        """Move a file or a directory to a path that does not exist yet."""
        old = self.mount.resolve(old_path, field="old_path")
        new = self.mount.resolve(new_path, field="new_path")
        for relative, named in ((old, old_path), (new, new_path)):
            if relative == self.mount.folder:
                raise MemoryToolError(f"Cannot rename the {VIRTUAL_ROOT} directory itself")
            self._refuse_entry_point(named, relative)
        if new == old or new.startswith(old + "/"):
            raise MemoryToolError(f"Cannot rename {old_path} into itself")

        def plan(parent: Snapshot) -> Change:
            moving = self._files_at(parent, old)
            if not moving:
                raise MemoryToolError(f"The path {old_path} does not exist")
            is_file = moving == [stored_name(old)]
            taken = parent.read(stored_name(new)) is not None or self._is_dir(parent, new)
            if taken:
                raise MemoryToolError(f"The destination {new_path} already exists")
            if is_file:
                self.mount.file(new_path, field="new_path")  # its stored name is fine too
            changes: dict[str, bytes | None] = dict.fromkeys(moving)
            memory = parent.read(ENTRY_POINT)
            for source in moving:
                target = stored_name(new) if is_file else new + source[len(old) :]
                data = parent.read(source)
                changes[target] = data
                link_from_index(changes, target, memory)
            self._unlink(changes, moving, parent)
            return Change(changes, self._message("Rename", f"{old_path} -> {new_path}"))

        run_on_snapshot(self.folder, plan)
        return f"Successfully renamed {old_path} to {new_path}"

    # -- helpers -------------------------------------------------------------------

    def _committed_doc(self, path: str, relative: str, parent: Snapshot) -> Document:
        data = parent.read(relative) if self.mount.visible(relative) else None
        if data is None:
            raise MemoryToolError(f"The path {path} does not exist. Please provide a valid path.")
        return self._parse(path, relative, data)

    def _files_at(self, parent: Snapshot, relative: str) -> list[str]:
        """The memory files `relative` names at `parent`: the file it names (as
        stored), or those below it."""
        if parent.read(stored_name(relative)) is not None:
            return [stored_name(relative)]
        return [
            path
            for path in parent.files_below(relative)
            if path.endswith(".md") and self.mount.visible(path)
        ]

    def _is_dir(self, parent: Snapshot, relative: str) -> bool:
        return (self.folder.root / relative).is_dir() or bool(parent.files_below(relative))

    def _unlink(self, changes: dict[str, bytes | None], gone: list[str], parent: Snapshot) -> None:
        """Take the Index links to `gone` files out of MEMORY.md in `changes`."""
        data = changes.get(ENTRY_POINT) or parent.read(ENTRY_POINT)
        if data is None:
            return
        doc = parse(data, ENTRY_POINT)
        lines = {link.line_no for link in doc.index_links if resolve_link(link.target) in gone}
        for line_no in sorted(lines, reverse=True):
            doc.remove_line(line_no)
        if lines:
            changes[ENTRY_POINT] = serialize(doc)

    def _refuse_entry_point(self, path: str, relative: str) -> None:
        if relative == ENTRY_POINT:
            raise MemoryToolError(
                f"{path} is the memory's entry point ({ENTRY_POINT}); it cannot be "
                "deleted or renamed"
            )

    def _checked(self, path: str, relative: str, data: bytes) -> bytes:
        """The file's new bytes, refused when too large or still holding a secret."""
        if len(data) > MAX_FILE_BYTES:
            raise MemoryToolError(
                f"File {path} would be {len(data):,} bytes; a memory file holds at most "
                f"{MAX_FILE_BYTES:,}. Nothing was written: split it into smaller files"
            )
        left = secrets_in(relative, data)
        if left:
            kinds = ", ".join(sorted({found.kind for found in left}))
            raise MemoryToolError(
                f"The text of {path} holds a secret ({kinds}) that cannot be stored in "
                "memory. Nothing was written: leave the secret out"
            )
        return data

    def _fresh(self) -> dict[str, str]:
        """The metadata of a line the agent wrote through this tool."""
        metadata: dict[str, str] = {}
        if self.task:
            metadata["source"] = f"memrepo://tasks/{' '.join(self.task.split())}"
        metadata["added"] = self.folder.clock.now().date().isoformat()
        metadata.update(by="agent", origin=ORIGIN, tainted="yes")
        return metadata

    def _message(self, verb: str, what: str) -> str:
        return build_message(
            summarize(f"Memory tool: {verb.lower()}", what),
            origin=ORIGIN,
            by="agent",
            task=self.task,
        )


def _noted(result: str, redacted: tuple[str, ...]) -> str:
    """`result`, telling the model which secrets were kept out of the file."""
    if not redacted:
        return result
    return (
        f"{result}\nNote: {len(redacted)} secret(s) ({', '.join(sorted(set(redacted)))}) "
        "were replaced by a redaction marker; secrets are never kept in memory."
    )


def _lines_of(text: str, needle: str) -> list[int]:
    """The 1-based line of each start of `needle` in `text`."""
    found, start = [], text.find(needle)
    while start != -1:
        found.append(text.count("\n", 0, start) + 1)
        start = text.find(needle, start + 1)
    return found


def _snippet(text: str, changed: int) -> str:
    lines = text.split("\n")
    first, last = max(0, changed - _SNIPPET), min(len(lines), changed + _SNIPPET + 1)
    return "\n".join(f"{n + 1:>6}\t{lines[n]}" for n in range(first, last))
