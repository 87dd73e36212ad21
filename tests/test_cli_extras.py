"""`memrepo hub` and `memrepo mcp` without their extra name the install command that works
where memrepo runs (issue #31): memrepo is not on a package index, so from a checkout
`pip install 'memrepo[hub]'` fails; the checkout's own line does not.

The commands run as their own process from this checkout, with a module of the extra
hidden (`sys.modules[name] = None`, which import and `find_spec` treat as absent).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from memrepo.cli import hub, mcp
from memrepo.cli.extras import Origin, install_command, origin

PROJECT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
HIDING = (
    "import sys\n"
    "for name in sys.argv[1].split(','): sys.modules[name] = None\n"
    "del sys.argv[1]\n"
    "from memrepo.cli import main\n"
    "sys.exit(main())\n"
)


def without(hidden: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run(
        [sys.executable, "-c", HIDING, hidden, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )


def test_from_the_checkout_the_hint_is_the_checkout_s_own_install(tmp_path: Path) -> None:
    done = without("uvicorn", "--repo", str(tmp_path / "mem"), "hub", cwd=PROJECT)
    assert (done.returncode, done.stdout) == (1, "")
    assert re.fullmatch(
        r"memrepo: memrepo hub needs the 'hub' extra \(uvicorn missing\): "
        r"(pip|\S+ -m pip) install -e '\.\[hub\]'\n",
        done.stderr,
    ), done.stderr


def test_from_another_folder_the_hint_names_the_checkout_by_its_path(tmp_path: Path) -> None:
    done = without("mcp", "--repo", str(tmp_path / "mem"), "mcp", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.endswith(f" install -e '{PROJECT}[mcp]'\n"), done.stderr
    assert "(mcp missing)" in done.stderr and "memrepo[mcp]" not in done.stderr


def test_mcp_over_http_needs_its_server_too(tmp_path: Path) -> None:
    done = without("starlette", "--repo", str(tmp_path / "mem"), "mcp", "--http", cwd=PROJECT)
    assert done.returncode == 1
    assert "memrepo mcp needs the 'mcp' extra (starlette missing): " in done.stderr


def test_this_checkout_runs_as_an_editable_install() -> None:
    assert origin() == Origin(PROJECT, editable=True)


@pytest.mark.parametrize(
    ("where", "cwd", "line"),
    [
        (Origin(Path("/src/memrepo"), editable=True), "/src/memrepo", "pip install -e '.[hub]'"),
        (Origin(Path("/src/memrepo"), editable=True), "/home/ana",
         "pip install -e '/src/memrepo[hub]'"),
        (Origin(Path("/src/memrepo"), editable=False), "/home/ana",
         "pip install '/src/memrepo[hub]'"),
        (Origin(Path("/src/my memrepo")), "/home/ana", "pip install '/src/my memrepo[hub]'"),
        (Origin(), "/home/ana", "pip install 'memrepo[hub]'"),
    ],
    ids=["checkout-here", "checkout-elsewhere", "installed-from-folder", "spaces", "index"],
)  # fmt: skip
def test_the_install_line_for_each_origin(where: Origin, cwd: str, line: str) -> None:
    assert install_command("hub", where, Path(cwd)) == line


def test_each_extra_holds_what_its_command_checks_for() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]

    def names(extra: str) -> set[str]:
        return {
            re.split(r"[<>=!\[ ;]", requirement, maxsplit=1)[0] for requirement in extras[extra]
        }

    assert set(hub.EXTRA_MODULES) <= names("hub")
    assert {*mcp.EXTRA_MODULES, *mcp.HTTP_EXTRA_MODULES} <= names("mcp")  # `mcp --http`
