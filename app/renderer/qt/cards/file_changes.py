"""The files the agent changed in each turn of the shown session, as the turn footers show them (each
with its diff and a Revert), and those changed outside the chat before a turn, as its user message shows
them. Fetched from the host when a turn's record changes (a FileChangesEnvelope)
or another session is shown, so a footer only looks them up. A refused revert says why."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.contract.diffs import too_large
from app.contract.envelopes import Envelope, FileChangesEnvelope, FileChangeView, LoadResult
from app.contract.host_api import SessionsHost
from app.contract.review_host import FileChangesHost
from app.renderer.qt.common.operations import Operations


class FileChanges(QObject):
    changed = Signal(str)  # a turn id whose files changed

    def __init__(
        self, files: FileChangesHost, host: SessionsHost, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._files = files
        self._ops = ops
        self._key = ""  # the shown session
        self._turns: dict[str, list[dict[str, Any]]] = {}
        self._outside: dict[str, list[dict[str, Any]]] = {}  # what changed outside the chat before a turn
        host.subscribe(self._on_envelope)

    def files_changed(self, turn_id: str) -> list[dict[str, Any]]:
        """What a turn's footer shows (a lookup: the host was asked when the record changed)."""
        return self._turns.get(turn_id, [])

    def outside_files(self, turn_id: str) -> list[dict[str, Any]]:
        """What a user message shows under it: files changed outside the chat since the turn before."""
        return self._outside.get(turn_id, [])

    def _fetch(self, key: str, turn_id: str) -> None:
        for record, found in (
            (self._turns, self._files.changes(key, turn_id)),
            (self._outside, self._files.outside(key, turn_id)),
        ):
            if found:
                record[turn_id] = [_entry(c) for c in found]
            else:
                record.pop(turn_id, None)
        self.changed.emit(turn_id)

    def on_shown(self, result: LoadResult) -> None:
        self._key = result.session_key
        self._turns.clear()
        self._outside.clear()
        turns = self._files.turns(result.session_key) + self._files.outside_turns(result.session_key)
        for turn_id in dict.fromkeys(turns):
            self._fetch(result.session_key, turn_id)

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, FileChangesEnvelope) and envelope.session_key == self._key:
            self._fetch(envelope.session_key, envelope.turn_id)

    @Slot(str, str)
    def revert(self, turn_id: str, path: str) -> None:
        """Undo the agent's write (refused, with the reason shown, if the file changed since)."""
        self._ops.call("Not reverted", lambda: self._files.revert(self._key, turn_id, path))


def _entry(change: FileChangeView) -> dict[str, Any]:
    summary = too_large(change.diff)  # a diff left out still says how much changed
    if summary is not None:
        added, removed = summary.added, summary.removed
    else:
        from app.renderer.present.diff_view import (
            parse_unified,  # with the first changed file, not at startup
        )

        files = parse_unified(change.diff)
        added, removed = sum(f.added for f in files), sum(f.removed for f in files)
    return {
        "path": change.path,
        "name": change.name,
        "created": change.created,
        "deleted": change.deleted,
        "note": change.note,
        "diff": change.diff,
        "added": added,
        "removed": removed,
    }
