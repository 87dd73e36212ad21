"""Small JSON state files under `.git/memrepo/` (config, sync state, dream state).

Each is a pydantic model people may open in an editor. They share one rule: a write
never leaves half a file (temp file in the same folder, then an atomic rename), and a
read tells "not there yet" (None) apart from "there but unreadable" (the caller decides
whether that is an error or a reset).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def read_state(path: Path, model: type[M]) -> M | None:
    """The file as `model`, None when it does not exist; ValueError (pydantic's
    ValidationError included) or OSError when it cannot be read as one."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return model.model_validate(json.loads(raw))


def write_state(path: Path, value: BaseModel, *, indent: int = 2) -> None:
    """Write `value` atomically, creating the folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    tmp.write_text(value.model_dump_json(indent=indent) + "\n", encoding="utf-8")
    os.replace(tmp, path)
