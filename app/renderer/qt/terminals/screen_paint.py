"""Painting a terminal screen (`TerminalScreen`): the rows it shows, one `drawText` per style run of the
emulator, a live shell's cell backgrounds, the selection, the cursor and, while scrolled back, a thin
thumb saying where the viewport is. One `ScreenPaint` is read off the item for each paint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter

THUMB_ALPHA = 70  # the scroll-back thumb: the screen's text colour, faint
Cell = tuple[int, int]  # (absolute line, column)


@dataclass
class ScreenPaint:
    """What one paint needs: the look (QML sets it on the item), the viewport, the selection, the cursor
    ("" none, "block" while the terminal has the keys, else "outline")."""

    font: QFont
    metrics: QFontMetricsF
    text: QColor
    background: QColor
    selection_colour: QColor
    cursor_colour: QColor
    colours: dict[str, QColor]  # the item's cache of named colours
    palette: dict[str, str]  # the ANSI colours' values for the theme, by pyte's names
    size: tuple[float, float]
    first: int
    shown: int
    total: int  # lines in all (the thumb's scale)
    selection: tuple[Cell, Cell] | None
    cursor: str
    scroll_back: int

    def colour(self, name: str | None) -> QColor:
        if name is None or name == "foreground":
            return self.text
        if name == "background":
            return self.background
        colour = self.colours.get(name)
        if colour is None:
            colour = self.colours[name] = QColor(self.palette.get(name, name))
        return colour

    def paint(self, painter: QPainter, emulator: Any) -> None:
        line_height = self.metrics.lineSpacing()
        advance = self.metrics.horizontalAdvance("M")
        ascent = self.metrics.ascent()
        if self.selection is not None:
            self._paint_selection(painter, emulator, advance, line_height)
        bold = QFont(self.font)
        bold.setBold(True)
        painter.setFont(self.font)
        current_bold = False
        for row, runs in enumerate(emulator.runs(self.first, self.shown)):
            top = row * line_height
            baseline = top + ascent
            for run in runs:
                column, text, colour, is_bold = run[0], run[1], run[2], run[3]
                if len(run) > 4 and run[4] is not None:  # a live shell's cell background
                    cell = QRectF(column * advance, top, len(text) * advance, line_height)
                    painter.fillRect(cell, self.colour(run[4]))
                if is_bold != current_bold:
                    painter.setFont(bold if is_bold else self.font)
                    current_bold = is_bold
                painter.setPen(self.colour(colour))
                painter.drawText(QPointF(column * advance, baseline), text)
        if self.cursor:
            self._paint_cursor(painter, emulator, advance, line_height, ascent)
        if self.scroll_back:
            width, height = self.size
            thumb = max(12.0, height * self.shown / max(1, self.total))
            top = (height - thumb) * self.first / max(1, self.total - self.shown)
            faint = QColor(self.text)
            faint.setAlpha(THUMB_ALPHA)
            painter.fillRect(QRectF(width - 4, top, 3, thumb), faint)

    def _paint_selection(self, painter: QPainter, emulator: Any, advance: float, line_height: float) -> None:
        assert self.selection is not None
        (start_line, start_column), (end_line, end_column) = sorted(self.selection)
        base = emulator.line_base() + self.first
        for row in range(self.shown):
            line = base + row
            if start_line <= line <= end_line:
                left = start_column * advance if line == start_line else 0.0
                right = end_column * advance if line == end_line else self.size[0]
                if right > left:
                    rect = QRectF(left, row * line_height, right - left, line_height)
                    painter.fillRect(rect, self.selection_colour)

    def _paint_cursor(
        self, painter: QPainter, emulator: Any, advance: float, line_height: float, ascent: float
    ) -> None:
        cursor = emulator.cursor()
        if cursor is None or not self.first <= cursor[0] < self.first + self.shown:
            return
        line, column, char = cursor
        cell = QRectF(column * advance, (line - self.first) * line_height, advance, line_height)
        if self.cursor == "block":
            painter.fillRect(cell, self.cursor_colour)
            painter.setFont(self.font)
            painter.setPen(self.background)
            painter.drawText(QPointF(cell.left(), cell.top() + ascent), char)
        else:  # the keys go elsewhere: an outline says where typing would land
            painter.setPen(self.cursor_colour)
            painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5))
