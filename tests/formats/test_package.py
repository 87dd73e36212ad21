"""The package's public face and its place at the bottom of the layers."""

from __future__ import annotations

import ast
from pathlib import Path

import memrepo.formats

PACKAGE = Path(memrepo.formats.__file__).parent


def test_all_is_sorted_and_exported() -> None:
    names = memrepo.formats.__all__
    assert names == sorted(names)
    for name in names:
        assert getattr(memrepo.formats, name).__doc__, name


def test_formats_imports_nothing_of_ours_but_errors_and_the_layout() -> None:
    """The layout (memrepo/layout.py, where MEMORY.md is named) is as pure as formats."""
    allowed = ("memrepo.formats", "memrepo.errors", "memrepo.layout")
    for module in PACKAGE.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "memrepo" or name.startswith("memrepo."):
                    assert name.startswith(allowed), f"{module.name} imports {name}"


def test_formats_does_no_io() -> None:
    for module in PACKAGE.glob("*.py"):
        source = module.read_text(encoding="utf-8")
        for banned in ("open(", "pathlib", "import os", "subprocess"):
            assert banned not in source, f"{module.name} uses {banned}"
