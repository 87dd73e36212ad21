"""The meaning lane (issue #29, docs/architecture.md §6): recall that finds a memory
worded differently from the question, local, offline and off by default.

Its engine, one concern per module, each documenting its stable face:

- `model`: `load_embedder(spec) -> Embedder`, unit vectors from an ONNX model (fastembed).
- `packaged`: `packaged_model_folder()`, all-MiniLM-L6-v2 int8 as PyPI packages ship it.
- `vectors`: the int8 vector store under `.git/memrepo/`, keyed by content hash
  (`vectorfile`: its bytes; `matrix`: entry vectors composed in memory and searched).
- `embed`: an entry's vector from its own line's and its neighbours' line vectors.
- `lane`: the recall lane over them (`MeaningLane`).

Nothing here is imported unless the lane is on, and importing these modules loads numpy
only: the model runtime loads inside `load_embedder`.
"""
