"""The meaning lane meets bad input (issue #29, "Bad input"): a missing or broken model, a
model of another width or name than the stored vectors, a vector file truncated, a
journal with a torn record, a model that yields NaN, the extra not installed, 100,000
characters, scripts the tokenizer does not know, and a first embed interrupted. Each is
one clear line or a rebuild, never a traceback, and recall answers by words meanwhile."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memrepo import MemoryRepo
from memrepo.meaning import service
from memrepo.meaning.model import Embedder, Vectors
from memrepo.meaning.packaged import PACKAGED_MODEL
from memrepo.meaning.service import MeaningLaneWarning

pytestmark = pytest.mark.slow  # real processes, a real model or long property runs

PROJECT = Path(__file__).resolve().parents[2]
FACTS = [
    "Kate goes skiing in the Alps every January",
    "Kate bakes sourdough loaves on Sunday mornings",
    "The deploy script lives in ops/deploy.sh",
]
SNOW = "which hobby involves snow and mountains?"


def memrepo(root: Path, *argv: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), *argv],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def root(tmp_path: Path) -> Path:
    repo = MemoryRepo.init(tmp_path / "memory")
    for fact in FACTS:
        repo.remember(fact)
    repo.close()
    return tmp_path / "memory"


@pytest.fixture
def own_model(model_folder: Path, tmp_path: Path) -> Path:
    """A person's own copy of the model, under a name of its own (its files may break)."""
    folder = tmp_path / "my-minilm"
    shutil.copytree(model_folder, folder, symlinks=False)
    return folder


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_model_that_cannot_load_is_one_line_and_switches_nothing(
    root: Path, own_model: Path
) -> None:
    (own_model / "model.onnx").write_bytes(b"not an onnx model")
    code, _, err = memrepo(root, "meaning", "on", "--model", str(own_model))
    assert code == 1
    assert "cannot be used" in one_line(err)
    assert memrepo(root, "meaning")[1].startswith("meaning lane: off")
    code, _, err = memrepo(root, "meaning", "on", "--model", str(own_model / "missing"))
    assert code == 1 and "there is no such folder" in one_line(err)


def test_a_model_broken_after_switching_on_leaves_recall_answering_by_words(
    root: Path, own_model: Path
) -> None:
    assert memrepo(root, "meaning", "on", "--model", str(own_model))[0] == 0
    (own_model / "model.onnx").write_bytes(b"\0" * 64)
    code, out, err = memrepo(root, "recall", "skiing")
    assert code == 0 and "skiing in the Alps" in out
    assert one_line(err).startswith("memrepo: warning: the meaning lane is not used")
    code, out, _ = memrepo(root, "meaning")
    assert code == 0 and "not usable now" in out


def test_a_truncated_vector_file_is_said_once_and_reindex_rebuilds_it(root: Path) -> None:
    assert memrepo(root, "meaning", "on")[0] == 0
    vectors = root / ".git" / "memrepo" / "meaning" / "vectors.bin"
    vectors.write_bytes(vectors.read_bytes()[:100])
    code, out, err = memrepo(root, "recall", "skiing")
    assert code == 0 and "skiing in the Alps" in out
    assert "memrepo reindex" in one_line(err)
    assert memrepo(root, "reindex")[0] == 0
    code, out, err = memrepo(root, "recall", SNOW, "--limit", "1")
    assert (code, err) == (0, "") and "skiing in the Alps" in out


def test_vectors_of_another_model_are_rebuilt_when_it_is_switched_on(
    root: Path, own_model: Path
) -> None:
    assert memrepo(root, "meaning", "on")[0] == 0  # the packaged model's vectors
    config = root / ".git" / "memrepo" / "config.json"
    text = config.read_text().replace(f'"{PACKAGED_MODEL}"', f'"{own_model}"')
    config.write_text(text)  # a hand edit naming another model
    code, out, err = memrepo(root, "recall", "skiing")
    assert code == 0 and "skiing in the Alps" in out
    assert "made by model" in one_line(err)
    assert memrepo(root, "meaning", "on", "--model", str(own_model))[0] == 0
    code, out, err = memrepo(root, "recall", SNOW, "--limit", "1")
    assert (code, err) == (0, "") and "skiing in the Alps" in out


def test_a_torn_journal_record_is_skipped_and_written_over(root: Path) -> None:
    repo = MemoryRepo.open(root)
    repo.meaning_on()
    repo.remember("Ana plays the violin in an orchestra")
    log = root / ".git" / "memrepo" / "meaning" / "vectors.log"
    with log.open("ab") as journal:
        journal.write(b"\x10\x00\x00\x00half a record")  # a crash mid-append
    code, out, err = memrepo(root, "recall", "who performs classical music?", "--limit", "1")
    assert (code, err) == (0, "") and "violin" in out
    repo.remember("Ben repairs old motorbikes in his garage")
    assert b"half a record" not in log.read_bytes()
    code, out, err = memrepo(root, "recall", "who fixes vehicles?", "--limit", "1")
    assert (code, err) == (0, "") and "motorbikes" in out
    repo.close()


