"""The secret corpus figures: leaks per family and look-alike false positives.

Reads fixtures/secrets/ (see tests/hygiene/corpus.py for the format), runs every sample
through ``redact_secrets`` and ``screen``, and prints per family how many secrets leaked
(a secret leaks when it or any 5-character piece of it survives), then how many
look-alikes were redacted. With --entropy it also prints how ``looks_random`` (the rule
for values after weak keywords) scores random tokens against identifiers: the measurement
behind its thresholds.

Usage: python benchmarks/secret_corpus.py [--json] [--entropy]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
import string
import uuid
from collections import Counter
from pathlib import Path

from memrepo.hygiene import REDACTION_MARKER, redact_secrets, screen
from memrepo.hygiene._base import looks_random

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "secrets"
_MARKED = re.compile("«([^»]*)»")


def _rows(name: str) -> list[tuple[str, str]]:
    rows = []
    for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            family, text = line.split("\t", 1)
            rows.append((family, text))
    return rows


def _leaks(secret: str, output: str) -> bool:
    visible = REDACTION_MARKER.sub("[]", output)
    return any(secret[i : i + 5] in visible for i in range(max(1, len(secret) - 4)))


def corpus_figures() -> dict[str, object]:
    """Leaks per family (over both faces of the detector) and the false positives."""
    leaks: Counter[str] = Counter()
    samples: Counter[str] = Counter()
    for family, marked in _rows("secrets.tsv"):
        joined = marked.replace("·", "")
        secrets = _MARKED.findall(joined)
        text = _MARKED.sub(r"\1", joined)
        outputs = [redact_secrets(text)[0], screen(text).text or ""]
        samples[family] += len(secrets)
        leaks[family] += sum(any(_leaks(s, out) for out in outputs) for s in secrets)
    lookalikes = _rows("lookalikes.tsv")
    false_positives = [family for family, text in lookalikes if redact_secrets(text)[1]]
    return {
        "families": len(samples),
        "secrets": sum(samples.values()),
        "leaks": sum(leaks.values()),
        "leaks_per_family": {family: leaks[family] for family in sorted(samples)},
        "lookalikes": len(lookalikes),
        "false_positives": len(false_positives),
        "false_positive_families": false_positives,
    }


def entropy_figures(count: int = 600, seed: int = 7) -> dict[str, float]:
    """How often ``looks_random`` says yes to random tokens and to identifiers."""
    rng = random.Random(seed)
    alphabets = [string.ascii_letters + string.digits, "0123456789abcdef"]

    def token() -> str:
        n = rng.randint(16, 64)
        kind = rng.randrange(5)
        if kind < 2:
            return "".join(rng.choice(alphabets[kind]) for _ in range(n))
        if kind == 2:
            return base64.b64encode(rng.randbytes(n)).decode()
        if kind == 3:
            return base64.urlsafe_b64encode(rng.randbytes(n)).decode().rstrip("=")
        return str(uuid.UUID(int=rng.getrandbits(128)))

    words = re.findall(
        r"[a-z]+", (Path(__file__).resolve().parent.parent / "README.md").read_text()
    )
    words = sorted({w for w in words if len(w) > 2}) or ["alpha", "beta"]

    def identifier() -> str:
        parts: list[str] = [rng.choice(words) for _ in range(rng.randint(2, 4))]
        style = rng.randrange(4)
        digits = str(rng.randint(0, 2030))
        if style == 0:
            return "_".join(parts) + "_v" + digits
        if style == 1:
            return parts[0] + "".join(p.title() for p in parts[1:]) + digits
        if style == 2:
            return "-".join(parts) + "-" + digits
        return "_".join(parts).upper() + "_" + digits

    tokens = [token() for _ in range(count)]
    names = [name for name in (identifier() for _ in range(count)) if len(name) >= 16]
    return {
        "random_tokens_flagged": sum(map(looks_random, tokens)) / len(tokens),
        "identifiers_flagged": sum(map(looks_random, names)) / max(1, len(names)),
        "identifiers_measured": float(len(names)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--entropy", action="store_true")
    args = parser.parse_args(argv)
    figures = corpus_figures()
    per_family = dict(figures["leaks_per_family"])  # type: ignore[call-overload]
    if args.entropy:
        figures["entropy"] = entropy_figures()
    if args.json:
        print(json.dumps(figures))
        return 0
    for family, leaked in per_family.items():
        print(f"{family:24s} leaks {leaked}")
    print(
        f"{figures['secrets']} secrets in {figures['families']} families: "
        f"{figures['leaks']} leaked; {figures['lookalikes']} look-alikes: "
        f"{figures['false_positives']} false positives {figures['false_positive_families']}"
    )
    if args.entropy:
        print(figures["entropy"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
