"""Reading the user's small JSON files (the config, the local stores) without trusting them, and keeping
a copy of one before ClawQt writes over it. Shared so every file says what is wrong the same way."""

from __future__ import annotations

import contextlib
import errno
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ASIDE_MARK = ".corrupt-"
MAX_ASIDE_TRIES = 1000


@dataclass(frozen=True)
class Unusable:
    """Why a file's content cannot be used: `why` continues "Your … file X " (e.g. "is not valid
    JSON (line 3)"), `details` is the parser's own message."""

    why: str
    details: str = ""


def json_kind(value: object) -> str:
    """What a JSON value is, in words a user knows ("a list", "a number", "text")."""
    if isinstance(value, bool) or value is None:
        return "true/false" if value is not None else "null"
    kinds = {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}
    return kinds.get(type(value), type(value).__name__)


def parse_object(raw: bytes) -> dict[str, Any] | Unusable:
    """The JSON object `raw` holds, or why it holds none. Deep nesting is an answer, not a
    RecursionError; an empty file is an empty object (there is nothing in it to lose)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Unusable("is not UTF-8 text", str(exc))
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except RecursionError:
        return Unusable("is nested too deeply to read")
    except json.JSONDecodeError as exc:
        return Unusable(f"is not valid JSON (line {exc.lineno})", str(exc))
    except ValueError as exc:  # e.g. a number too long to convert
        return Unusable("is not valid JSON", str(exc))
    if not isinstance(data, dict):
        return Unusable(f"holds {json_kind(data)}, not a JSON object")
    return data


def keep_aside(path: Path, raw: bytes, now: datetime | None = None) -> Path:
    """Write `raw` (what `path` held) beside it as `<name>.corrupt-<local time>[-N]`, under a name no
    file has yet: an earlier copy is never overwritten. OSError when no copy could be written."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%dT%H-%M-%S")
    for n in range(1, MAX_ASIDE_TRIES + 1):
        target = path.with_name(f"{path.name}{ASIDE_MARK}{stamp}{f'-{n}' if n > 1 else ''}")
        try:
            handle = open(target, "xb")  # noqa: SIM115 - closed below; "x": never an existing file
        except FileExistsError:
            continue
        try:
            with handle:
                handle.write(raw)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:
            with contextlib.suppress(OSError):
                target.unlink()  # no half copy left behind
            raise
        return target
    raise OSError(errno.EEXIST, "too many copies kept already", str(path))
