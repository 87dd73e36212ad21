"""The layering of docs/architecture.md §1, by rank: a module may import its own area and
any area ranked below it, nothing level with it or above. Every import counts: relative
ones resolved, type-only ones (`if TYPE_CHECKING:`) and ones inside functions included,
since each is a dependency a reader must follow. Nothing breaks the rule today:
`KNOWN_UPWARD` is empty and stays so (a new reach upwards fails), and `KNOWN_CIRCLES`
holds the one circle inside an area that is a design (the tour re-entering the CLI);
both lists can only shrink: an entry that no longer happens fails too (delete it)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import memrepo

PACKAGE = Path(memrepo.__file__).parent

#: Areas (a subpackage or a top-level module of memrepo) by rank, lowest first.
RANKS: dict[str, int] = {
    **dict.fromkeys(("errors", "lazy", "clock", "progress", "layout", "version"), 0),
    **dict.fromkeys(("formats", "hygiene", "_platform"), 1),
    **dict.fromkeys(("models", "diskio"), 2),
    "config": 3,
    "held": 3,
    "routing": 4,
    **dict.fromkeys(("items", "index"), 5),
    "folder": 6,
    "stores": 7,
    "recall": 8,
    **dict.fromkeys(
        ("swarm", "sync", "dreaming", "transfer", "health", "meaning", "memtool", "maintenance"), 9
    ),
    "engine": 10,
    **dict.fromkeys(("tools", "evals", "serving"), 11),
    **dict.fromkeys(("mcp", "hub"), 12),
    "cli": 13,
    **dict.fromkeys(("memrepo", "__main__"), 14),
}

#: Imports that break the ranks today, "importer -> imported" by module. Only shrinks.
KNOWN_UPWARD: frozenset[str] = frozenset()

#: Import circles inside one area today, each a sorted list of modules. Only shrinks.
KNOWN_CIRCLES: list[list[str]] = [
    # The tour (`memrepo demo`) runs the real CLI it is a command of: a re-entry of the
    # dispatcher, not two modules tangled (the demo needs `main`, nothing else of cli).
    ["memrepo.cli", "memrepo.cli.demo", "memrepo.cli.folder"],
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def resolve(name: str) -> str:
    """The module an import names: `from memrepo.x import y` is `memrepo.x.y` when that
    is a module, else `memrepo.x`."""
    known = modules()
    while name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


@cache
def imports_of(path: Path) -> tuple[str, ...]:
    """Every module of ours `path` imports, anywhere in the file."""
    return tuple(_imports(path))


def _imports(path: Path) -> Iterator[str]:
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name == "memrepo" or name.startswith("memrepo."):
                yield resolve(name)


def area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "memrepo"


def upward_imports() -> set[str]:
    found: set[str] = set()
    for name, path in modules().items():
        mine = area(name)
        for target in imports_of(path):
            theirs = area(target)
            if theirs != mine and RANKS[theirs] >= RANKS[mine]:
                found.add(f"{name} -> {target}")
    return found


def test_every_area_has_a_rank() -> None:
    assert {area(name) for name in modules()} <= RANKS.keys()


@pytest.mark.slow
def test_imports_point_down_the_ranks() -> None:
    found = upward_imports()
    new = sorted(found - KNOWN_UPWARD)
    assert not new, "imports that reach up or sideways (docs/architecture.md §1):\n" + "\n".join(
        new
    )


@pytest.mark.slow
def test_the_list_of_known_upward_imports_only_shrinks() -> None:
    gone = sorted(KNOWN_UPWARD - upward_imports())
    assert not gone, "no longer happen, delete them from KNOWN_UPWARD:\n" + "\n".join(gone)


def circles_inside_areas() -> list[list[str]]:
    """Import circles among the modules of one area (a circle across areas needs an
    import up or sideways, which the rank test already refuses)."""
    graph = {
        name: {t for t in imports_of(path) if area(t) == area(name) and t != name}
        for name, path in modules().items()
    }
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            circle = []
            while (member := stack.pop()) != node:
                circle.append(member)
            if circle:
                circles.append(sorted([*circle, node]))

    for name in sorted(graph):
        if name not in order:
            visit(name)
    return circles


@pytest.mark.slow
def test_no_new_import_circle_inside_an_area() -> None:
    found = circles_inside_areas()
    assert [c for c in found if c not in KNOWN_CIRCLES] == []
    gone = [c for c in KNOWN_CIRCLES if c not in found]
    assert not gone, f"no longer circles, delete them from KNOWN_CIRCLES: {gone}"
