"""`TerminalScreen`: a terminal card's screen painted straight from the emulator's style runs.

Why painted: a rich-text TextEdit re-parses and re-lays out its whole document on every refresh
(hundreds of ms for a busy card); this item draws only the rows it shows (a fixed viewport, like a
terminal) with one `drawText` per style run, so a refresh costs a few ms whatever the output size.
UI state (how far the user scrolled back, the selection) lives here, in the view; the emulator stays
shared.

The terminal panel's live shells opt into more (`interactive`, `showCursor`, `selectable`): keys go to
the source (`terminal_key`, `terminal_paste`), the cursor is drawn, the mouse selects text for Copy, and
`fitColumns` x `fitRows` say what fits so the panel can resize the PTY. Cards and the sign-in terminal
leave them off and behave as before."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QEvent, QObject, QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QKeySequence, QPainter
from PySide6.QtQuick import QQuickPaintedItem

from app.renderer.terminal_keys import key_text

if TYPE_CHECKING:  # the emulator (and pyte) load with the first terminal card, not at startup
    from app.renderer.terminal_view import TerminalEmulator

WHEEL_LINES = 3
THUMB_WIDTH = 6  # the scrollback thumb's strip at the right edge (not a text column)
_ALT = Qt.KeyboardModifier.AltModifier
_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier
_META = Qt.KeyboardModifier.MetaModifier


def _option(attribute: str, kind: type, notify: Signal, repaint: bool = True) -> Any:
    """A plain read/write property of the panel's options, kept in `attribute` (repaints on change)."""

    def getter(self: Any) -> Any:
        return getattr(self, attribute)

    def setter(self: Any, value: Any) -> None:
        value = QColor(value) if kind is QColor else kind(value)
        if getattr(self, attribute) != value:
            setattr(self, attribute, value)
            self.optionsChanged.emit()
            if repaint:
                self.update()

    return Property(kind, getter, setter, notify=notify)


