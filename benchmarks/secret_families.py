"""The secret detector on generated families: kept secrets and false positives, per
family, per half (tuning and held out), per write path, and beside detect-secrets.

The cases come from tests/hygiene/families.py and its ``gen_*`` modules: every family's
secrets are generated from its documented shape with a fixed seed, and every other case
of a family is held out (rules are tuned on the other half only; issue #27). A secret is
kept when it, or a 5-character piece of it that the rest of the text does not hold,
survives; a look-alike is a false positive when its text changes.

``--paths`` writes the held-out half through each write path of a real memory repo (the
Python API, an item, the CLI, the agent tools that MCP serves, a JSONL and a Claude Code
import, a hand edit followed by a write) and counts the secrets git objects or the
repo's files hold afterwards. ``--detect-secrets`` runs detect-secrets (if installed) on
the same texts, with and without its entropy plugins.

Usage: python benchmarks/secret_families.py [--paths [--path-cases N]] [--detect-secrets]
                                            [--json] [--per-family 6] [--seed 27] [--families]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The generated families live beside the tests that hold them (tests/hygiene/families.py).
sys.path.insert(0, str(ROOT / "tests"))

from hygiene.families import (  # noqa: E402
    PER_FAMILY,
    SEED,
    Case,
    all_cases,
    all_lookalikes,
    failures,
    split,
)

from memrepo.hygiene import redact_secrets, screen  # noqa: E402


def _both(text: str) -> str:
    """What the two faces of the detector leave: redaction and the write screen."""
    redacted = redact_secrets(text)[0]
    screened = screen(text, max_chars=100_000).text or ""
    return redacted if screened == redacted else redacted + "\n" + screened


def _area(case: Case) -> str:
    return case.source.split(" ", 1)[0]


def half_figures(cases: list[Case], lookalikes: list[Case]) -> dict[str, Any]:
    """Kept / total per family and the look-alikes changed, for one half."""
    kept, false_positives = failures([*cases, *lookalikes], _both)
    total: Counter[str] = Counter(case.family for case in cases)
    lost: Counter[str] = Counter(case.family for case, _ in kept)
    return {
        "families": len(total),
        "secrets": sum(total.values()),
        "kept": sum(lost.values()),
        "kept_per_family": {family: f"{lost[family]}/{total[family]}" for family in lost},
        "lookalikes": len(lookalikes),
        "false_positives": len(false_positives),
        "false_positive_texts": [f"{case.family}: {case.text}" for case in false_positives],
    }


def family_figures(seed: int, per_family: int) -> dict[str, Any]:
    """Both halves, and the fixture corpus of fixtures/secrets/."""
    tuning, held_out = split(all_cases(seed, per_family))
    look_tuning, look_held = split(all_lookalikes(seed))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from secret_corpus import corpus_figures

    return {
        "tuning": half_figures(tuning, look_tuning),
        "held_out": half_figures(held_out, look_held),
        "fixtures": corpus_figures(),
    }


# --- write paths ------------------------------------------------------------------------


def _stored(root: Path, skip: Iterable[Path] = ()) -> bytes:
    """Every git object and every file of the repo (but ``skip``), lowercased."""
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    skipped = set(skip)
    files = b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file() and p not in skipped)
    return (objects + files).lower()


def _quiet(call: Callable[[], object]) -> None:
    """Run one write; a write memrepo refuses (a secret in a name, ...) is a result here."""
    from memrepo.errors import MemrepoError

    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        contextlib.suppress(MemrepoError),
    ):
        call()


def _write_each(repo: object, cases: list[Case], path: str, work: Path) -> list[Path]:
    """Write every case through ``path``; the files to leave out of the leak search."""
    from memrepo import MemoryRepo
    from memrepo.cli import main
    from memrepo.tools import MemoryTools, ToolContext

    assert isinstance(repo, MemoryRepo)
    root = str(repo.root)
    texts = [f"Note {i}: {case.text}" for i, case in enumerate(cases)]
    if path == "python":
        for text in texts:
            _quiet(partial(repo.remember, text))
    elif path == "item":
        for text in texts:
            _quiet(partial(repo.remember, text, private=True))
    elif path == "cli":
        for text in texts:
            _quiet(partial(main, ["--repo", root, "remember", text]))
    elif path == "tools":
        tools = MemoryTools(repo, ToolContext(task_id="bench"))
        for text in texts:
            _quiet(partial(tools.dispatch, "memory_remember", {"text": text}))
    elif path == "jsonl":
        export = work / "export.jsonl"
        export.write_text("".join(json.dumps({"memory": t}) + "\n" for t in texts), "utf-8")
        _quiet(lambda: main(["--repo", root, "import", "--from", "jsonl", str(export)]))
    elif path == "claude_code":
        project = work / "project"
        project.mkdir()
        lines = "".join(f"- {' '.join(t.split())}\n" for t in texts)
        (project / "CLAUDE.md").write_text("# Notes\n\n" + lines, "utf-8")
        _quiet(lambda: main(["--repo", root, "import", "--from", "claude-code", str(project)]))
    elif path == "hand_edit":
        topic = repo.root / "topics" / "hand.md"
        topic.parent.mkdir(exist_ok=True)
        lines = "".join(f"- {' '.join(t.split())}\n" for t in texts)
        topic.write_text("# Hand notes\n\n" + lines, "utf-8")
        _quiet(lambda: repo.remember("A note written after a hand edit of topics/hand.md"))
        return [topic]  # the person's own file: what matters is that git never holds it
    return []


PATHS = ("python", "item", "cli", "tools", "jsonl", "claude_code", "hand_edit")


def path_figures(cases: list[Case]) -> dict[str, dict[str, Any]]:
    """Per path: how many of ``cases``' secrets a real repo holds after writing them."""
    from memrepo import MemoryRepo

    figures: dict[str, dict[str, Any]] = {}
    for path in PATHS:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            repo = MemoryRepo.init(work / "mem")
            skip = _write_each(repo, cases, path, work)
            repo.close()
            stored = _stored(repo.root, skip)
            kept = [
                case.family
                for case in cases
                if any(secret.lower().encode() in stored for secret in case.secrets)
            ]
            total = sum(len(case.secrets) > 0 for case in cases)
            # How many notes reached the repo at all (a hand edit holding a secret is
            # refused whole, so there it counts what was committed anyway).
            written = sum(f"note {i}:".encode() in stored for i in range(len(cases)))
            figures[path] = {
                "kept": len(kept),
                "total": total,
                "written": written,
                "families": sorted(set(kept)),
            }
    return figures