def test_a_model_that_yields_nan_is_said_once_and_writes_still_land(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = MemoryRepo.open(root)
    repo.meaning_on()
    name = service.embedder_for(PACKAGED_MODEL).name  # the same model, gone bad
    broken = Embedder(name, 384, 256, lambda texts: [np.full(384, np.nan)] * len(texts))
    monkeypatch.setitem(service._MODELS, PACKAGED_MODEL, broken)
    with pytest.warns(MeaningLaneWarning, match="no usable vector"):
        repo.remember("Ana plays the violin in an orchestra")
        hits = repo.recall("violin").hits
    assert [hit.text for hit in hits] == ["Ana plays the violin in an orchestra"]
    repo.close()


def test_without_the_extra_switching_on_says_what_to_install(root: Path, tmp_path: Path) -> None:
    stub = tmp_path / "site" / "numpy"  # numpy missing, as without the extra
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text('raise ImportError("no numpy here", name="numpy")\n')
    blocked = {"PYTHONPATH": f"{PROJECT}{os.pathsep}{stub.parent}"}
    code, _, err = memrepo(root, "meaning", "on", env=blocked)
    assert code == 1
    assert "pip install 'memrepo[meaning]'" in one_line(err)
    assert memrepo(root, "meaning", "on")[0] == 0
    code, out, err = memrepo(root, "recall", "skiing", env=blocked)
    assert code == 0 and "skiing in the Alps" in out
    assert "memrepo[meaning]" in one_line(err)


def test_long_text_and_unknown_scripts_are_embedded_without_a_fuss(root: Path) -> None:
    repo = MemoryRepo.open(root)
    repo.meaning_on()
    (root / "notes").mkdir()
    (root / "notes" / "long.md").write_text("# Long\n\n- " + "lorem ipsum " * 8_400 + "\n")
    repo.remember("𐀀𐀁𐀂 𐀃𐀄𐀅")  # Linear B: no token of the model's vocabulary
    repo.remember("東京で寿司を食べた")
    assert repo.recall("ipsum").hits  # the hand edit is read, its line cut to the window
    status = repo.meaning_status()
    assert (status.embedded, status.waiting, status.problem) == (len(FACTS) + 3, 0, None)
    repo.close()


class Stopping:
    """The model, stopped (Ctrl-C) after `calls` batches: a first embed interrupted."""

    def __init__(self, inner: Embedder, calls: int) -> None:
        self.inner, self.calls, self.texts = inner, calls, list[str]()
        self.name, self.dim = inner.name, inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self.calls == 0:
            raise KeyboardInterrupt
        self.calls -= 1
        self.texts += texts
        return self.inner.embed(texts)


def test_an_interrupted_first_embed_resumes_where_it_stopped(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = MemoryRepo.init(tmp_path / "big")
    lines = [f"- fact {n}: {word} number {n}" for n, word in enumerate(["ant", "bee"] * 300)]
    (repo.root / "facts.md").write_text("# Facts\n\n" + "\n".join(lines) + "\n")
    stopping = Stopping(embedder, calls=1)
    monkeypatch.setitem(service._MODELS, PACKAGED_MODEL, stopping)
    with pytest.raises(KeyboardInterrupt):
        repo.meaning_on()
    assert len(stopping.texts) == 256  # one step embedded and kept
    waiting = repo.meaning_status().waiting
    assert waiting > 0
    resumed = Stopping(embedder, calls=10_000)
    monkeypatch.setitem(service._MODELS, PACKAGED_MODEL, resumed)
    status = repo.meaning_on()
    assert (status.waiting, status.embedded) == (0, 600)
    assert resumed.texts and not set(resumed.texts) & set(stopping.texts)  # only the rest
    repo.close()


def test_asked_for_one_lane_the_meaning_lane_scores_only_its_documents(root: Path) -> None:
    """The lane covers only the index lanes a recall searches for its reader (so a lane
    the context gate shuts, team or swarm, is shut for meaning too)."""
    repo = MemoryRepo.open(root)
    repo.meaning_on()
    repo.remember("Ana's blood type is AB negative", private=True)
    hits = repo.recall(SNOW, lanes=["memory", "meaning"], include_private=True).hits
    assert [hit.lane for hit in hits] == ["memory"]
    repo.close()
