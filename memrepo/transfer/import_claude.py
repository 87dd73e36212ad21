"""Reading Claude Code's memory from disk: the auto-memory folder and CLAUDE.md files.

An auto-memory folder is read in two passes: the first collects each memory file's
`name`, so a link between memories (`[label](other.md)`) is kept as the linked memory's
name; both passes walk the folder as `sources.walk_markdown` does (no symlink out).

CLAUDE.md files are read from a project folder (`CLAUDE.md`, `.claude/CLAUDE.md`,
`CLAUDE.local.md`, and every rule file under `.claude/rules/`, subfolders included),
from `~/.claude` (the user's `CLAUDE.md` and `~/.claude/rules/`), or named one by one, and
their `@path` imports are followed like Claude Code follows them (relative to the
importing file, `~/` from the home folder, five hops at most) with three rules of our
own, because an import is a path someone else wrote:

* an import may only name a file inside the imported folder or `~/.claude` (where
  Claude Code's docs put personal imports); any other path, or a path whose symlinks
  lead out of those roots, stops the whole import with an error naming the line;
* an import cycle is an error (Claude Code would read each file once; a cycle is
  almost always a mistake worth seeing), while the same file imported twice is read once;
* a missing file, an import deeper than five hops and an import of a file that is not
  markdown (`@package.json` is context for Claude, not memory) are reported, and
  everything else is imported.

Facts are named by their path inside the imported folder, or `~/.claude/...`: never by
where they sit on this machine.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memrepo.errors import ImportSourceError
from memrepo.formats.importers import (
    Fact,
    Import,
    Rejected,
    memory_name,
    read_claude_md,
    read_memory_file,
)
from memrepo.formats.importers.claude_md import MAX_IMPORT_HOPS, is_markdown
from memrepo.transfer.sources import MAX_FILE_BYTES, walk_markdown

Item = Fact | Rejected
#: Where Claude Code looks for instructions in a project folder, in its load order.
CLAUDE_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
LOCAL_FILE = "CLAUDE.local.md"
#: Claude Code's modular rules (its memory docs, "Organize rules with .claude/rules/"):
#: markdown files loaded like CLAUDE.md, scoped to files by a `paths:` frontmatter.
RULES_DIR = ".claude/rules"


def auto_memory(root: Path) -> Iterator[Item]:
    """Every fact of an auto-memory folder, links between memories resolved to names."""
    root = root.resolve()
    names: dict[str, str] = {}
    for relative, data in walk_markdown(root):
        if isinstance(data, bytes) and (name := memory_name(data, relative)):
            names[relative] = name
    for relative, data in walk_markdown(root):
        if isinstance(data, Rejected):
            yield data
        else:
            yield from read_memory_file(data, relative, names)


def has_claude_md(folder: Path) -> bool:
    """Whether a folder holds any file Claude Code reads as CLAUDE.md (or rules)."""
    return (
        any(os.path.lexists(folder / name) for name in CLAUDE_FILES) or _rules_dir(folder).is_dir()
    )


def claude_md(path: Path, home: Path) -> Iterator[Item]:
    """Every fact of the CLAUDE.md files at `path` (a folder or one file), of its rule
    files and of what they import; ImportSourceError for an import that breaks the
    rules above."""
    if path.is_dir():
        root = path
        entries = [path / name for name in CLAUDE_FILES if os.path.lexists(path / name)]
        entries += _rule_files(_rules_dir(path))
    else:
        root, entries = path.parent, [path]
    reader = _ImportReader(root, home)
    for entry in entries:
        yield from reader.entry(entry)


def _rules_dir(folder: Path) -> Path:
    """A project's `.claude/rules`, or `rules` when the folder is a `.claude` itself."""
    if folder.name == ".claude":
        return folder / "rules"
    return folder / RULES_DIR


def _rule_files(rules: Path) -> list[Path]:
    """Every `.md` file under a rules folder, subfolders included, sorted; symlinks are
    left to the reader's checks (it refuses one leading out of the allowed roots)."""
    if not rules.is_dir():
        return []
    found: list[Path] = []
    for folder, dirs, files in os.walk(rules, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".md")]
    return found


