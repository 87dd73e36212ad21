"""What to type to add an extra (`hub`, `mcp`, ...) to the memrepo that is running.

memrepo is not on a package index yet, so `pip install 'memrepo[hub]'` only works where
it was installed from one. Where it came from decides the command:

- run from a checkout (an editable install, or `PYTHONPATH`): `pip install -e '.[hub]'`
  (the checkout's path when the current folder is another);
- installed from a local folder (`pip install .`, recorded in the installed package's
  `direct_url.json`, PEP 610): `pip install '/path/to/checkout[hub]'`;
- anything else: `pip install 'memrepo[hub]'`.

`pip` is the one beside the running interpreter; when the `pip` on PATH is another (a
virtualenv that is not activated, pipx), the line names `python -m pip` by its path.
Imported by a command that needs an extra (`hub`, `mcp`) when it runs, never at start-up;
the installed package's metadata is read only when a module is missing.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from memrepo.errors import InvalidArgument

__all__ = ["Origin", "install_command", "origin", "require_extra"]

PACKAGE = "memrepo"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where the running memrepo was installed from: a local folder (a checkout) and
    whether it is installed editable, or `checkout=None` for a package index."""

    checkout: Path | None = None
    editable: bool = False


def require_extra(command: str, extra: str, modules: Iterable[str]) -> None:
    """Refuse `command` before it starts while a module of its `extra` is missing: one
    error that names the missing modules and the command line that adds them here, rather
    than an ImportError halfway through."""
    absent = [name for name in modules if importlib.util.find_spec(name) is None]
    if absent:
        line = install_command(extra, origin(), Path.cwd(), _pip())
        raise InvalidArgument(
            f"{command} needs the '{extra}' extra ({', '.join(absent)} missing): {line}"
        )


def origin() -> Origin:
    """Where this memrepo came from (see the module docstring)."""
    source = Path(__file__).resolve().parents[2]  # memrepo/cli/extras.py -> the project
    if (source / "pyproject.toml").is_file() and (source / PACKAGE).is_dir():
        return Origin(source, editable=True)
    from importlib import metadata

    try:
        recorded = metadata.distribution(PACKAGE).read_text("direct_url.json")
        direct = json.loads(recorded) if recorded else {}
    except (metadata.PackageNotFoundError, ValueError):
        return Origin()
    url = urlparse(str(direct.get("url", "")))
    info = direct.get("dir_info")
    if url.scheme != "file" or not isinstance(info, dict):
        return Origin()  # an index, a wheel file or a VCS URL: the index line is the one
    return Origin(Path(unquote(url.path)), editable=bool(info.get("editable")))


def install_command(extra: str, where: Origin, cwd: Path, pip: str = "pip") -> str:
    """The command line that installs `extra` for memrepo installed from `where`, typed
    in `cwd`."""
    if where.checkout is None:
        return f"{pip} install {shlex.quote(f'{PACKAGE}[{extra}]')}"
    folder = "." if where.checkout.resolve() == cwd.resolve() else str(where.checkout)
    editable = " -e" if where.editable else ""
    return f"{pip} install{editable} {shlex.quote(f'{folder}[{extra}]')}"


def _pip() -> str:
    """`pip` when the one on PATH is this interpreter's, else `python -m pip` by path."""
    here = Path(sys.executable).parent
    found = shutil.which("pip")
    if found is not None and Path(found).parent == here:
        return "pip"
    return f"{shlex.quote(sys.executable)} -m pip"
