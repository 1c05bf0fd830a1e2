"""`checkpoints` in QML: Restore to here on a user message. It asks the host what restoring would
change (the folders scanned now), holds that plan for the dialog to show, and carries it out only when
the user confirms; the files left as they are (changed in between) are said in the dialog and as a
notice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import FileChangeView
from app.contract.review_host import FileChangesHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

ACTIONS = {"created": "written back", "deleted": "deleted", "modified": "put back"}


def _step(view: FileChangeView) -> dict[str, Any]:
    status = "created" if view.created else "deleted" if view.deleted else "modified"
    return {"name": view.name, "path": view.path, "action": ACTIONS[status]}


class Checkpoints(QObject):
    changed = Signal()
    planned = Signal()  # a plan is ready: the dialog opens on it

    def __init__(
        self,
        files: FileChangesHost,
        ops: Operations,
        shown_key: Callable[[], str],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._files = files
        self._ops = ops
        self._shown_key = shown_key
        self._key = ""
        self._turn = ""
        self._steps: list[dict[str, Any]] = []
        self._notes: list[str] = []
        self._said = ""
        self._busy = False

    steps = variant_property("QVariantList", lambda self: self._steps, notify=changed)
    notes = variant_property("QVariantList", lambda self: self._notes, notify=changed)
    said = Property(str, lambda self: self._said, notify=changed)
    busy = Property(bool, lambda self: self._busy, notify=changed)  # the folders are being scanned
    turnId = Property(str, lambda self: self._turn, notify=changed)

    @Slot(str)
    def planRestore(self, message_id: str) -> None:
        """Restore to here was chosen on the message `message_id`: find out what it would change."""
        self._key, self._turn, self._said, self._busy = self._shown_key(), message_id, "", True
        self._steps, self._notes = [], []
        self.changed.emit()
        self._ops.run(
            self._files.plan_restore(self._key, message_id),
            "Cannot restore to this message",
            done=self._planned,
            after=self._done_scanning,
        )

    def _done_scanning(self) -> None:
        self._busy = False
        self.changed.emit()

    def _planned(self, views: list[FileChangeView]) -> None:
        self._steps = [_step(view) for view in views if view.path]
        self._notes = [view.note for view in views if not view.path]
        self.changed.emit()
        self.planned.emit()

    @Slot()
    def restore(self) -> None:
        refused = self._ops.call("Not restored", lambda: self._files.restore(self._key, self._turn))
        self._steps = []
        self._said = " ".join(refused or [])
        self.changed.emit()
