"""Small JSON stores in the data dir for what the user owns locally: drafts per session (kept across
session switches, agent crashes and restarts) and local session renames. Writes are atomic (temp file
+ rename); an unreadable file is kept aside as `.corrupt` and started afresh, never a crash."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from pathlib import Path

from app.main import paths

log = logging.getLogger(__name__)


class JsonStringMap:
    """A persisted str -> str map; `set` writes through (callers debounce bursts of typing)."""

    def __init__(self, filename: str, base: Path | None = None) -> None:
        self.path = (base or paths.data_dir()) / filename
        self._data: dict[str, str] = {}
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not an object")
            self._data = {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s (%s); keeping it as .corrupt and starting afresh", self.path, exc)
            with contextlib.suppress(OSError):
                self.path.replace(self.path.with_suffix(self.path.suffix + ".corrupt"))

    def get(self, key: str, default: str = "") -> str:
        return self._data.get(key, default)

    def items(self) -> dict[str, str]:
        return dict(self._data)

    def set(self, key: str, value: str) -> None:
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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=self.path.name, dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self._data, handle, ensure_ascii=False, indent=1)
            os.replace(tmp, self.path)
        except OSError as exc:
            log.error("cannot save %s: %s", self.path, exc)


def draft_store(base: Path | None = None) -> JsonStringMap:
    return JsonStringMap("drafts.json", base)


def session_names(base: Path | None = None) -> JsonStringMap:
    return JsonStringMap("session-names.json", base)


def session_previews(base: Path | None = None) -> JsonStringMap:
    """The first user text this app sent to or loaded from each session (its cached summary)."""
    return JsonStringMap("session-previews.json", base)


class LocalStores:
    """The local stores as the host API offers them (contract: LocalStores), in one data folder."""

    def __init__(self, base: Path | None = None) -> None:
        self.drafts = draft_store(base)
        self.names = session_names(base)
        self.previews = session_previews(base)
