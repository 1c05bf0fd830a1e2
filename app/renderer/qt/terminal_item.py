"""`TerminalScreen`: a terminal card's screen painted straight from the emulator's style runs.

Why painted: a rich-text TextEdit re-parses and re-lays out its whole document on every refresh
(hundreds of ms for a busy card); this item draws only the rows it shows (a fixed viewport, like a
terminal) with one `drawText` per style run, so a refresh costs a few ms whatever the output size.
UI state (how far the user scrolled back) lives here, in the view; the emulator stays shared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QObject, QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtQuick import QQuickPaintedItem

if TYPE_CHECKING:  # the emulator (and pyte) load with the first terminal card, not at startup
    from app.renderer.terminal_view import TerminalEmulator

WHEEL_LINES = 3


class TerminalScreen(QQuickPaintedItem):
    """Shows the last `rows` lines of one terminal (or fewer); the wheel and keys scroll back."""

    versionChanged = Signal()
    shownLinesChanged = Signal()
    scrollChanged = Signal()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._source: Any = None
        self._terminal_id = ""
        self._version = 0
        self._shown_lines = 0
        self._painted_version = -1
        self._rows = 24
        self._scroll_back = 0
        self._text_color = QColor("#d7dae0")
        self._font = QFont("DejaVu Sans Mono")
        self._font.setPixelSize(12)
        self._metrics = QFontMetricsF(self._font)
        self._colours: dict[str, QColor] = {}
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)  # focus on click, for the scroll keys
        self.setActiveFocusOnTab(True)
        self.setOpaquePainting(False)

    # --- properties set from QML --------------------------------------------------------------
    def _get_source(self) -> Any:
        return self._source

    def _set_source(self, source: Any) -> None:
        if self._source is not None and hasattr(self._source, "terminalAdvanced"):
            self._source.terminalAdvanced.disconnect(self._advanced)
        self._source = source
        if source is not None and hasattr(source, "terminalAdvanced"):
            source.terminalAdvanced.connect(self._advanced)
        self._changed()

    @Slot()
    def refresh(self) -> None:
        """The card's payload changed (exit, a rebuilt ```console block): repaint."""
        self._changed()

    def _advanced(self, terminal_id: str) -> None:
        if terminal_id == self._terminal_id:
            self._changed()

    def _get_terminal_id(self) -> str:
        return self._terminal_id

    def _set_terminal_id(self, terminal_id: str) -> None:
        if terminal_id != self._terminal_id:
            self._terminal_id = terminal_id
            self._scroll_back = 0
            self._changed()

    def _get_version(self) -> int:
        return self._version

    def _get_rows(self) -> int:
        return self._rows

    def _set_rows(self, rows: int) -> None:
        self._rows = max(1, rows)
        self._changed()

    def _get_text_color(self) -> QColor:
        return self._text_color

    def _set_text_color(self, colour: QColor) -> None:
        self._text_color = QColor(colour)
        self.update()

    source = Property(QObject, _get_source, _set_source, notify=versionChanged)
    terminalId = Property(str, _get_terminal_id, _set_terminal_id, notify=versionChanged)
    version = Property(int, _get_version, notify=versionChanged)  # bumped on each change; see paint
    rows = Property(int, _get_rows, _set_rows, notify=versionChanged)
    textColor = Property(QColor, _get_text_color, _set_text_color)

    # --- read-only properties for QML and tests -----------------------------------------------
    def _emulator(self) -> TerminalEmulator | None:
        source = self._source
        if source is None or not self._terminal_id or not hasattr(source, "terminal_emulator"):
            return None
        return source.terminal_emulator(self._terminal_id)

    def _line_count(self) -> int:
        emulator = self._emulator()
        return emulator.line_count() if emulator is not None else 0

    def _shown(self) -> tuple[int, int]:
        """(first line, how many) of the viewport."""
        total = self._line_count()
        shown = min(self._rows, total)
        self._scroll_back = max(0, min(self._scroll_back, total - shown))
        return total - shown - self._scroll_back, shown

    def _get_line_height(self) -> float:
        return self._metrics.lineSpacing()

    def _get_shown_lines(self) -> int:
        return self._shown_lines

    def _get_text(self) -> str:
        emulator = self._emulator()
        if emulator is None:
            return ""
        return emulator.visible_text(*self._shown())

    def _get_painted_version(self) -> int:
        return self._painted_version

    def _get_scroll_back(self) -> int:
        return self._scroll_back

    lineHeight = Property(float, _get_line_height, constant=True)
    shownLines = Property(int, _get_shown_lines, notify=shownLinesChanged)
    text = Property(str, _get_text, notify=versionChanged)
    paintedVersion = Property(int, _get_painted_version, notify=versionChanged)
    scrollBack = Property(int, _get_scroll_back, notify=scrollChanged)

    def _changed(self) -> None:
        self._version += 1
        self.versionChanged.emit()
        shown = self._shown()[1]
        if shown != self._shown_lines:  # the card's height follows only while it has few lines
            self._shown_lines = shown
            self.shownLinesChanged.emit()
        self.update()

    # --- scrolling ------------------------------------------------------------------------------
    def scroll_by(self, lines: int) -> bool:
        """Scroll back (positive) or forward; False when already at that end."""
        total = self._line_count()
        wanted = max(0, min(self._scroll_back + lines, total - min(self._rows, total)))
        if wanted == self._scroll_back:
            return False
        self._scroll_back = wanted
        self.scrollChanged.emit()
        self._changed()
        return True

    def wheelEvent(self, event: Any) -> None:
        steps = event.angleDelta().y() / 120
        if steps and self.scroll_by(round(steps * WHEEL_LINES) or (1 if steps > 0 else -1)):
            event.accept()
        else:
            event.ignore()  # at an end: let the conversation scroll

    def mousePressEvent(self, event: Any) -> None:
        self.forceActiveFocus(Qt.FocusReason.MouseFocusReason)
        event.accept()

    def keyPressEvent(self, event: Any) -> None:
        key = event.key()
        page = max(1, self._rows - 1)
        moves = {
            Qt.Key.Key_Up: 1,
            Qt.Key.Key_Down: -1,
            Qt.Key.Key_PageUp: page,
            Qt.Key.Key_PageDown: -page,
            Qt.Key.Key_Home: 1 << 30,
            Qt.Key.Key_End: -(1 << 30),
        }
        if key in moves:
            self.scroll_by(moves[key])
            event.accept()
        else:
            event.ignore()

    # --- painting -------------------------------------------------------------------------------
    def _colour(self, name: str | None) -> QColor:
        if name is None:
            return self._text_color
        colour = self._colours.get(name)
        if colour is None:
            colour = self._colours[name] = QColor(name)
        return colour

    def paint(self, painter: QPainter) -> None:
        emulator = self._emulator()
        self._painted_version = self._version
        if emulator is None:
            return
        first, shown = self._shown()
        line_height = self._metrics.lineSpacing()
        advance = self._metrics.horizontalAdvance("M")
        ascent = self._metrics.ascent()
        bold = QFont(self._font)
        bold.setBold(True)
        painter.setFont(self._font)
        current_bold = False
        for row, runs in enumerate(emulator.runs(first, shown)):
            baseline = row * line_height + ascent
            for column, text, colour, is_bold in runs:
                if is_bold != current_bold:
                    painter.setFont(bold if is_bold else self._font)
                    current_bold = is_bold
                painter.setPen(self._colour(colour))
                painter.drawText(QPointF(column * advance, baseline), text)
        if self._scroll_back:  # a thin thumb shows where the viewport is in the scrollback
            total = max(1, self._line_count())
            height = self.height()
            thumb = max(12.0, height * shown / total)
            top = (height - thumb) * first / max(1, total - shown)
            painter.fillRect(QRectF(self.width() - 4, top, 3, thumb), QColor(255, 255, 255, 70))


def register() -> None:
    """Make `TerminalScreen` available to QML as `import ClawQt.Terminal`."""
    from PySide6.QtQml import qmlRegisterType

    qmlRegisterType(TerminalScreen, "ClawQt.Terminal", 1, 0, "TerminalScreen")
