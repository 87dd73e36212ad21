"""A person's own secret rules (issue #27): `memrepo secrets add|remove|rules|check`.

What the person sees: a rule they add hides its matches on every write path (remember, a
JSONL import, a hand edit screened at the next write), in the file and in every git
object, as `[redacted KIND]`; a rule that cannot be used is refused in one line; removing
it stops new redactions. Rules are installed for the whole process, so every test here
leaves the registry as it found it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.hygiene import custom

from .leaks import leaks

Run = Callable[..., tuple[int, str, str]]

RULE = r"acme_(?:live|test)_[A-Za-z0-9]{24,40}"
# Split so that scanners reading this file see no token.
TOKEN = "acme_live_" + "Q7wE9rT2yU4iO6pA8sD0fG1h"


@pytest.fixture(autouse=True)
def _restore_rules() -> Iterator[None]:
    saved = custom.installed_custom_rules()
    yield
    custom.uninstall_custom_rules(custom.installed_custom_rules())
    custom.install_custom_rules(saved)


@pytest.fixture
def root(memory_repo: MemoryRepo) -> Path:
    memory_repo.close()
    return memory_repo.root


@pytest.fixture
def mem(cli_in: Callable[..., Run], root: Path) -> Run:
    return cli_in(root)


def test_without_a_rule_the_in_house_token_is_stored_as_written(mem: Run) -> None:
    """The control: the built-in families do not know this shape (so the rule matters)."""
    code, out, _ = mem("secrets", "check", f"the deploy bot uses {TOKEN} nightly")
    assert code == 0
    assert TOKEN in out and "no secret found" in out


def test_a_rule_hides_its_matches_in_the_file_and_every_git_object(mem: Run, root: Path) -> None:
    code, out, err = mem("secrets", "add", "acme_token", RULE)
    assert code == 0, err
    assert "secret rule acme_token" in out
    code, out, err = mem("remember", f"the deploy bot uses {TOKEN} nightly")
    assert code == 0, err
    assert "redacted: acme_token" in out
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "the deploy bot uses [redacted acme_token] nightly" in memory
    assert leaks(root, TOKEN) == []


def test_the_rule_holds_for_a_jsonl_import_and_a_new_process(
    mem: Run, root: Path, tmp_path: Path
) -> None:
    assert mem("secrets", "add", "acme_token", RULE)[0] == 0
    # As in a new process: the rule comes from the config.
    custom.uninstall_custom_rules(custom.installed_custom_rules())
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps({"memory": f"CI pushes with {TOKEN}"}) + "\n", encoding="utf-8")
    code, _, err = mem("import", "--from", "jsonl", str(export))
    assert code == 0, err
    assert leaks(root, TOKEN) == []
    imported = (root / "imports" / "jsonl.md").read_text(encoding="utf-8")
    assert "CI pushes with [redacted acme_token]" in imported


def test_a_rule_without_a_bounded_width_is_refused_in_one_line(mem: Run) -> None:
    code, out, err = mem("secrets", "add", "acme_token", "acme_.+")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "{16,64}" in err and "Traceback" not in err
    code, out, _ = mem("secrets", "rules")
    assert "no rules of your own" in out


@pytest.mark.parametrize(
    ("kind", "pattern", "says"),
    [
        ("Acme-Token", RULE, "lowercase letters"),
        ("acme_token", "acme_[", "not a regular expression"),
        ("acme_token", "(?:x{0,4})", "can match nothing"),
    ],
)
def test_unusable_rules_say_what_to_change(mem: Run, kind: str, pattern: str, says: str) -> None:
    code, _, err = mem("secrets", "add", kind, pattern)
    assert code == 1 and says in err and "Traceback" not in err


def test_removing_a_rule_stops_new_redactions(mem: Run, root: Path) -> None:
    assert mem("secrets", "add", "acme_token", RULE)[0] == 0
    code, out, _ = mem("secrets", "rules", "--json")
    assert json.loads(out) == [{"kind": "acme_token", "pattern": RULE}]
    code, out, err = mem("secrets", "remove", "acme_token")
    assert code == 0 and "removed secret rule acme_token" in out, err
    code, out, _ = mem("secrets", "check", TOKEN)
    assert TOKEN in out
    code, _, err = mem("secrets", "remove", "acme_token")
    assert code == 1 and "no secret rule 'acme_token'" in err


def test_a_hand_edited_config_with_a_bad_rule_is_one_line(mem: Run, root: Path) -> None:
    config = root / ".git" / "memrepo" / "config.json"
    data = json.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    data["secret_rules"] = [{"kind": "acme_token", "pattern": "acme_.*"}]
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = mem("recall", "deploy")
    assert code == 1 and "invalid config" in err and "Traceback" not in err
