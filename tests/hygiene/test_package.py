"""The package's public face and its place at the bottom of the layers."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import memrepo.hygiene as hygiene

PACKAGE_DIR = Path(hygiene.__file__).parent

# hygiene is pure: text in, text out. Nothing that touches files, processes, the network
# or the clock, and nothing else of memrepo.
ALLOWED_IMPORTS = {
    *("__future__", "base64", "binascii", "collections", "collections.abc", "dataclasses"),
    *("json", "math", "re", "typing", "unicodedata"),
    # hashlib: the checksums of base58check wallet keys (pure computation). mnemonic: the
    # reference BIP-39 word list and checksum for seed phrases, imported lazily inside the
    # finder (it reads its own package data once; a copy of the list would drift).
    *("hashlib", "mnemonic"),
}

PUBLIC_API = {
    "MIN_CHARS",
    "REDACTION_MARKER",
    "SECRET_KINDS",
    "SKIP_REASONS",
    "Screened",
    "SecretMatch",
    "collapse_whitespace",
    "cut_at_word_boundary",
    "find_secrets",
    "has_letter_or_digit",
    "has_no_memory_marker",
    "is_telemetry",
    "redact_secrets",
    "redaction_marker",
    "screen",
}


def test_all_is_sorted_and_exact() -> None:
    assert hygiene.__all__ == sorted(hygiene.__all__)
    assert set(hygiene.__all__) == PUBLIC_API


def test_public_callables_and_classes_have_docstrings() -> None:
    for name in hygiene.__all__:
        obj = getattr(hygiene, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), name


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_imports_only_pure_standard_library() -> None:
    modules = sorted(PACKAGE_DIR.glob("*.py"))
    assert len(modules) >= 5
    for module in modules:
        unexpected = _imports(module) - ALLOWED_IMPORTS
        assert not unexpected, f"{module.name} imports {sorted(unexpected)}"


def test_no_file_access() -> None:
    for module in PACKAGE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input"}, module.name


def test_every_secret_pattern_has_a_bounded_width() -> None:
    """screen redacts only a window; that is exact only if no match can be wider than
    MAX_RULE_SPAN (and unbounded quantifiers are where catastrophic backtracking starts).
    """
    from re import _parser  # type: ignore[attr-defined]  # stdlib, no stub

    from memrepo.hygiene._rules import BOUNDED_PATTERNS, MAX_RULE_SPAN

    for pattern in BOUNDED_PATTERNS:
        _, widest = _parser.parse(pattern.pattern, pattern.flags).getwidth()
        # getwidth() leaves out lookarounds; ours look one character either side.
        assert widest + 2 <= MAX_RULE_SPAN, pattern.pattern
