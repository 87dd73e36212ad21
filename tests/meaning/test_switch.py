"""The meaning lane as a person switches it on (issue #29, "What it is"): the CLI switch
and status, recall that finds a memory sharing no word with the question, writes that
keep it current in this process and in others, and nothing of it loaded while it is off.
The model is the one the test extra's PyPI packages ship, loaded through the same folder
path a person's model takes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

pytestmark = pytest.mark.slow  # real processes, a real model or long property runs

Run = Callable[..., tuple[int, str, str]]
PROJECT = Path(__file__).resolve().parents[2]

#: Each answer shares no word with its question (what lexical recall cannot find).
FACTS = [
    "Kate goes skiing in the Alps every January",
    "Kate bakes sourdough loaves on Sunday mornings",
    "The deploy script lives in ops/deploy.sh",
    "Our invoices are due on the fifth of each month",
]
SNOW = "which hobby involves snow and mountains?"
MUSIC = "who performs classical music?"
VIOLIN = "Ana plays the violin in an orchestra"


def memrepo(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own, as a second terminal or an agent's host runs it."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), *argv],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = MemoryRepo.init(tmp_path / "memory")
    for fact in FACTS:
        repo.remember(fact)
    repo.close()
    return tmp_path / "memory"


def first_hit(run: Run, question: str) -> str:
    code, out, err = run("recall", question, "--limit", "1")
    assert code == 0, err
    return out.splitlines()[0]


def test_switching_it_on_finds_what_shares_no_word_with_the_question(
    root: Path, cli_in: Callable[..., Run]
) -> None:
    run = cli_in(root)
    assert run("meaning")[1].startswith("meaning lane: off")
    assert first_hit(run, SNOW) == "nothing found"

    code, out, err = run("meaning", "on")
    assert code == 0, err
    assert "meaning lane: on, model all-MiniLM-L6-v2-int8" in out
    assert f"embedded: {len(FACTS)} entries and items" in out
    assert "skiing in the Alps" in first_hit(run, SNOW)

    code, out, _ = run("meaning", "off")
    assert code == 0 and out.startswith("meaning lane: off")
    assert "kept in .git/memrepo/meaning" in out
    assert first_hit(run, SNOW) == "nothing found"
    # Back on: nothing is embedded again, and it answers at once.
    assert "skiing in the Alps" in (run("meaning", "on"), first_hit(run, SNOW))[1]
    run("meaning", "off", "--delete-vectors")
    assert not (root / ".git" / "memrepo" / "meaning").exists()


def test_the_status_counts_what_is_embedded_and_a_write_adds_its_entry(root: Path) -> None:
    repo = MemoryRepo.open(root)
    repo.meaning_on()
    status = repo.meaning_status()
    assert (status.enabled, status.embedded, status.waiting) == (True, len(FACTS), 0)
    assert status.vectors_bytes > 0

    repo.remember(VIOLIN)  # the write's own catch-up embeds it
    repo.remember("Ana's blood type is AB negative", private=True)
    assert [hit.text for hit in repo.recall(MUSIC, limit=1).hits] == [VIOLIN]
    status = repo.meaning_status()
    assert (status.embedded, status.waiting) == (len(FACTS) + 2, 0)
    repo.close()


def test_a_write_in_another_process_is_found_by_meaning(root: Path) -> None:
    """A server's handle stays open while the CLI writes and recalls beside it: each
    sees the other's entries by meaning (the journal beside the vector file)."""
    server = MemoryRepo.open(root)
    server.meaning_on()
    done = memrepo(root, "remember", VIOLIN)
    assert done.returncode == 0, done.stderr
    assert [hit.text for hit in server.recall(MUSIC, limit=1).hits] == [VIOLIN]

    server.remember("Ben repairs old motorbikes in his garage")
    found = memrepo(root, "recall", "who fixes vehicles?", "--limit", "1")
    assert found.returncode == 0 and found.stderr == ""
    assert "motorbikes" in found.stdout.splitlines()[0]
    assert (root / ".git" / "memrepo" / "meaning" / "vectors.log").stat().st_size > 0
    server.close()


def test_with_the_lane_off_a_recall_loads_nothing_of_it(root: Path) -> None:
    probe = (
        "import sys; from memrepo import MemoryRepo\n"
        f"repo = MemoryRepo.open({str(root)!r}); repo.recall('skiing'); repo.remember('x y z')\n"
        "print(sorted(m for m in sys.modules if m.startswith(('memrepo.meaning', 'fastembed',"
        " 'onnxruntime', 'numpy'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert json.loads(out.replace("'", '"')) == []


def test_a_private_item_is_not_found_by_meaning_without_private(root: Path) -> None:
    repo = MemoryRepo.open(root)
    repo.remember("Ana's blood type is AB negative", private=True)
    repo.meaning_on()
    question = "what would a hospital need before a transfusion?"
    assert all("blood" not in hit.text for hit in repo.recall(question).hits)
    assert "blood" in repo.recall(question, include_private=True).hits[0].text
    repo.close()


def test_explain_shows_the_lexical_and_meaning_parts(
    root: Path, cli_in: Callable[..., Run]
) -> None:
    run = cli_in(root)
    run("meaning", "on")
    code, out, _ = run("recall", "Kate skiing trips", "--explain", "--limit", "1")
    assert code == 0
    assert "matched: " in out and "folder " in out and "meaning " in out


def test_health_tells_whether_the_lane_can_answer(root: Path) -> None:
    def meaning_check() -> tuple[str, str, str]:
        code, out, err = memrepo_text(root, "health", "--json")
        assert code == 0, err
        check = next(c for c in json.loads(out)["checks"] if c["name"] == "meaning")
        return check["status"], check["detail"], check["fix"]

    assert meaning_check()[0] == "SKIP"
    assert memrepo(root, "meaning", "on").returncode == 0
    status, detail, _ = meaning_check()
    assert status == "PASS" and f"{len(FACTS)} of {len(FACTS)} entries and items" in detail
    vectors = root / ".git" / "memrepo" / "meaning" / "vectors.bin"
    vectors.write_bytes(b"memrepo meaning vectors\n{}")
    status, detail, fix = meaning_check()
    assert (status, fix) == ("WARN", "memrepo reindex")
    assert "recall answers by words alone" in detail


def memrepo_text(root: Path, *argv: str) -> tuple[int, str, str]:
    done = memrepo(root, *argv)
    return done.returncode, done.stdout, done.stderr
