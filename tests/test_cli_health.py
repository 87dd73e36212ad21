"""`memrepo health` and `memrepo sources` against real repos: numbers, exit codes, no text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo

Git = Callable[..., str]
Run = Callable[..., tuple[int, str, str]]
FAKE_AWS_KEY = "AKIA" + "Q3ZX7W2V9K4M1N8P"
# "STATUS  name  figure unit (max threshold)  detail", e.g. "PASS  format  0 problems (max 0)".
LINE = re.compile(
    r"""^(?:PASS|WARN|FAIL|SKIP|INFO)\ {2}(?P<name>\S+)\ +(?P<figure>-|[0-9.e+-]+)
    (?:\ [^(]*?)?                         # the unit
    (?:\ \(max\ (?P<threshold>[0-9.e+-]+)\))?
    (?:\s.*)?$""",
    re.VERBOSE,
)


def _messy(repo: MemoryRepo, git: Git) -> Path:
    """A repo with a committed secret, a broken link, a duplicate, items and an edit."""
    repo.remember("The build uses Bazel", file="a.md")
    repo.remember("the build uses bazel", file="b.md")
    repo.remember("See [[nowhere]] for details", file="a.md")
    repo.remember("Standup is at 9:30", private=True)
    repo.close()
    (repo.root / "keys.md").write_text(f"# Keys\n\n- key {FAKE_AWS_KEY}\n")
    git(repo.root, "add", "keys.md")
    git(repo.root, "commit", "-q", "-m", "oops")
    (repo.root / "draft.md").write_text("# Draft\n\n- not committed\n")
    return repo.root


def _human_numbers(out: str) -> dict[str, tuple[float | None, float | None]]:
    found: dict[str, tuple[float | None, float | None]] = {}
    for line in out.splitlines():
        match = LINE.match(line)
        if match:
            figure, threshold = match["figure"], match["threshold"]
            found[match["name"]] = (
                None if figure == "-" else float(figure),
                float(threshold) if threshold else None,
            )
    return found


def test_json_and_human_output_give_the_same_numbers(
    run: Run, git: Git, memory_repo: MemoryRepo
) -> None:
    root = str(_messy(memory_repo, git))
    code, out, err = run("health", "--repo", root)
    assert (code, err) == (0, "")
    code, raw, _ = run("health", "--repo", root, "--json")
    data = json.loads(raw)
    human = _human_numbers(out)
    assert set(human) == {check["name"] for check in data["checks"]}
    for check in data["checks"]:
        assert human[check["name"]] == (check["figure"], check["threshold"]), check["name"]
    assert data["status"] == "FAIL"
    summary = out.splitlines()[-1]
    counts = ", ".join(f"{n} {status}" for status, n in data["counts"].items())
    assert summary == f"health: FAIL ({counts}), preset default"
    secrets = next(c for c in data["checks"] if c["name"] == "secrets")
    assert (secrets["status"], secrets["figure"]) == ("FAIL", 1)
    assert FAKE_AWS_KEY not in out + raw


def test_ci_exits_non_zero_on_fail_and_plain_health_does_not(
    run: Run, git: Git, memory_repo: MemoryRepo
) -> None:
    root = str(_messy(memory_repo, git))
    assert run("health", "--repo", root)[0] == 0
    code, out, _ = run("health", "--repo", root, "--ci")
    assert code == 1
    assert out.splitlines()[-1].startswith("health: FAIL (")
    assert out.splitlines()[-1].endswith("preset ci")
    assert "FAIL  broken_links" in out  # a WARN by default, a FAIL under ci


def test_ci_passes_on_a_healthy_repo(run: Run, memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm over npm")
    code, out, _ = run("health", "--repo", str(memory_repo.root), "--ci", "--json")
    assert code == 0
    assert json.loads(out)["status"] == "PASS"


def test_fix_lines_follow_failing_checks(run: Run, git: Git, memory_repo: MemoryRepo) -> None:
    _, out, _ = run("health", "--repo", str(_messy(memory_repo, git)))
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL  secrets"))
    assert lines[at + 1].startswith("      fix: remove the line and commit")


def test_sources_human_and_json_agree_and_hold_no_text(run: Run, memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Zanzibar deploys happen on Tuesdays")
    memory_repo.remember("Quokka code is 7731", private=True)
    memory_repo.close()
    root = str(memory_repo.root)
    code, out, err = run("sources", "--repo", root)
    assert (code, err) == (0, "")
    code, raw, _ = run("sources", "--repo", root, "--json")
    data = json.loads(raw)
    assert out.splitlines()[0].startswith(f"folder: {data['folder_entries']} entries at HEAD")
    assert f"memory_items: {data['items_active']} active, {data['items_private']} private" in out
    for row in data["folder"] + data["items"]:
        assert f"{row['count']:>7}  {row['source']:<12} {row['producer']:<14} {row['scope']}" in out
    for word in ("Zanzibar", "Tuesdays", "Quokka", "7731"):
        assert word not in out + raw


def test_commands_are_not_run_on_a_missing_repo(run: Run, tmp_path: Path) -> None:
    code, out, err = run("health", "--repo", str(tmp_path / "nothing"))
    assert (code, out) == (1, "")
    assert err.startswith("memrepo: ") and "no such directory" in err


def test_help_shows_examples(run: Run) -> None:
    for name in ("health", "sources"):
        code, out, _ = run(name, "--help")
        assert code == 0
        assert f"Example:\n  memrepo {name}" in out