# --- detect-secrets ---------------------------------------------------------------------


def detect_secrets_figures(cases: list[Case], lookalikes: list[Case]) -> dict[str, object]:
    """detect-secrets 1.5 on the same texts: a secret counts as caught when a value it
    reports overlaps it; a look-alike is a false positive when anything is reported."""
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings, transient_settings
    except ImportError:
        return {"skipped": "detect-secrets is not installed (pip install detect-secrets)"}

    def run() -> dict[str, object]:
        caught = 0
        for case in cases:
            found = [s.secret_value or "" for s in scan_line(case.text)]
            caught += all(
                any(v and (v in secret or secret in v) for v in found) for secret in case.secrets
            )
        flagged = sum(bool(list(scan_line(case.text))) for case in lookalikes)
        return {"kept": len(cases) - caught, "total": len(cases), "false_positives": flagged}

    with default_settings():
        with_entropy = run()
    plugins = [
        {"name": name}
        for name in _detect_secrets_plugins()
        if "HighEntropy" not in name and name != "KeywordDetector"
    ]
    with transient_settings({"plugins_used": plugins}):
        without_entropy = run()
    return {"with_entropy_plugins": with_entropy, "without_entropy_or_keyword": without_entropy}


def _detect_secrets_plugins() -> list[str]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return sorted({cls.__name__ for cls in get_mapping_from_secret_type_to_class().values()})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-family", type=int, default=PER_FAMILY)
    parser.add_argument("--paths", action="store_true", help="write through every path")
    parser.add_argument(
        "--path-cases", type=int, default=0, help="with --paths: this many cases, spread evenly"
    )
    parser.add_argument("--detect-secrets", action="store_true", help="compare with it")
    parser.add_argument("--families", action="store_true", help="list kept per family")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = family_figures(args.seed, args.per_family)
    _, held_out = split(all_cases(args.seed, args.per_family))
    if args.paths:
        step = max(1, len(held_out) // args.path_cases) if args.path_cases else 1
        figures["paths_held_out"] = path_figures(held_out[::step])
    if args.detect_secrets:
        _, look_held = split(all_lookalikes(args.seed))
        figures["detect_secrets_held_out"] = detect_secrets_figures(held_out, look_held)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for half in ("tuning", "held_out"):
        f = figures[half]
        print(
            f"{half:9} {f['families']} families: kept {f['kept']}/{f['secrets']}, "
            f"false positives {f['false_positives']}/{f['lookalikes']}"
        )
        if args.families:
            for family, share in sorted(f["kept_per_family"].items()):
                print(f"  kept {share:>5}  {family}")
            for text in f["false_positive_texts"]:
                print(f"  false positive: {text}")
    fixtures = figures["fixtures"]
    print(
        f"fixtures  {fixtures['families']} families: kept {fixtures['leaks']}/"
        f"{fixtures['secrets']}, false positives {fixtures['false_positives']}/"
        f"{fixtures['lookalikes']}"
    )
    for path, f in figures.get("paths_held_out", {}).items():
        print(
            f"path {path:12} kept {f['kept']}/{f['total']} (notes written {f['written']}) "
            + ", ".join(f["families"][:8])
        )
    for mode, f in figures.get("detect_secrets_held_out", {}).items():
        print(f"detect-secrets {mode}: {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
