"""`paintedTypes` in QML: the painted terminal screen (`import ClawQt.Terminal`) is registered the first
time a file that draws one is loaded, not before the window's first frame. Building its class is one
of the costliest steps of a start, and most windows show no terminal for a while; the files that
import it are therefore loaded by URL through `withTerminalScreen`, never inline in a file the window
loads at start."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot


class PaintedTypes(QObject):
    """Registers the painted QML types on first use."""

    @Slot(str, result=str)
    def withTerminalScreen(self, qml_file: str) -> str:
        """`qml_file` unchanged, once `TerminalScreen` is a QML type (a Loader's `source` asks this)."""
        from app.renderer.qt.terminals import screen_item as terminal_item

        terminal_item.register()
        return qml_file
