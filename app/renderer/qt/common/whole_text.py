"""`wholeText` in QML: text in the conversation is drawn whole, never culled to the lines in view.

Why: Qt marks a TextEdit whose source string is longer than 10,000 characters (its large-text threshold;
a block of prose with links passes it easily as HTML) as observing the viewport. Such an edit builds
scene nodes only for the lines in view and builds them again whenever an item above it moves. In the
conversation every flush of a streaming reply moves the list, so each such block built its nodes again
on every frame: a long reply's frames grew with its length (a second and more per frame at 127 blocks).
Chat text comes in blocks of bounded size (`app/renderer/markdown/limits.py`, the diff and tool output
limits), so each block is drawn whole once and kept.

Qt sets the flag at the end of every `setText`, after `textChanged`, so QML calls `keep` on
`textChanged` and the flag is cleared at the next frame's `afterAnimating`: after polishing, before the
scene is synchronised, so no node is ever built for the culled view."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, Slot
from PySide6.QtQuick import QQuickItem

_OBSERVES_VIEWPORT = QQuickItem.Flag.ItemObservesViewport


class WholeText(QObject):
    """Text edits of one window whose new text must be drawn whole (cleared before its next frame)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[QQuickItem] = []

    @Slot(QQuickItem)
    def keep(self, edit: QQuickItem) -> None:
        """`edit` was given new text: draw all of it in the coming frame."""
        self._pending.append(edit)

    @Slot()
    def before_sync(self) -> None:
        """The window polished its items and is about to build their nodes (`afterAnimating`)."""
        pending, self._pending = self._pending, []
        for edit in pending:
            if shiboken6.isValid(edit) and edit.flags() & _OBSERVES_VIEWPORT:
                edit.setFlag(_OBSERVES_VIEWPORT, False)
