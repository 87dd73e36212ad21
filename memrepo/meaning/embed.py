"""Entry vectors from line vectors: the meaning lane's cheap way to embed context
(issue #29, docs/architecture.md §6).

An entry is one short line; what it means often sits in the lines around it, which is
why the index reads each entry with its context (`recall.entry_context`: neighbours in
its section, heading path and file description, speaker label). Embedding that context
again for every entry cost 58 CPU-s per 1,000 entries when measured; embedding each
distinct line once and mixing the entry's vector from its own and its neighbours' line
vectors cost 10 and ranked as well or better (`../shared/research/recall.md`). So:

- `entry_parts(doc, mix)`: what an index document's vector is made of, as (text, weight):
  its own words without their ``Name:`` lead, its context segments exactly as the index
  holds them (so a neighbour's words are the same text, and the same line vector, as
  that neighbour's own), and its label. Every text is screened for secrets first, as
  the index screens what it stores, so neither a vector nor a content hash is made from
  a secret. The date is left out: the lexical lane has a date field, and a date carries
  little meaning for a sentence model.
- `update_vectors(store, docs, embedder, ...)`: records each document's parts, embeds
  the lines the store does not hold yet (each once, shortest first, in steps), and
  reports the steps to `memrepo.progress` (the CLI shows a bar, MCP sends progress). A
  `remember` passes the documents the index projects again (the new entry, and the
  neighbours whose context now holds it) and embeds its one line. Interrupted (Ctrl-C,
  a cancelled call: any exception out of a step), what was embedded stays in the store,
  is saved when a `checkpoint` is given (the caller's way to save: the lane's vector
  file, `memrepo.meaning.vectorfile_sync`), and the next call embeds only the rest.
  `most` bounds the lines one call embeds (a write's catch-up embeds a few; a rebuild's
  thousands wait for `memrepo meaning on`): entries whose lines were left wait.

Texts the model cannot mean anything by still get a vector (the tokenizer maps unknown
scripts to its unknown token) and a text of 100,000 characters is cut to the model's
window; an entry with no words at all has no vector and counts as skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from memrepo import progress
from memrepo.hygiene.secrets import redact_secrets
from memrepo.index import IndexDoc
from memrepo.meaning.model import TextEmbedder
from memrepo.meaning.vectors import Parts, VectorStore, text_key
from memrepo.recall.entry_context import CONTEXT_CHARS


@dataclass(frozen=True, slots=True)
class Mix:
    """How much each part weighs beside the entry's own line (1.0). `context` scales the
    index's own context weights (`recall.entry_context.NEIGHBOUR_WEIGHTS`: 0.25 and 0.2
    for the lines just before and after, 0.175 and 0.14 two away, 0.2 for the heading;
    a list of facts weighs 0.3 of that); `label` is the speaker's or author's name.

    Tuned on REALTALK chats 1-5 only, by the lane alone (no lexical part): R@5 / R@10
    0.317 / 0.432 at context 2.0 and label 0.25 (the prototype's neighbour mix), 0.394 /
    0.514 at 1.0 and 0.75, 0.402 / 0.521 at 0.75 and 0.75, 0.406 / 0.522 at 0.5 and 0.75;
    a label of 0.5 or 1.0 did no better than 0.75. Questions name people, and a turn's
    words rarely do. Chats 6-10, which only report: 0.374 / 0.457 before, 0.435 / 0.517
    with these."""

    context: float = 0.75
    label: float = 0.75


@dataclass(frozen=True, slots=True)
class EmbedReport:
    """What one `update_vectors` did."""

    entries: int
    """Entries the store holds a recipe for after the call."""
    embedded: int
    """Texts sent to the model by this call."""
    waiting: int
    """Entries still waiting for a line's vector (the call was interrupted before)."""
    dropped: int
    """Entries forgotten because they are gone (a complete update only)."""
    skipped: int
    """Documents with nothing to embed (no words once screened)."""
    changed: int
    """Entries whose recipe is new or changed by this call: with `embedded` and
    `dropped` all 0, the store is as it was and need not be saved."""


#: Lines per step: one progress report and one chance to stop between steps.
STEP = 256
#: A long first embed saves what it has at most this often (seconds), so a killed
#: process loses at most this much work.
CHECKPOINT_SECONDS = 30.0


def update_vectors(
    store: VectorStore,
    docs: Iterable[IndexDoc],
    embedder: TextEmbedder,
    *,
    complete: bool = False,
    mix: Mix = Mix(),
    checkpoint: Callable[[], None] | None = None,
    step: int = STEP,
    most: int | None = None,
) -> EmbedReport:
    """Bring `store` up to date with `docs` (see the module docstring). With
    `complete`, `docs` is every document there is, and entries not among them go."""
    recipes = Recipes(mix)
    for doc in docs:
        recipes.note(doc)
    return recipes.apply(
        store, embedder, complete=complete, checkpoint=checkpoint, step=step, most=most
    )


@dataclass(slots=True)
class Recipes:
    """Documents' recipes, noted as they go by (into the index: the lane's listener) and
    applied to a vector store afterwards: noting needs neither the model nor the store,
    and keeps each distinct line's text once, not the documents."""

    mix: Mix = Mix()
    parts: dict[str, Parts] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    skipped: int = 0

    def note(self, doc: IndexDoc) -> None:
        parts = entry_parts(doc, self.mix)
        if not parts:
            self.skipped += 1
            self.parts.pop(doc.ref, None)
            return
        keyed = {text_key(text): text for text, _weight in parts}
        self.texts.update(keyed)
        self.parts[doc.ref] = tuple(zip(keyed, (w for _t, w in parts), strict=True))

    def __len__(self) -> int:
        return len(self.parts)

    def take(self, other: Recipes) -> None:
        """Add `other`'s recipes (noted later: they win)."""
        self.parts.update(other.parts)
        self.texts.update(other.texts)
        self.skipped += other.skipped

    def apply(
        self,
        store: VectorStore,
        embedder: TextEmbedder,
        *,
        complete: bool = False,
        checkpoint: Callable[[], None] | None = None,
        step: int = STEP,
        most: int | None = None,
    ) -> EmbedReport:
        """Set the recipes in `store` and embed the lines they wait for (at most
        `most`); with `complete`, entries not among them go."""
        if (store.model, store.dim) != (embedder.name, embedder.dim):
            raise ValueError(f"vectors of {store.model!r} cannot take {embedder.name!r}'s")
        changed = sum(store.set_entry(ref, parts) for ref, parts in self.parts.items())
        dropped = store.drop_entries_except(self.parts) if complete else 0
        embedded = _embed_missing(store, embedder, self.texts, checkpoint, step, most)
        if checkpoint is not None and (changed or dropped or embedded):
            checkpoint()
        return EmbedReport(
            entries=store.entry_count(), embedded=embedded, waiting=len(store.refs_waiting()),
            dropped=dropped, skipped=self.skipped, changed=changed,
        )  # fmt: skip


def _embed_missing(
    store: VectorStore,
    embedder: TextEmbedder,
    texts: dict[str, str],
    checkpoint: Callable[[], None] | None,
    step: int,
    most: int | None,
) -> int:
    """Embed every line an entry waits for and `texts` holds, in steps; a step's
    vectors are kept the moment it ends, so an interruption loses at most one step."""
    todo = sorted(store.missing_lines(texts), key=lambda key: len(texts[key]))[:most]
    if not todo:
        return 0  # no progress task for nothing: a re-parse that changed no line
    done = 0
    saved = time.monotonic()
    with progress.task("embedding lines for the meaning lane", total=len(todo)) as bar:
        try:
            for start in range(0, len(todo), step):
                keys = todo[start : start + step]
                store.add_lines(keys, embedder.embed([texts[key] for key in keys]))
                done += len(keys)
                bar.advance(len(keys))
                if checkpoint is not None and time.monotonic() - saved > CHECKPOINT_SECONDS:
                    checkpoint()
                    saved = time.monotonic()
        except BaseException:
            if checkpoint is not None and done:
                checkpoint()
            raise
    return done


def entry_parts(doc: IndexDoc, mix: Mix = Mix()) -> list[tuple[str, float]]:
    """The texts `doc`'s vector is mixed from, with their weights, own words first;
    empty when the document has no words to embed."""
    own = _screened(_unlabelled(doc.text, doc.label)[:CONTEXT_CHARS])
    if not _wordy(own):
        return []
    parts: dict[str, float] = {own: 1.0}
    for text, weight in doc.context:
        screened = _screened(text)
        if weight > 0 and _wordy(screened):
            parts[screened] = parts.get(screened, 0.0) + weight * mix.context
    label = _screened(doc.label)
    if mix.label > 0 and _wordy(label):
        parts[label] = parts.get(label, 0.0) + mix.label
    return list(parts.items())


def _unlabelled(text: str, label: str) -> str:
    """`text` without its ``Name:`` lead, as `recall.entry_context` gives a neighbour's
    words: so an entry's own line and the same line lent as a neighbour are one text."""
    stripped = text.lstrip()
    if label and stripped.startswith(label) and stripped[len(label) :].lstrip().startswith(":"):
        return stripped[len(label) :].lstrip(" :")
    return text


def _wordy(text: str) -> bool:
    """Whether `text` has a letter or digit in any script: what the write path asks of
    a memory (docs/architecture.md §3), so punctuation or invisible characters alone
    are no entry to embed."""
    return any(char.isalnum() for char in text)


def _screened(text: str) -> str:
    return redact_secrets(text)[0] if text else text
