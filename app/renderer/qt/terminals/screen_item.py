"""`TerminalScreen`: a terminal's screen (`ScreenView`, screen_view.py) with the keys and the
mouse. A card's screen scrolls with the wheel and the arrow and page keys. The terminal panel's live
shells opt into more (`interactive`, `showCursor`, `selectable`): keys go to the source
(`terminal_key`, `terminal_paste`) but for the few the screen keeps (terminal_keys.live_key), and the
mouse selects text for Copy. Cards and the sign-in terminal leave them off."""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import QEvent, QPointF, Qt, Slot
from PySide6.QtGui import QGuiApplication, QKeySequence

from app.renderer.qt.terminals.screen_view import ScreenView
from app.renderer.terminal.keys import live_key, scroll_key, takes_shortcut
from app.renderer.terminal.live import InteractiveTerminal

WHEEL_LINES = 3


class TerminalScreen(ScreenView):
    """A screen the user scrolls, selects in and, for a live shell, types into."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._selecting = False  # a left-button drag is selecting

    def wheelEvent(self, event: Any) -> None:
        steps = event.angleDelta().y() / 120
        emulator = self._emulator()
        if (
            self._interactive
            and steps
            and isinstance(emulator, InteractiveTerminal)
            and emulator.alternate_screen
        ):
            # a full-screen program (less, vim) has no scrollback here: the wheel moves it, as xterm does
            key = Qt.Key.Key_Up if steps > 0 else Qt.Key.Key_Down
            for _ in range(abs(round(steps * WHEEL_LINES)) or 1):
                self._send_key(int(key.value), "", 0)
            event.accept()
            return
        if steps and self.scroll_by(round(steps * WHEEL_LINES) or (1 if steps > 0 else -1)):
            event.accept()
        else:
            event.ignore()  # at an end: let the conversation scroll

    # --- selection ------------------------------------------------------------------------------
    def _position_at(self, point: QPointF) -> tuple[int, int] | None:
        """(absolute line, column boundary) under a point, clamped to the lines shown."""
        emulator = self._emulator()
        if not isinstance(emulator, InteractiveTerminal):
            return None
        first, shown = self._shown()
        if shown <= 0:
            return None
        row = min(max(int(point.y() // self._metrics.lineSpacing()), 0), shown - 1)
        advance = self._metrics.horizontalAdvance("M")
        column = min(max(round(point.x() / advance), 0), emulator.columns)
        return emulator.line_base() + first + row, column

    @Slot()
    def copySelection(self) -> None:
        text = self._get_selected_text()
        if text:
            QGuiApplication.clipboard().setText(text)

    @Slot()
    def paste(self) -> None:
        """The clipboard's text to the terminal (as typed: the source marks it if the program asks)."""
        text = QGuiApplication.clipboard().text()
        paste = getattr(self._source, "terminal_paste", None)
        if text and paste is not None and self._terminal_id:
            paste(self._terminal_id, text)
            self._scroll_to_end()

    def mousePressEvent(self, event: Any) -> None:
        self.forceActiveFocus(Qt.FocusReason.MouseFocusReason)
        if self._selectable and event.button() == Qt.MouseButton.LeftButton:
            position = self._position_at(event.position())
            self._selecting = position is not None
            self._set_selection(position, position)
        event.accept()

    def mouseMoveEvent(self, event: Any) -> None:
        if not self._selecting:
            event.ignore()
            return
        y = event.position().y()
        if y < 0:  # dragging past an edge scrolls, so a selection can be longer than the view
            self.scroll_by(1)
        elif y > self.height():
            self.scroll_by(-1)
        self._set_selection(self._anchor, self._position_at(event.position()))
        event.accept()

    def mouseReleaseEvent(self, event: Any) -> None:
        self._selecting = False
        event.accept()

    def mouseDoubleClickEvent(self, event: Any) -> None:
        emulator = self._emulator()
        position = self._position_at(event.position())
        if not self._selectable or position is None or not isinstance(emulator, InteractiveTerminal):
            event.ignore()
            return
        advance = self._metrics.horizontalAdvance("M")
        cell = min(int(event.position().x() // advance), max(0, emulator.columns - 1))
        start, end = emulator.word_at(position[0], cell)
        self._selecting = False
        self._set_selection((start.line, start.column), (end.line, end.column))
        event.accept()

    # --- keys -----------------------------------------------------------------------------------
    def _is_reserved(self, event: Any) -> bool:
        combination = QKeySequence(event.keyCombination()).toString(QKeySequence.SequenceFormat.PortableText)
        return combination in self._reserved

    def _takes_shortcut(self, event: Any) -> bool:
        """A key a live shell takes from the window's shortcuts (terminal_keys.takes_shortcut), unless
        it is one of the combinations the window keeps."""
        if not self._interactive or self._is_reserved(event):
            return False
        return takes_shortcut(int(event.key()), event.text(), int(event.modifiers().value))

    def event(self, event: Any) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self._takes_shortcut(event):
            event.accept()
            return True
        return super().event(event)

    def _send_key(self, key: int, text: str, modifiers: int) -> bool:
        send = getattr(self._source, "terminal_key", None)
        if send is None or not self._terminal_id:
            return False
        return bool(send(self._terminal_id, key, text, modifiers))

    def keyPressEvent(self, event: Any) -> None:
        if self._interactive:
            self._interactive_key(event)
            return
        lines = scroll_key(int(event.key()), self._rows)
        if lines is None:
            event.ignore()
            return
        self.scroll_by(lines)
        event.accept()

    def _interactive_key(self, event: Any) -> None:
        """A live shell gets every key but the few the screen keeps (terminal_keys.live_key)."""
        key, modifiers = int(event.key()), int(event.modifiers().value)
        action, lines = live_key(key, modifiers, self._rows)
        if action == "copy":
            self.copySelection()
        elif action == "paste":
            self.paste()
        elif action == "scroll":
            self.scroll_by(lines)
        elif self._send_key(key, event.text(), modifiers):
            self._scroll_to_end()  # typing shows the prompt again
        else:
            event.ignore()
            return
        event.accept()

    def focusInEvent(self, event: Any) -> None:
        super().focusInEvent(event)
        if self._show_cursor:
            self.update()  # the cursor is a filled block only while the terminal has the keys

    def focusOutEvent(self, event: Any) -> None:
        super().focusOutEvent(event)
        if self._show_cursor:
            self.update()


_registered: list[bool] = []


def register() -> None:
    """Make `TerminalScreen` available to QML as `import ClawQt.Terminal` (once per process: every
    window's engine sees the same type)."""
    from PySide6.QtQml import qmlRegisterType

    if not _registered:
        name = cast(bytes, "TerminalScreen")  # PySide6 wants a str here, its stubs say bytes
        qmlRegisterType(TerminalScreen, "ClawQt.Terminal", 1, 0, name)
        _registered.append(True)
