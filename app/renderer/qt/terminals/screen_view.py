"""`ScreenView`: a terminal's screen painted straight from the emulator's style runs (the cards, the
sign-in terminal and, with keys and mouse, the panel's live shells: `TerminalScreen`, screen_item.py).

Why painted: a rich-text TextEdit re-parses and re-lays out its whole document on every refresh
(hundreds of ms for a busy card); this item draws only the rows it shows (a fixed viewport, like a
terminal) with one `drawText` per style run (screen_paint.py), so a refresh costs a few ms whatever
the output size. UI state (how far the user scrolled back, the selection) lives here, in the view; the
emulator stays shared. `fitColumns` x `fitRows` say what fits so the panel can resize the PTY."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, QRect, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFontMetricsF, QPainter
from PySide6.QtQuick import QQuickPaintedItem

from app.renderer.qt.common.fonts import mono_font
from app.renderer.qt.terminals.screen_paint import ScreenPaint
from app.renderer.terminal.emulator import TerminalEmulator
from app.renderer.terminal.live import InteractiveTerminal
from app.renderer.terminal.runs import LIGHT_PALETTE, PALETTE

# this module loads with the first terminal shown (painted_types.py), and the emulators with it
Emulator = TerminalEmulator | InteractiveTerminal  # a card's replayed output | a live shell

THUMB_WIDTH = 6  # the scrollback thumb's strip at the right edge (not a text column)


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


class ScreenView(QQuickPaintedItem):
    """Shows the last `rows` lines of one terminal (or fewer), or further back while scrolled."""

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
        self._font = mono_font(12)
        self._metrics = QFontMetricsF(self._font)
        self._colours: dict[str, QColor] = {}  # by name: a palette entry's value, or a hex colour
        self._dark_palette = True
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

    def _get_dark_palette(self) -> bool:
        return self._dark_palette

    def _set_dark_palette(self, dark: bool) -> None:
        if dark != self._dark_palette:
            self._dark_palette = dark
            self._colours.clear()  # the names stay, their values change
            self.update()

    def _set_text_color(self, colour: QColor) -> None:
        self._text_color = QColor(colour)
        self.update()

    source = Property(QObject, _get_source, _set_source, notify=versionChanged)
    terminalId = Property(str, _get_terminal_id, _set_terminal_id, notify=versionChanged)
    version = Property(int, _get_version, notify=versionChanged)  # bumped on each change; see paint
    rows = Property(int, _get_rows, _set_rows, notify=versionChanged)
    textColor = Property(QColor, _get_text_color, _set_text_color)
    darkPalette = Property(bool, _get_dark_palette, _set_dark_palette)  # the ANSI colours for a dark screen

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
    def _emulator(self) -> Emulator | None:
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
        if self._anchor is None or self._head is None or not isinstance(emulator, InteractiveTerminal):
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
        return emulator.scrolled_total if isinstance(emulator, InteractiveTerminal) else 0

    def _keep_scroll_place(self) -> None:
        """A live shell's new lines push older ones up: a user reading the scrollback keeps reading
        the same lines (a card's viewport just stays at the same distance from the end)."""
        total = self._scrolled_total()
        if self._scroll_back and total > self._seen_scrolled:
            self._scroll_back += total - self._seen_scrolled
            self.scrollChanged.emit()
        self._seen_scrolled = total

    def _scroll_to_end(self) -> None:
        if self._scroll_back:
            self._scroll_back = 0
            self.scrollChanged.emit()
            self._changed()

    # --- selection (made by `TerminalScreen`'s mouse) ---------------------------------------------
    def _set_selection(self, anchor: tuple[int, int] | None, head: tuple[int, int] | None) -> None:
        if (anchor, head) != (self._anchor, self._head):
            self._anchor, self._head = anchor, head
            self.selectionChanged.emit()
            self.update()

    @Slot()
    def clearSelection(self) -> None:
        self._set_selection(None, None)

    # --- size -----------------------------------------------------------------------------------
    def geometryChange(self, new_geometry: QRectF | QRect, old_geometry: QRectF | QRect) -> None:
        super().geometryChange(new_geometry, old_geometry)
        advance = self._metrics.horizontalAdvance("M")
        fit = (
            max(0, int((new_geometry.width() - THUMB_WIDTH) // advance)),
            max(0, int(new_geometry.height() // self._metrics.lineSpacing())),
        )
        if fit != self._fit:
            self._fit = fit
            self.fitChanged.emit()

    # --- painting (screen_paint.py) ------------------------------------------------------------
    def paint(self, painter: QPainter) -> None:
        emulator = self._emulator()
        self._painted_version = self._version
        if emulator is None:
            return
        first, shown = self._shown()
        selected = self._anchor is not None and self._head is not None and self._anchor != self._head
        cursor = ""
        if self._show_cursor and isinstance(emulator, InteractiveTerminal):
            cursor = "block" if self.hasActiveFocus() else "outline"
        ScreenPaint(
            self._font,
            self._metrics,
            self._text_color,
            self._background,
            self._selection_colour,
            self._cursor_colour,
            self._colours,
            PALETTE if self._dark_palette else LIGHT_PALETTE,
            (self.width(), self.height()),
            first,
            shown,
            self._line_count() if self._scroll_back else 0,
            (self._anchor, self._head) if selected else None,  # type: ignore[arg-type]
            cursor,
            self._scroll_back,
        ).paint(painter, emulator)
