"""benchmarks/bench_quality.py scores a tiny REALTALK-shaped chat, and says where the data is
missing, so it cannot rot between measurements."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

pytestmark = pytest.mark.slow


def run(script: str, *args: str) -> str:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCHMARKS,
        timeout=300,
    ).stdout


def _realtalk_chat(path: Path) -> None:
    """A two-session chat in REALTALK's shape (the real data lives outside the repo)."""
    turns = [
        ("Ana", "Did you get to the coast on your road trip?"),
        ("Bo", "Yep, last month I drove somewhere fun"),
        ("Ana", "I made pasta with ham and peas yesterday"),
        ("Bo", "Sounds tasty"),
    ]
    data: dict[str, object] = {"name": {"speaker_1": "Ana", "speaker_2": "Bo"}}
    for session, date in ((1, "29.12.2023, 22:42:04"), (2, "02.01.2024, 10:00:00")):
        data[f"session_{session}"] = [
            {"clean_text": text, "speaker": who, "dia_id": f"D{session}:{n}"}
            for n, (who, text) in enumerate(turns, 1)
        ]
        data[f"session_{session}_date_time"] = date
    data["qa"] = [
        {"question": "Where did Bo drive?", "evidence": ["D1:2"], "category": 1},
        {"question": "What did Ana cook on 28 Dec 2023?", "evidence": ["D1:3"], "category": 2},
        {"question": "Pasta?", "evidence": ["D9:9", "D2:3;D2:4"], "category": 3},
        {"question": "Unanswerable", "evidence": ["D7:1"], "category": 3},
    ]
    path.write_text(json.dumps(data), encoding="utf-8")


def test_bench_quality_scores_both_systems_per_category(tmp_path: Path) -> None:
    _realtalk_chat(tmp_path / "Chat_1_Ana_Bo.json")
    report = json.loads(run("bench_quality.py", "--data", str(tmp_path), "--json"))
    assert report["questions"] == 3  # the one whose evidence names no turn is left out
    assert report["entries"] == 8
    ours, fts5 = report["recall"]["memrepo"], report["recall"]["fts5"]
    assert set(ours) == set(fts5) == {"all", "chats 1-5", "multi-hop", "temporal", "commonsense"}
    assert ours["temporal"]["r5"] == 1.0  # "yesterday" on the 29th is the 28th
    assert report["latency"]["memrepo"]["n"] == 3
    assert set(report["met"]) == {"r5", "r10", "r10_over_fts5"}
    text = run("bench_quality.py", "--data", str(tmp_path))
    assert "| temporal | 1 |" in text and "goals met" in text


def test_bench_quality_says_where_the_data_is_missing(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_quality.py"), "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=BENCHMARKS,
    )
    assert result.returncode == 2 and "no REALTALK chats" in result.stderr


def test_bench_quality_loads_the_meaning_model_it_is_given(tmp_path: Path) -> None:
    from memrepo.meaning.packaged import packaged_model_folder

    _realtalk_chat(tmp_path / "Chat_1_Ana_Bo.json")
    folder = packaged_model_folder(tmp_path / "given-model")
    args = ("--data", str(tmp_path), "--json", "--meaning", "--meaning-model", str(folder))
    report = json.loads(run("bench_quality.py", *args))
    assert report["meaning"]["model"].startswith("given-model#")
    missing = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_quality.py"), *args[:-1], str(tmp_path / "no")],
        capture_output=True,
        text=True,
        cwd=BENCHMARKS,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
