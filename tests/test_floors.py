"""The declared dependency floors are true: memrepo works with the oldest release of each
runtime dependency that pyproject.toml allows.

`pygit2>=1.15` was declared while 1.15-1.18 have no `Repository.transaction`, so every
write failed on an install that resolved to the floor (issue #18). Here a fresh venv
gets exactly the floors (`name==floor` for each, from the package registry; what they
need in turn resolves as pip resolves it) and the checkout, and the real CLI writes,
recalls, reads a YAML header, encrypts an export and restores it, and runs the recall
evals, which must score exactly what they score with this venv's releases. The
comments on `dependencies` in pyproject.toml say what sets each floor.

Needs the registry: it skips, saying so, when pip cannot reach it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"
]["dependencies"]
_FLOOR = re.compile(
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)>=(?P<version>\d[0-9A-Za-z.]*)"
    r"(?:,<(?P<ceiling>\d[0-9A-Za-z.]*))?"
)
#: What pip prints when it cannot reach an index (or finds no release at all there).
_OFFLINE = re.compile(
    r"NewConnectionError|Max retries exceeded|Temporary failure in name resolution|"
    r"Network is unreachable|Connection refused|ConnectTimeout|ReadTimeout|"
    r"\(from versions: none\)"
)
_PIP_SECONDS = 240


def floors() -> dict[str, str]:
    """Each runtime dependency and its floor; every one must have exactly a floor."""
    found = {}
    for requirement in DEPENDENCIES:
        match = _FLOOR.fullmatch(requirement.replace(" ", ""))
        assert match, f"{requirement!r}: declare a runtime dependency as name>=floor"
        found[match["name"]] = match["version"]
    return found


def test_every_runtime_dependency_declares_a_floor() -> None:
    assert len(floors()) == len(DEPENDENCIES) >= 7
    # The index stands on Whoosh internals (memrepo/index/whoosh_door.py): a release past
    # the ones proven must not install until the suite has run on it.
    whoosh = next(r for r in DEPENDENCIES if r.startswith("Whoosh-Reloaded"))
    found = _FLOOR.fullmatch(whoosh.replace(" ", ""))
    assert found is not None and found["ceiling"] == "2.8"
    # Repository.transaction (folder/gitstore.py) came in 1.19.0, Odb.read giving an
    # ObjectType (folder/trees.py) in 1.19.2.
    assert _release(floors()["pygit2"]) >= (1, 19, 2)


@pytest.fixture(scope="module")
def floor_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding exactly the floors (memrepo itself comes from the checkout)."""
    venv = tmp_path_factory.mktemp("floors") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pins = [f"{name}=={version}" for name, version in floors().items()]
    command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--timeout", "30", "--retries", "1", *pins]  # fmt: skip
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=_PIP_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"the package registry did not serve the floors in {_PIP_SECONDS} s")
    if done.returncode != 0:
        offline = _OFFLINE.search(done.stderr)
        if offline:
            pytest.skip(
                f"the package registry cannot be reached to install the floors "
                f"({offline.group(0)}): {done.stderr.strip().splitlines()[-1]}"
            )
        pytest.fail(f"the declared floors do not install together:\n{done.stderr[-3000:]}")
    return python


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MEMREPO_PASSPHRASE": "floor test"}


def memrepo(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "memrepo", *args],
        capture_output=True, text=True, cwd=cwd, env=_env(), timeout=300, check=False,
    )  # fmt: skip


def ok(python: Path, *args: str, cwd: Path) -> str:
    done = memrepo(python, *args, cwd=cwd)
    assert done.returncode == 0, f"memrepo {' '.join(args)}: {done.stderr}"
    return done.stdout


@pytest.mark.slow
@pytest.mark.integration
def test_the_floors_are_what_is_installed(floor_python: Path) -> None:
    code = (
        "import json, sys\nfrom importlib import metadata\n"
        "print(json.dumps({n: metadata.version(n) for n in sys.argv[1:]}))"
    )
    done = subprocess.run(
        [str(floor_python), "-c", code, *floors()],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    installed = {name: _release(v) for name, v in json.loads(done.stdout).items()}
    assert installed == {name: _release(v) for name, v in floors().items()}


def _release(version: str) -> tuple[int, ...]:
    """`3.0` and `3.0.0` are one release."""
    parts = [int(part) for part in version.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


@pytest.mark.slow
@pytest.mark.integration
def test_write_recall_yaml_and_encrypted_export_work_at_the_floors(
    floor_python: Path, tmp_path: Path
) -> None:
    mem = tmp_path / "mem"
    ok(floor_python, "init", str(mem), cwd=tmp_path)
    wrote = ok(floor_python, "--repo", str(mem), "remember",
               "The staging database runs on port 5433", cwd=tmp_path)  # fmt: skip
    assert wrote.startswith("inserted ")
    recalled = ok(floor_python, "--repo", str(mem), "recall", "staging port", cwd=tmp_path)
    assert "The staging database runs on port 5433" in recalled

    # A hand-made file: its YAML header's description is searched with its entries, so
    # the header must parse (python-frontmatter, PyYAML); a broken one must not crash.
    topic = mem / "topics" / "db.md"
    topic.parent.mkdir()
    topic.write_text(
        "---\ndescription: Postgres cluster notes\n---\n# Databases\n\n"
        "- The replica lags by two seconds\n",
        encoding="utf-8",
    )
    found = ok(floor_python, "--repo", str(mem), "recall", "postgres cluster", cwd=tmp_path)
    assert "The replica lags by two seconds" in found
    topic.write_text(topic.read_text(encoding="utf-8").replace(": Postgres", ": [Postgres"))
    broken = ok(floor_python, "--repo", str(mem), "recall", "postgres cluster", cwd=tmp_path)
    assert "replica" not in broken

    archive = tmp_path / "memory.mrx"
    ok(floor_python, "--repo", str(mem), "export", str(archive), "--encrypt", cwd=tmp_path)
    assert b"staging database" not in archive.read_bytes()
    ok(floor_python, "restore", str(archive), str(tmp_path / "restored"), cwd=tmp_path)
    again = ok(floor_python, "--repo", str(tmp_path / "restored"), "recall", "staging port",
               cwd=tmp_path)  # fmt: skip
    assert "The staging database runs on port 5433" in again


@pytest.mark.slow
@pytest.mark.integration
def test_the_evals_score_the_same_at_the_floors(floor_python: Path, tmp_path: Path) -> None:
    at_floors = _scores(ok(floor_python, "eval", "--json", cwd=tmp_path))
    today = _scores(ok(Path(sys.executable), "eval", "--json", cwd=tmp_path))
    assert at_floors["overall"]["cases"] >= 300
    assert at_floors == today


def _scores(report_json: str) -> dict[str, Any]:
    report = json.loads(report_json)
    return {"overall": report["overall"], "categories": report["categories"]}
