"""The layering of docs/architecture.md §1, checked on the source so a reach upwards fails
a test."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memrepo

PACKAGE = Path(memrepo.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def ours(modules: set[str]) -> set[str]:
    return {m for m in modules if m == "memrepo" or m.startswith("memrepo.")}


def test_formats_and_hygiene_import_nothing_above_them() -> None:
    for layer, allowed in (("formats", {"memrepo.errors", "memrepo.layout"}), ("hygiene", set())):
        for path in (PACKAGE / layer).rglob("*.py"):
            reached = {
                m
                for m in ours(imported_modules(path))
                if not m.startswith(f"memrepo.{layer}") and m not in allowed
            }
            assert reached == set(), f"{path.relative_to(PACKAGE)} imports {reached}"


@pytest.mark.slow
def test_no_library_module_imports_the_cli() -> None:
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("cli/") or relative == "__main__.py":
            continue
        reached = {m for m in imported_modules(path) if m.startswith("memrepo.cli")}
        assert reached == set(), relative


#: The one module that imports Whoosh (issue #33): pinned, its internals listed there.
WHOOSH_DOOR = "index/whoosh_door.py"


@pytest.mark.slow
def test_only_items_opens_sqlite_and_only_one_door_opens_whoosh() -> None:
    """One writer per store (docs/architecture.md §1): only `items/` talks to SQLite
    (readers that must not change it use `items/readonly.py`); Whoosh is imported by one
    module of `index/` and nothing above `index/` reaches that module."""
    sqlite, whoosh, door = set(), set(), set()
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        modules = imported_modules(path)
        if "sqlite3" in modules and not relative.startswith("items/"):
            sqlite.add(relative)
        if any(m == "whoosh" or m.startswith("whoosh.") for m in modules):
            whoosh.add(relative)
        if "memrepo.index.whoosh_door" in modules and not relative.startswith("index/"):
            door.add(relative)
    assert sqlite == set()
    assert whoosh == {WHOOSH_DOOR}
    assert door == set()


@pytest.mark.slow
def test_only_the_git_layers_import_pygit2() -> None:
    """The memory repo's own tree and refs belong to folder/; sync/ also talks to remotes
    and keeps the read-only team clones."""
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("folder/", "sync/")):
            continue
        assert "pygit2" not in imported_modules(path), relative


def test_public_names_are_sorted_and_importable() -> None:
    assert memrepo.__all__ == sorted(memrepo.__all__)
    for name in memrepo.__all__:
        assert getattr(memrepo, name) is not None


def test_every_error_derives_from_memrepo_error() -> None:
    from memrepo import errors

    classes = [
        obj
        for obj in vars(errors).values()
        if isinstance(obj, type)
        and issubclass(obj, Exception)
        and obj.__module__ == errors.__name__
    ]
    assert len(classes) >= 10
    for cls in classes:
        assert issubclass(cls, errors.MemrepoError), cls
        assert cls.__name__ in (errors.__doc__ or ""), f"{cls.__name__} missing from the tree"


def test_importing_memrepo_leaves_the_heavy_parts_unloaded() -> None:
    """A one-shot CLI command pays for what it runs: tools, dreaming, sync, swarms and
    the MCP server load on first use, not on `import memrepo`."""
    import subprocess
    import sys

    probe = (
        "import sys, memrepo; "
        "print(' '.join(m for m in ('memrepo.tools', 'memrepo.dreaming', 'memrepo.sync', "
        "'memrepo.swarm', 'memrepo.mcp', 'memrepo.transfer', 'memrepo.health', 'whoosh', "
        "'markdown_it') if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []


def test_lazy_public_names_resolve_to_their_modules() -> None:
    from memrepo.tools import MemoryTools

    assert memrepo.MemoryTools is MemoryTools
    assert "resolve_memory_injection" in memrepo.__all__


@pytest.mark.slow
def test_no_two_literal_types_list_the_same_values_in_another_order() -> None:
    """typing caches `Literal[...] | None` by the set of its values, so two Literals with
    the same values in different orders make a JSON schema's enum order depend on which
    module built the union first (an MCP tool list once changed with test order)."""
    orders: dict[frozenset[object], dict[tuple[object, ...], str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal"):
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            values = tuple(p.value for p in parts if isinstance(p, ast.Constant))
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
            orders.setdefault(frozenset(values), {}).setdefault(values, where)
    clashes = [sorted(found.values()) for found in orders.values() if len(found) > 1]
    assert clashes == []
