"""The embedding model (memrepo/meaning/model.py, issue #29): the package-shipped model
loads through the local-folder path, gives unit vectors that put a paraphrase near its
question, and every broken model is one clear `ModelUnavailable` or `EmbeddingFailed`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from memrepo.errors import EmbeddingFailed, MemrepoError, ModelUnavailable
from memrepo.meaning.model import Embedder, load_embedder
from memrepo.meaning.packaged import PACKAGED_MODEL, packaged_model_folder


def unit_rows(vectors: npt.NDArray[np.float32]) -> bool:
    return bool(np.all(np.isfinite(vectors)) and np.allclose(np.linalg.norm(vectors, axis=1), 1))


@pytest.mark.slow
def test_the_packaged_model_loads_through_the_local_folder_path(embedder: Embedder) -> None:
    assert embedder.name.startswith(PACKAGED_MODEL + "#")
    assert (embedder.dim, embedder.max_tokens) == (384, 256)
    vectors = embedder.embed(["Kate skis", "the tax report is due"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 384)
    assert unit_rows(vectors)


def test_a_paraphrase_is_nearer_than_unrelated_text(embedder: Embedder) -> None:
    question, answer, unrelated = embedder.embed(
        [
            "What does Kate do for fun?",
            "Kate went skiing on Saturday and baked bread all Sunday.",
            "The quarterly tax report is due on Monday.",
        ]
    )
    assert question @ answer > 0.35
    assert question @ answer > question @ unrelated + 0.25


@pytest.mark.slow
def test_a_text_gives_the_same_vector_whatever_it_is_batched_with(embedder: Embedder) -> None:
    texts = [f"line {n}: " + "the cat sat on the mat " * (n % 7) for n in range(70)]
    together = embedder.embed(texts)
    alone = np.stack([embedder.embed([text])[0] for text in texts[::9]])
    assert np.all(np.sum(together[::9] * alone, axis=1) > 0.999)


@pytest.mark.slow
def test_huge_empty_and_unknown_script_texts_give_unit_vectors(embedder: Embedder) -> None:
    texts = ["remember this " * 7143, "𓀀𓀁𓀂 ꦲꦏ꧀ꦱꦫ 𐌰𐌱𐌲", "\ufffd\u200b", "", "short"]
    assert len(texts[0]) >= 100_000
    vectors = embedder.embed(texts)
    assert vectors.shape == (5, 384)
    assert unit_rows(vectors)
    assert embedder.embed([]).shape == (0, 384)


def copy_of(model_folder: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "my-model"
    shutil.copytree(model_folder, folder, symlinks=True)
    return folder


def refusal(spec: str) -> str:
    with pytest.raises(ModelUnavailable) as caught:
        load_embedder(spec)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_folder_that_is_not_there_is_one_clear_line(tmp_path: Path) -> None:
    assert "no such folder" in refusal(str(tmp_path / "nowhere"))


def test_a_folder_without_its_tokenizer_is_one_clear_line(
    model_folder: Path, tmp_path: Path
) -> None:
    folder = copy_of(model_folder, tmp_path)
    (folder / "tokenizer.json").unlink()
    assert "no tokenizer.json" in refusal(str(folder))


def test_a_folder_without_a_model_file_is_one_clear_line(
    model_folder: Path, tmp_path: Path
) -> None:
    folder = copy_of(model_folder, tmp_path)
    (folder / "model.onnx").unlink()
    assert "no .onnx model file" in refusal(str(folder))


def test_a_truncated_model_file_is_one_clear_line(model_folder: Path, tmp_path: Path) -> None:
    folder = copy_of(model_folder, tmp_path)
    whole = (folder / "model.onnx").read_bytes()
    (folder / "model.onnx").unlink()
    (folder / "model.onnx").write_bytes(whole[: len(whole) // 3])
    assert str(folder) in refusal(str(folder))


def test_a_name_fastembed_does_not_know_is_one_clear_line() -> None:
    assert "no-such-org/no-such-model" in refusal("no-such-org/no-such-model")


def test_a_model_that_gives_nan_is_refused_without_quoting_the_text() -> None:
    def nan_model(texts: list[str]) -> Iterable[npt.NDArray[np.float32]]:
        return [np.full(4, np.nan if "secret" in text else 1.0, np.float32) for text in texts]

    broken = Embedder(name="nan-model", dim=4, max_tokens=8, run=nan_model)
    assert unit_rows(broken.embed(["fine", "also fine"]))
    with pytest.raises(EmbeddingFailed) as caught:
        broken.embed(["fine", "my secret diary"])
    assert isinstance(caught.value, MemrepoError)
    assert "text 2" in str(caught.value)
    assert "diary" not in str(caught.value)


@pytest.mark.slow
def test_importing_the_lane_loads_no_model_runtime() -> None:
    """The lane's modules are imported when it is on; the runtime only when a model is
    loaded (issue #29: import <= 0.6 s, paid only when on)."""
    probe = (
        "import sys, memrepo.meaning, memrepo.meaning.model, memrepo.meaning.packaged; "
        "print(' '.join(m for m in ('fastembed', 'onnxruntime', 'tokenizers') "
        "if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []


def test_the_packaged_folder_is_made_once_and_mended_when_a_file_goes(tmp_path: Path) -> None:
    folder = packaged_model_folder(tmp_path / PACKAGED_MODEL)
    made = (folder / "memrepo-packaged.json").stat().st_mtime_ns
    assert packaged_model_folder(tmp_path / PACKAGED_MODEL) == folder
    assert (folder / "memrepo-packaged.json").stat().st_mtime_ns == made
    (folder / "model.onnx").unlink()
    packaged_model_folder(tmp_path / PACKAGED_MODEL)
    assert (folder / "model.onnx").is_file()
    assert (folder / "model.onnx").stat().st_size > 20_000_000
