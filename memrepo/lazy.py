"""Names a package re-exports but imports only on first access (PEP 562).

`import memrepo` runs on every CLI command; the tool schemas, dreaming, transfer and the
item store are only paid for by the commands that use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any


def load_attribute(
    package: str, name: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> Any:
    """`name` from the module `homes` names for it, kept in `namespace` (the package's
    globals) so the next access is a plain lookup."""
    module = homes.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    namespace[name] = value
    return value
