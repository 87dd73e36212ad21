"""What gets installed is what the checkout runs (issue #18, Packaging).

The sdist and the wheel are built once for the module, as a release would build them
(`python -m build`: the sdist, then the wheel from the unpacked sdist, so a file the sdist
forgets breaks the wheel too). The sdist must carry the tests and their fixtures; the
wheel the eval fixtures, so `memrepo eval` runs from an install outside any checkout; the
metadata an SPDX license and POSIX-only classifiers. Where `fcntl` is missing (Windows),
memrepo says in one sentence that it needs a POSIX system: simulated in a subprocess
whose `sitecustomize` hides the module, the way a Python without it fails the import.
"""

from __future__ import annotations

import ast
import os
import site
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from email.message import Message
from email.parser import Parser
from importlib import metadata
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo._platform import PosixRequired
from memrepo.evals import DEFAULT_PATH

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Caches a checkout collects; MANIFEST.in prunes them, and so does this file's walk.
CACHES = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis", ".ruff_cache"}
EVAL_FILES = sorted(path.name for path in DEFAULT_PATH.glob("*.json"))


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel) of the checkout, built without build isolation (no network)."""
    pytest.importorskip("build", reason="the test extra installs `build` to build the dists")
    setuptools = metadata.version("setuptools")
    if int(setuptools.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools} predates PEP 639 licenses (the test extra asks 77)")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def sdist_names(sdist: Path) -> set[str]:
    """The sdist's files, relative to its top folder."""
    with tarfile.open(sdist) as archive:
        return {
            member.name.split("/", 1)[1]
            for member in archive.getmembers()
            if member.isfile() and "/" in member.name
        }


def sdist_metadata(sdist: Path) -> Message:
    with tarfile.open(sdist) as archive:
        (info,) = (m for m in archive.getmembers() if m.name.count("/") == 1 and
                   m.name.endswith("/PKG-INFO"))  # fmt: skip
        handle = archive.extractfile(info)
        assert handle is not None
        return Parser().parsestr(handle.read().decode("utf-8"))


def checkout_files(top: str) -> Iterator[str]:
    """Every file under `top` of the checkout, links followed, caches left out."""
    for folder, dirs, files in os.walk(ROOT / top, followlinks=True):
        dirs[:] = [d for d in dirs if d not in CACHES]
        for name in files:
            if not name.endswith((".pyc", ".pyo")):
                yield (Path(folder) / name).relative_to(ROOT).as_posix()


def test_the_sdist_carries_the_tests_and_their_fixtures(dists: tuple[Path, Path]) -> None:
    names = sdist_names(dists[0])
    for top in ("tests", "fixtures", "benchmarks"):
        missing = sorted(set(checkout_files(top)) - names)
        assert not missing, f"{top}/ files the sdist leaves out: {missing[:10]}"
    # fixtures/evals links to the package's copy; the sdist holds real files in both.
    assert {f"fixtures/evals/{name}" for name in EVAL_FILES} <= names
    assert {f"memrepo/evals_data/{name}" for name in EVAL_FILES} <= names
    assert {"LICENSE", "README.md", "pyproject.toml", "tests/conftest.py", ".ci/run"} <= names
    assert not [name for name in names if CACHES & set(name.split("/"))]