class _ImportReader:
    """Follows the imports of one import's CLAUDE.md files, inside the allowed roots."""

    def __init__(self, root: Path, home: Path) -> None:
        self.claude_home = Path(os.path.normpath(home / ".claude"))
        self.lexical_roots = (Path(os.path.normpath(root)), self.claude_home)
        self.real_roots = tuple(r.resolve() for r in self.lexical_roots)
        self.root = self.lexical_roots[0]
        self.home = home
        self.done: set[Path] = set()

    def entry(self, file: Path) -> Iterator[Item]:
        lexical = Path(os.path.normpath(file))
        real = self._check(lexical, self.name(lexical))
        if real in self.done:
            return
        yield from self._read(lexical, real, (real,), 0, file.name == LOCAL_FILE)

    def name(self, lexical: Path) -> str:
        """How the import names a file: `~/.claude/...` or its path in the folder."""
        for base, prefix in ((self.claude_home, "~/.claude/"), (self.root, "")):
            if lexical == base or base in lexical.parents:
                return prefix + lexical.relative_to(base).as_posix()
        return lexical.name  # only a root file named directly; roots hold everything else

    def _read(
        self, lexical: Path, real: Path, chain: tuple[Path, ...], hops: int, private: bool
    ) -> Iterator[Item]:
        self.done.add(real)
        shown = self.name(lexical)
        got = read_claude_md(_read_bytes(real, shown), shown, private=private)
        if isinstance(got, Rejected):
            reason = " ".join(got.message.split())  # YAML errors span lines: keep one
            raise ImportSourceError(f"{shown}: {reason}; nothing was imported")
        yield from got.items
        for found in got.imports:
            yield from self._follow(found, lexical, chain, hops, private)

    def _follow(
        self, found: Import, importer: Path, chain: tuple[Path, ...], hops: int, private: bool
    ) -> Iterator[Item]:
        """The facts one import brings, or why it brings none."""
        shown = self.name(importer)
        where = f"{shown}:{found.line}: @{found.target}"

        def skip(reason: str, message: str, *, quiet: bool = False) -> Iterator[Item]:
            yield Rejected(shown, found.line, reason, f"@{found.target} {message}", quiet=quiet)

        if not is_markdown(found.target):
            yield from skip("import_not_markdown", "is context for Claude, not memory", quiet=True)
            return
        target = self._locate(found.target, importer)
        real = self._check(target, where)
        if real in chain:
            names = " -> ".join([*(self._shown(p) for p in chain), self.name(target)])
            raise ImportSourceError(f"{where}: an @import cycle ({names}); nothing imported")
        if real in self.done:
            return  # imported twice (not in a cycle): its facts are in already
        if not real.exists():
            yield from skip("import_missing", "names no file; the rest was imported")
        elif hops + 1 > MAX_IMPORT_HOPS:
            yield from skip(
                "import_too_deep",
                f"is more than {MAX_IMPORT_HOPS} imports deep; Claude Code does not read it, "
                "so neither does memrepo",
            )
        else:
            yield from self._read(target, real, (*chain, real), hops + 1, private)

    def _shown(self, real: Path) -> str:
        for lexical, resolved in zip(self.lexical_roots, self.real_roots, strict=True):
            if real == resolved or resolved in real.parents:
                return self.name(lexical / real.relative_to(resolved))
        return real.name

    def _locate(self, target: str, importer: Path) -> Path:
        if target.startswith("~/"):
            path = self.home / target[2:]
        elif target.startswith("/"):
            path = Path(target)
        else:
            path = importer.parent / target
        return Path(os.path.normpath(path))

    def _check(self, lexical: Path, where: str) -> Path:
        """The real path of an allowed file; ImportSourceError for any other."""
        if not any(_inside(lexical, root) for root in self.lexical_roots):
            raise ImportSourceError(
                f"{where}: outside the imported folder and ~/.claude; memrepo follows "
                "imports only inside those (nothing was imported)"
            )
        real = lexical.resolve()
        if not any(_inside(real, root) for root in self.real_roots):
            raise ImportSourceError(
                f"{where}: a symlink leads out of the imported folder and ~/.claude; "
                "memrepo does not follow it (nothing was imported)"
            )
        return real


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _read_bytes(real: Path, shown: str) -> bytes:
    """A regular file's bytes, opened without following a symlink swapped in since the
    path was checked; ImportSourceError when it cannot be read or is too large."""
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ImportSourceError(f"{shown}: cannot be read: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ImportSourceError(f"{shown}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise ImportSourceError(
                f"{shown}: {info.st_size:,} bytes; a CLAUDE.md file is at most "
                f"{MAX_FILE_BYTES:,} bytes (nothing was imported)"
            )
        return handle.read(MAX_FILE_BYTES + 1)