class TerminalScreen(QQuickPaintedItem):
    """Shows the last `rows` lines of one terminal (or fewer); the wheel and keys scroll back."""

    versionChanged = Signal()
    shownLinesChanged = Signal()
    scrollChanged = Signal()
    optionsChanged = Signal()
    selectionChanged = Signal()
    fitChanged = Signal()
    fontChanged = Signal()

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
        # the panel's options (off for cards and the sign-in terminal)
        self._interactive = False
        self._show_cursor = False
        self._selectable = False
        self._reserved: list[str] = []
        self._background = QColor("#16181d")
        self._selection_colour = QColor(59, 99, 214, 150)
        self._cursor_colour = QColor("#d7dae0")
        self._anchor: tuple[int, int] | None = None  # selection ends as (absolute line, column)
        self._head: tuple[int, int] | None = None
        self._selecting = False
        self._fit = (0, 0)
        self._seen_scrolled = 0
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

    @Slot(str)
    def _advanced(self, terminal_id: str) -> None:
        # a declared slot: a dynamic one is lost when QML extends the item (a QML function or
        # property on it gives it a metaobject of its own) and the screen would never repaint
        if terminal_id == self._terminal_id:
            if self._interactive:
                self._keep_scroll_place()
            self._changed()

    def _get_terminal_id(self) -> str:
        return self._terminal_id

    def _set_terminal_id(self, terminal_id: str) -> None:
        if terminal_id != self._terminal_id:
            self._terminal_id = terminal_id
            self._scroll_back = 0
            self._seen_scrolled = self._scrolled_total()
            self._set_selection(None, None)
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

    # --- the panel's options (see `_option`) ------------------------------------------------------
    # keys go to the source (`terminal_key` / `terminal_paste`); Shift+PageUp/PageDown scroll back
    interactive = _option("_interactive", bool, optionsChanged, repaint=False)
    showCursor = _option("_show_cursor", bool, optionsChanged)
    selectable = _option("_selectable", bool, optionsChanged)  # drag (or double-click a word) to select
    backgroundColor = _option("_background", QColor, optionsChanged)  # reverse video, the cursor's glyph
    selectionColor = _option("_selection_colour", QColor, optionsChanged)
    cursorColor = _option("_cursor_colour", QColor, optionsChanged)
    # key combinations (PortableText, e.g. "Ctrl+`") the window's shortcuts keep while interactive
    reservedShortcuts = _option("_reserved", list, optionsChanged, repaint=False)

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

    def _get_font_pixel_size(self) -> int:
        return self._font.pixelSize()

    def _set_font_pixel_size(self, size: int) -> None:
        """The text size (Theme's type scale follows the user's text-size setting): new metrics, a new
        fit for the same geometry, a repaint."""
        size = max(6, int(size))
        if size == self._font.pixelSize():
            return
        self._font.setPixelSize(size)
        self._metrics = QFontMetricsF(self._font)
        self.fontChanged.emit()
        self.geometryChange(self.boundingRect(), self.boundingRect())
        self.update()

    lineHeight = Property(float, _get_line_height, notify=fontChanged)
    fontPixelSize = Property(int, _get_font_pixel_size, _set_font_pixel_size, notify=fontChanged)
    shownLines = Property(int, _get_shown_lines, notify=shownLinesChanged)
    text = Property(str, _get_text, notify=versionChanged)
    paintedVersion = Property(int, _get_painted_version, notify=versionChanged)
    scrollBack = Property(int, _get_scroll_back, notify=scrollChanged)

    def _get_selected_text(self) -> str:
        emulator = self._emulator()
        if self._anchor is None or self._head is None or not hasattr(emulator, "selected_text"):
            return ""
        return emulator.selected_text(self._anchor, self._head)

    selectedText = Property(str, _get_selected_text, notify=selectionChanged)
    hasSelection = Property(
        bool, lambda self: self._anchor is not None and self._anchor != self._head, notify=selectionChanged
    )
    fitColumns = Property(int, lambda self: self._fit[0], notify=fitChanged)  # text columns that fit
    fitRows = Property(int, lambda self: self._fit[1], notify=fitChanged)

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

    def _scrolled_total(self) -> int:
        emulator = self._emulator()
        return getattr(emulator, "scrolled_total", 0) if emulator is not None else 0

    def _keep_scroll_place(self) -> None:
        """A live shell's new lines push older ones up: a user reading the scrollback keeps reading
        the same lines (a card's viewport just stays at the same distance from the end)."""
        total = self._scrolled_total()
        if self._scroll_back and total > self._seen_scrolled:
            self._scroll_back += total - self._seen_scrolled
            self.scrollChanged.emit()
        self._seen_scrolled = total

    def wheelEvent(self, event: Any) -> None:
        steps = event.angleDelta().y() / 120
        emulator = self._emulator()
        if self._interactive and steps and getattr(emulator, "alternate_screen", False):
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
        if emulator is None or not hasattr(emulator, "line_base"):
            return None
        first, shown = self._shown()
        if shown <= 0:
            return None
        row = min(max(int(point.y() // self._metrics.lineSpacing()), 0), shown - 1)
        advance = self._metrics.horizontalAdvance("M")
        column = min(max(round(point.x() / advance), 0), emulator.columns)
        return emulator.line_base() + first + row, column

    def _set_selection(self, anchor: tuple[int, int] | None, head: tuple[int, int] | None) -> None:
        if (anchor, head) != (self._anchor, self._head):
            self._anchor, self._head = anchor, head
            self.selectionChanged.emit()
            self.update()

    @Slot()
    def clearSelection(self) -> None:
        self._set_selection(None, None)

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
        if not self._selectable or position is None or not hasattr(emulator, "word_at"):
            event.ignore()
            return
        advance = self._metrics.horizontalAdvance("M")
        cell = min(int(event.position().x() // advance), max(0, emulator.columns - 1))
        start, end = emulator.word_at(position[0], cell)
        self._selecting = False
        self._set_selection(tuple(start), tuple(end))
        event.accept()

    # --- keys -----------------------------------------------------------------------------------
    def _is_reserved(self, event: Any) -> bool:
        combination = QKeySequence(event.keyCombination()).toString(QKeySequence.SequenceFormat.PortableText)
        return combination in self._reserved

    def _takes_shortcut(self, event: Any) -> bool:
        """Whether a key the window has a shortcut for goes to the shell instead (Esc, Ctrl+letters):
        everything the terminal would send, except the reserved combinations and Ctrl+Shift ones
        (the window's), and the panel's own Ctrl+Shift+C/V."""
        if not self._interactive or self._is_reserved(event):
            return False
        modifiers = event.modifiers()
        key = event.key()
        if modifiers & _CTRL and modifiers & _SHIFT:
            return key in (Qt.Key.Key_C, Qt.Key.Key_V)
        return bool(key_text(int(key), event.text(), int(modifiers.value)))

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

    def _scroll_to_end(self) -> None:
        if self._scroll_back:
            self._scroll_back = 0
            self.scrollChanged.emit()
            self._changed()

    def keyPressEvent(self, event: Any) -> None:
        if self._interactive:
            self._interactive_key(event)
            return
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

    def _interactive_key(self, event: Any) -> None:
        """A live shell gets every key (arrows, Tab, Esc, Ctrl+letters); the view keeps only
        Shift+PageUp/PageDown (scroll back), Ctrl+Shift+C (copy) and Ctrl+Shift+V / Shift+Insert (paste)."""
        key = event.key()
        modifiers = event.modifiers()
        ctrl, shift = bool(modifiers & _CTRL), bool(modifiers & _SHIFT)
        plain_shift = shift and not ctrl and not modifiers & (_ALT | _META)
        page = max(1, self._rows - 1)
        if ctrl and shift and key == Qt.Key.Key_C:
            self.copySelection()
        elif (ctrl and shift and key == Qt.Key.Key_V) or (plain_shift and key == Qt.Key.Key_Insert):
            self.paste()
        elif plain_shift and key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self.scroll_by(page if key == Qt.Key.Key_PageUp else -page)
        elif self._send_key(int(key), event.text(), int(modifiers.value)):
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

    # --- size -----------------------------------------------------------------------------------
    def geometryChange(self, new_geometry: QRectF, old_geometry: QRectF) -> None:
        super().geometryChange(new_geometry, old_geometry)
        advance = self._metrics.horizontalAdvance("M")
        fit = (
            max(0, int((new_geometry.width() - THUMB_WIDTH) // advance)),
            max(0, int(new_geometry.height() // self._metrics.lineSpacing())),
        )
        if fit != self._fit:
            self._fit = fit
            self.fitChanged.emit()

    # --- painting -------------------------------------------------------------------------------
    def _colour(self, name: str | None) -> QColor:
        if name is None or name == "foreground":
            return self._text_color
        if name == "background":
            return self._background
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
        if self._anchor is not None and self._anchor != self._head:
            self._paint_selection(painter, emulator, first, shown, advance, line_height)
        bold = QFont(self._font)
        bold.setBold(True)
        painter.setFont(self._font)
        current_bold = False
        for row, runs in enumerate(emulator.runs(first, shown)):
            top = row * line_height
            baseline = top + ascent
            for run in runs:
                column, text, colour, is_bold = run[0], run[1], run[2], run[3]
                if len(run) > 4 and run[4] is not None:  # a live shell's cell background
                    painter.fillRect(
                        QRectF(column * advance, top, len(text) * advance, line_height), self._colour(run[4])
                    )
                if is_bold != current_bold:
                    painter.setFont(bold if is_bold else self._font)
                    current_bold = is_bold
                painter.setPen(self._colour(colour))
                painter.drawText(QPointF(column * advance, baseline), text)
        if self._show_cursor and hasattr(emulator, "cursor"):
            self._paint_cursor(painter, emulator, first, shown, advance, line_height, ascent)
        if self._scroll_back:  # a thin thumb shows where the viewport is in the scrollback
            total = max(1, self._line_count())
            height = self.height()
            thumb = max(12.0, height * shown / total)
            top = (height - thumb) * first / max(1, total - shown)
            painter.fillRect(QRectF(self.width() - 4, top, 3, thumb), QColor(255, 255, 255, 70))

    def _paint_selection(
        self, painter: QPainter, emulator: Any, first: int, shown: int, advance: float, line_height: float
    ) -> None:
        (start_line, start_column), (end_line, end_column) = sorted((self._anchor, self._head))  # type: ignore[type-var]
        base = emulator.line_base() + first
        for row in range(shown):
            line = base + row
            if start_line <= line <= end_line:
                left = start_column * advance if line == start_line else 0.0
                right = end_column * advance if line == end_line else self.width()
                if right > left:
                    painter.fillRect(
                        QRectF(left, row * line_height, right - left, line_height), self._selection_colour
                    )

    def _paint_cursor(
        self,
        painter: QPainter,
        emulator: Any,
        first: int,
        shown: int,
        advance: float,
        line_height: float,
        ascent: float,
    ) -> None:
        cursor = emulator.cursor()
        if cursor is None or not first <= cursor[0] < first + shown:
            return
        line, column, char = cursor
        cell = QRectF(column * advance, (line - first) * line_height, advance, line_height)
        if self.hasActiveFocus():
            painter.fillRect(cell, self._cursor_colour)
            painter.setFont(self._font)
            painter.setPen(self._background)
            painter.drawText(QPointF(cell.left(), cell.top() + ascent), char)
        else:  # the keys go elsewhere: an outline says where typing would land
            painter.setPen(self._cursor_colour)
            painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5))


_registered: list[bool] = []


def register() -> None:
    """Make `TerminalScreen` available to QML as `import ClawQt.Terminal` (once per process: every
    window's engine sees the same type)."""
    from PySide6.QtQml import qmlRegisterType

    if not _registered:
        qmlRegisterType(TerminalScreen, "ClawQt.Terminal", 1, 0, "TerminalScreen")
        _registered.append(True)