def test_the_metadata_has_an_spdx_license_and_says_posix_only(
    dists: tuple[Path, Path],
) -> None:
    info = sdist_metadata(dists[0])
    assert info["License-Expression"] == "MIT"
    assert info.get_all("License-File") == ["LICENSE"]
    assert info["License"] is None  # the deprecated free-text field
    classifiers = info.get_all("Classifier") or []
    assert "Operating System :: POSIX" in classifiers
    assert "Typing :: Typed" in classifiers
    assert not [
        c for c in classifiers if c.startswith(("License ::", "Operating System :: Microsoft"))
    ]
    assert "PyYAML>=6.0" in (info.get_all("Requires-Dist") or [])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_wheel_ships_the_eval_fixtures_and_the_license(dists: tuple[Path, Path]) -> None:
    with zipfile.ZipFile(dists[1]) as wheel:
        names = set(wheel.namelist())
    assert len(EVAL_FILES) >= 18
    assert {f"memrepo/evals_data/{name}" for name in EVAL_FILES} <= names
    assert "memrepo/py.typed" in names
    assert [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    assert not [n for n in names if n.startswith(("tests/", "fixtures/"))]


def test_every_third_party_module_memrepo_imports_is_declared() -> None:
    """A module imported directly must be a declared dependency (PyYAML was not), a
    runtime one or the extra of the command that needs it."""
    declared = {_dist_name(req) for req in PYPROJECT["project"]["dependencies"]}
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        declared |= {_dist_name(req) for req in extra}
    dists_of = metadata.packages_distributions()
    undeclared = {}
    for module in sorted(_imported_top_modules(ROOT / "memrepo")):
        names = {_normal(d) for d in dists_of.get(module, [])}
        if not names & declared:
            undeclared[module] = sorted(names)
    assert undeclared == {}


def _dist_name(requirement: str) -> str:
    for stop in "<>=!~;[ ":
        requirement = requirement.split(stop, 1)[0]
    return _normal(requirement)


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _imported_top_modules(package: Path) -> set[str]:
    """Top-level modules `package` imports, with `import` or `importlib.import_module`
    of a constant name, that are neither the standard library nor memrepo."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute | ast.Name)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m != "memrepo"}


@pytest.mark.slow
@pytest.mark.integration
def test_memrepo_eval_runs_from_an_installed_wheel(
    dists: tuple[Path, Path], tmp_path: Path
) -> None:
    """The wheel in a fresh venv (no checkout on its path: its dependencies come from
    this venv's site-packages), `memrepo eval` run from a folder outside the checkout."""
    # Nothing of the caller's path: a checkout on PYTHONPATH (with its egg-info) would
    # pass for the installed memrepo.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(dists[1])],
        check=True, timeout=300, env=env,
    )  # fmt: skip
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, env=env,
    ).stdout.strip()  # fmt: skip
    # A .pth line only appends a folder: the editable memrepo of this venv, itself a
    # .pth there, stays out, so `memrepo` can only come from the wheel.
    ours = {*site.getsitepackages(), sysconfig.get_path("purelib")}
    (Path(purelib) / "memrepo_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()

    where = subprocess.run(
        [str(python), "-c", "import memrepo.evals; print(memrepo.evals.DEFAULT_PATH)"],
        capture_output=True, text=True, cwd=work, env=env, check=False,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    done = subprocess.run(
        [str(venv / "bin" / "memrepo"), "eval"],
        capture_output=True, text=True, cwd=work, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0] for line in done.stdout.splitlines() if line.strip()}
    assert {name.removesuffix(".json") for name in EVAL_FILES} | {"overall"} <= rows


# A Python without fcntl, as on Windows: the import fails (sys.modules[name] = None is
# what the import system reads as "this module cannot be imported").
_NO_FCNTL = 'import sys\nsys.modules["fcntl"] = None\n'


@pytest.fixture
def no_fcntl_env(tmp_path: Path) -> dict[str, str]:
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "sitecustomize.py").write_text(_NO_FCNTL, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(site_dir)}


def _memrepo_command() -> list[str]:
    script = Path(sys.executable).parent / "memrepo"
    return [str(script)] if script.exists() else [sys.executable, "-m", "memrepo"]


@pytest.mark.integration
@pytest.mark.parametrize(
    "args",
    [
        ["init", "{tmp}/new"],
        ["--repo", "{tmp}/mem", "remember", "The staging database runs on port 5433"],
        ["--repo", "{tmp}/mem", "recall", "staging port"],
        ["eval", "--category", "keyword"],
    ],
    ids=["init", "remember", "recall", "eval"],
)
def test_without_fcntl_the_command_says_posix_in_one_line(
    args: list[str], tmp_path: Path, no_fcntl_env: dict[str, str]
) -> None:
    MemoryRepo.init(tmp_path / "mem")
    argv = [arg.format(tmp=tmp_path) for arg in args]
    done = subprocess.run(
        [*_memrepo_command(), *argv],
        capture_output=True, text=True, env=no_fcntl_env, cwd=tmp_path, timeout=120,
        check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"memrepo: {PosixRequired(sys.platform)}\n"
    assert "POSIX" in done.stderr
    assert not (tmp_path / "new").exists()


def test_without_fcntl_the_library_raises_an_import_error_saying_posix(
    no_fcntl_env: dict[str, str],
) -> None:
    """`import memrepo` loads only the errors; the first name that locks files raises
    PosixRequired, a MemrepoError and an ImportError."""
    code = (
        "import memrepo\n"
        "try:\n"
        "    from memrepo import MemoryRepo\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, isinstance(exc, memrepo.MemrepoError), exc, sep='|')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=no_fcntl_env,
        timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout == f"PosixRequired|True|{PosixRequired(sys.platform)}\n"
    uncaught = subprocess.run(
        [sys.executable, "-c", "import memrepo.folder.lock"], capture_output=True,
        text=True, env=no_fcntl_env, timeout=60, check=False,
    )  # fmt: skip
    assert uncaught.returncode == 1
    assert uncaught.stderr.splitlines()[-1] == (
        f"memrepo._platform.PosixRequired: {PosixRequired(sys.platform)}"
    )


def test_every_fcntl_import_goes_through_the_posix_check() -> None:
    """A module importing fcntl itself would fail on Windows with Python's bare
    ModuleNotFoundError instead of the sentence."""
    direct = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "memrepo").rglob("*.py")
        if path.name != "_platform.py"
        and any(_imports_fcntl(node) for node in ast.walk(ast.parse(path.read_text("utf-8"))))
    ]
    assert direct == []


def _imports_fcntl(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name == "fcntl" for alias in node.names)
    return isinstance(node, ast.ImportFrom) and node.module == "fcntl"
