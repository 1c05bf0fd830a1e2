"""A small JSON map in the data folder, saved whole and atomically (temp file + rename) at each change:
the base of the local stores (`local.py`, `queued_messages.py`).

Nothing in these files can stop the app, and each problem is said once, in words, through
`LocalProblems` (the window shows it): an unusable file (not JSON, nested too deeply, not an object) is
copied aside as `<name>.corrupt-<time>` and the store starts empty; entries the store does not accept
are left out and the original is copied aside the same way; a file that cannot be read, or whose copy
cannot be written, is left as it is and the store keeps its changes in memory only. A copy never
overwrites an earlier one. A data folder that cannot be written to (read-only, a file in its place) is
reported once and the stores work in memory."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Generic, TypeVar

from app.main.core import paths
from app.main.core.json_files import Unusable, keep_aside, parse_object
from app.main.core.problems import LocalProblems
from app.main.files.atomic import replace_file
from app.main.files.regular_files import read_user_file

log = logging.getLogger(__name__)

IN_MEMORY = "drafts and session names are kept only until you quit"


def _folder_key(folder: Path) -> str:
    """One report per data folder, whichever store or check finds it unusable first."""
    return f"data folder {folder}"


V = TypeVar("V")


class JsonMap(Generic[V]):
    """A persisted map from str to values `accept` recognizes; `set` writes through (callers debounce
    bursts of typing). `what` names its content in messages ("drafts", "session names"); an entry
    `accept` refuses is left out, and the original file copied aside, as "not <entry_kind>"."""

    entry_kind = "text"

    def __init__(
        self,
        filename: str,
        base: Path | None = None,
        problems: LocalProblems | None = None,
        what: str = "",
    ) -> None:
        self.path = (base or paths.data_dir()) / filename
        self.what = what or filename.removesuffix(".json").replace("-", " ")
        self._problems = LocalProblems() if problems is None else problems
        self._data: dict[str, V] = {}
        self._memory_only = False  # a file ClawQt could not read or copy: never written over
        self._load()

    def _load(self) -> None:
        try:
            raw = read_user_file(self.path)
        except (FileNotFoundError, NotADirectoryError):
            return  # nothing saved yet (or no data folder: `LocalStores` says so)
        except OSError as exc:
            self._memory_only = True
            self._problems.add(
                f"Your {self.what} file {paths.shown(self.path)} cannot be read ({exc.strerror}): it is "
                f"left as it is, and {self.what} are kept only until you quit.",
                str(exc),
            )
            return
        data = parse_object(raw)
        if isinstance(data, Unusable):
            self._set_aside(raw, f"{data.why}: starting without saved {self.what}", data.details)
            return
        accepted = {k: self.accept(v) for k, v in data.items()}
        self._data = {k: v for k, v in accepted.items() if v is not None}
        left_out = [k for k, v in accepted.items() if v is None]
        if left_out:
            entries = (
                f"an entry that is not {self.entry_kind}: it is"
                if len(left_out) == 1
                else f"{len(left_out)} entries that are not {self.entry_kind}: they are"
            )
            detail = "left out: " + ", ".join(repr(k) for k in left_out[:10])
            self._set_aside(raw, f"has {entries} left out", detail, "the original file")

    def _set_aside(self, raw: bytes, what_happened: str, details: str, copy: str = "the file") -> None:
        """Keep a copy of what the file held, then write the store's own content over it; without a
        copy the file is never written (the store lives in memory)."""
        start = f"Your {self.what} file {paths.shown(self.path)} {what_happened}"
        try:
            aside = keep_aside(self.path, raw)
        except OSError as exc:
            self._memory_only = True
            self._problems.add(
                f"{start}; a copy could not be kept ({exc.strerror}), so the file is left as it is and "
                f"{self.what} are kept only until you quit.",
                details,
            )
            return
        self._problems.add(f"{start}; {copy} is kept as {aside.name}.", details)
        self.save()

    def accept(self, value: object) -> V | None:
        """`value` as read from the file, or None when it is not an entry of this store."""
        raise NotImplementedError

    def items(self) -> dict[str, V]:
        return dict(self._data)

    def set(self, key: str, value: V) -> None:
        """Keep `value` for `key` (an empty value forgets the key) and save when anything changed."""
        if value:
            if self._data.get(key) == value:
                return
            self._data[key] = value
        elif key in self._data:
            del self._data[key]
        else:
            return
        self.save()

    def move(self, old: str, new: str) -> None:
        if old in self._data and old != new:
            self._data[new] = self._data.pop(old)
            self.save()

    def save(self) -> None:
        if self._memory_only:
            return
        try:
            text = json.dumps(self._data, ensure_ascii=False, indent=1)
            replace_file(self.path, text.encode("utf-8"))
        except OSError as exc:
            log.error("cannot save %s: %s", self.path, exc)
            _report_unwritable(self.path.parent, exc, self._problems)


def _report_unwritable(folder: Path, exc: OSError, problems: LocalProblems) -> None:
    if folder.exists() and not folder.is_dir():
        text = f"Your data folder {paths.shown(folder)} is a file, not a folder: {IN_MEMORY}."
    else:
        text = f"ClawQt cannot save to your data folder {paths.shown(folder)} ({exc.strerror}): {IN_MEMORY}."
    problems.add(text, str(exc), key=_folder_key(folder))


def check_folder(folder: Path, problems: LocalProblems) -> None:
    """Say at startup, not at the first lost save, when the stores cannot write to `folder`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        _report_unwritable(folder, exc, problems)
