"""Where `/memories` lives in the memory repo, and which of its paths a caller may touch.

The memory tool's contract names every file under one virtual directory, `/memories`.
A person chooses the folder of the memory repo it stands for (`memories/` unless they
say otherwise; `""` is the whole repo). Every path a command names is checked here
before anything is read: it starts at `/memories`, stays inside it (no `..`, no hidden
names, so never `.git`), is stored as markdown (`stored_name`), passes the folder's own path rules
(`folder.paths.check_path`: length, characters, no secret) and no component on disk
is a symlink. What the caller may not see (a swarm folder, another workspace's file)
does not exist for it, the same rule `memory_read` follows (`folder.paths.visible_to`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from memrepo.errors import MemoryToolError, MemrepoError, SecretInName
from memrepo.folder.paths import check_path, visible_to
from memrepo.hygiene import redact_secrets

VIRTUAL_ROOT = "/memories"
DEFAULT_FOLDER = "memories"
#: The memory repo keeps markdown only; a model names its files as it likes (Anthropic's
#: own examples use `.xml` and `.txt`). Such a file is stored with `.md` added, so git,
#: lint and the index treat it as memory, and shown to the model by the name it gave.
SHOWN_AS_IS = (".txt", ".xml", ".json", ".yaml", ".yml", ".csv", ".log", ".html", ".toml")


def stored_name(relative: str) -> str:
    """Where the file a model names is kept: itself for markdown, else with `.md`."""
    return relative if relative.endswith(".md") else relative + ".md"


def shown_name(stored: str) -> str:
    """The name a model gave a stored file (`notes.txt.md` is `notes.txt`)."""
    inner = stored[:-3] if stored.endswith(".md") else stored
    return inner if inner.endswith(SHOWN_AS_IS) else stored


@dataclass(frozen=True, slots=True)
class Mount:
    """`/memories` mapped onto `folder` (root-relative, "" for the root) of `root`, as
    seen by a caller working in `workspace`."""

    root: Path
    folder: str = DEFAULT_FOLDER
    workspace: str | None = None

    @classmethod
    def of(cls, root: Path, folder: str, workspace: str | None = None) -> Mount:
        """The mount a person chose: `folder` root-relative ("" the whole repo), a
        folder the memory tool may write (not `.git`, not the swarm folders)."""
        cleaned = "/".join(p for p in folder.strip().strip("/").split("/") if p not in ("", "."))
        if cleaned:
            if any(part == ".." or part.startswith(".") for part in cleaned.split("/")):
                raise MemoryToolError(f"folder {folder!r}: no '..' and no hidden names")
            try:
                check_path(cleaned, root)
            except MemrepoError as exc:
                raise MemoryToolError(f"folder {folder!r}: {_reason(exc)}") from exc
            if not visible_to(cleaned, None) or cleaned.endswith(".md"):
                raise MemoryToolError(
                    f"folder {folder!r}: the memory tool needs a folder of its own, "
                    "not a swarm folder or a memory file"
                )
        return cls(root, cleaned, workspace)

    def resolve(self, path: object, *, field: str = "path") -> str:
        """The root-relative path `path` names ("" or the folder itself for
        `/memories`); MemoryToolError when it is not one a command may touch."""
        if not isinstance(path, str) or not path:
            raise MemoryToolError(f"`{field}` must be a path under {VIRTUAL_ROOT}")
        if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
            raise MemoryToolError(f"Path must start with {VIRTUAL_ROOT}, got: {path}")
        parts = [p for p in path[len(VIRTUAL_ROOT) :].split("/") if p not in ("", ".")]
        if any(part == ".." for part in parts):
            raise MemoryToolError(f"Path {path} would escape {VIRTUAL_ROOT} directory")
        if any(part.startswith(".") for part in parts):
            raise MemoryToolError(f"Path {path}: hidden names (starting with '.') are not memory")
        relative = "/".join([p for p in (self.folder,) if p] + parts)
        if relative and not self.visible(relative):
            raise MemoryToolError(
                f"Path {path} is not visible to this task (a swarm folder or another "
                "workspace's file)"
            )
        if relative:
            try:
                check_path(relative, self.root)
            except MemrepoError as exc:
                shown = redact_secrets(path)[0]  # the model reads it: never a secret back
                raise MemoryToolError(f"Path {shown}: {_reason(exc)}") from exc
        self._refuse_symlinks(path, relative)
        return relative

    def file(self, path: object, *, field: str = "path") -> str:
        """`resolve` for a path that names a file: where it is stored (`stored`)."""
        relative = self.resolve(path, field=field)
        if relative == self.folder:
            raise MemoryToolError(f"The path {path} is the {VIRTUAL_ROOT} directory, not a file")
        stored = stored_name(relative)
        if stored != relative:
            try:
                check_path(stored, self.root)
            except MemrepoError as exc:
                raise MemoryToolError(
                    f"Path {redact_secrets(str(path))[0]}: {_reason(exc)}"
                ) from exc
        return stored

    def virtual(self, relative: str) -> str:
        """The `/memories/...` spelling of a root-relative path inside the folder."""
        inside = relative[len(self.folder) :].lstrip("/") if self.folder else relative
        return f"{VIRTUAL_ROOT}/{inside}" if inside else VIRTUAL_ROOT

    def visible(self, relative: str) -> bool:
        """Whether the caller may see `relative` (a path inside the folder)."""
        return visible_to(relative, self.workspace)

    def _refuse_symlinks(self, path: str, relative: str) -> None:
        current = self.root
        for part in PurePosixPath(relative).parts:
            current = current / part
            if current.is_symlink():
                raise MemoryToolError(
                    f"Path {path} would escape {VIRTUAL_ROOT} directory via symlink"
                )


def _reason(exc: MemrepoError) -> str:
    """The rule a path broke, without the advice to use a relative path (a model
    writes `/memories/...` paths, which are absolute by the contract)."""
    if isinstance(exc, SecretInName):
        return str(exc)
    return str(exc).split(": ", 1)[-1].split("; use a relative path", 1)[0]
