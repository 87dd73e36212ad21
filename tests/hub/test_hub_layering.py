"""The hub is a face: it holds no memory rules and touches no store itself (issue #19).

Checked on the source: memrepo/hub imports of memrepo only the engine (`MemoryRepo`),
the models and the errors, nothing that reaches git, SQLite or the index (pygit2,
sqlite3, whoosh, subprocess), and it never reaches through a repo into its services
(`repo.folder`, `repo.items`, `repo.searcher`, ...)."""

from __future__ import annotations

import ast
from pathlib import Path

import memrepo

HUB = Path(memrepo.__file__).parent / "hub"
#: memrepo.serving holds no memory rule: the worker thread, socket and uvicorn server
#: the hub shares with `memrepo mcp --http`; memrepo.layout only names where things live
#: and how refs are spelled (pure, no store); memrepo.progress is the channel long work
#: reports on (it imports nothing of ours); memrepo.dreaming.openai is the dream model
#: `memrepo dream --model` uses, an HTTP client to the model that reaches no store;
#: memrepo.index.dates reads the words of a due date (pure: `re` and `datetime` only),
#: as `remember --due` does, until the engine's `edit` takes a due date itself.
ALLOWED_OURS = (
    "memrepo.engine", "memrepo.models", "memrepo.errors", "memrepo.hub", "memrepo.serving",
    "memrepo.layout", "memrepo.progress", "memrepo.dreaming.openai", "memrepo.index.dates",
)  # fmt: skip
#: What one file may do beyond the rule, and why. serve.py starts the daily maintenance
#: pass while the hub runs, as `memrepo mcp` does (issue #32): the background start
#: launches a process of its own, and wants the repo's state folder, which the engine
#: exposes only through `repo.folder`.
EXCEPTIONS = {
    "serve.py": ("imports memrepo.maintenance.background", "reaches .folder"),
}
FOREIGN_STORES = ("pygit2", "sqlite3", "whoosh", "subprocess")
#: A result's `store` field ("folder" / "items") is fine; `repo.items.store` is caught at `.items`.
SERVICES = frozenset({"folder", "items", "searcher", "swarms", "context_builder"})


def problems(source: str) -> list[str]:
    """What in `source` breaks the rule, one line each."""
    found: list[str] = []
    tree = ast.parse(source)
    calls = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "memrepo":
                names = [f"memrepo.{alias.name}" for alias in node.names]
        for name in names:
            top = name.split(".")[0]
            if top in FOREIGN_STORES:
                found.append(f"imports {name}")
            if top == "memrepo" and not name.startswith(ALLOWED_OURS):
                found.append(f"imports {name}")
        if isinstance(node, ast.Attribute) and node.attr in SERVICES and id(node) not in calls:
            found.append(f"line {node.lineno}: reaches .{node.attr}")
    return found


def test_the_rule_catches_what_it_forbids() -> None:
    bad = (
        "import pygit2\nfrom memrepo.folder.repo import MemoryFolder\nimport sqlite3\n"
        "from memrepo import items\nx = repo.items.store\ny = repo.folder.log()\n"
    )
    assert len(problems(bad)) == 6
    assert problems("from memrepo.engine import MemoryRepo\nfor k, v in d.items(): pass\n") == []


def test_memrepo_hub_calls_memory_repo_only() -> None:
    files = sorted(HUB.rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        allowed = EXCEPTIONS.get(str(path.relative_to(HUB)), ())
        found = problems(path.read_text(encoding="utf-8"))
        assert [p for p in found if not p.endswith(allowed)] == [], path.relative_to(HUB)


def test_templates_and_static_load_nothing_from_elsewhere() -> None:
    for path in sorted((HUB / "templates").glob("*.html")) + sorted((HUB / "static").glob("*")):
        text = path.read_text(encoding="utf-8")
        for needle in ("http://", "https://", "//cdn", "@import"):
            assert needle not in text, f"{path.name} has {needle}"
        assert " style=" not in text and "<style" not in text, path.name  # CSP: no inline style
        assert "onclick=" not in text and "<script>" not in text, path.name  # nor inline script
