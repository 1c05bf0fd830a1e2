"""The marks a search draws in the conversation's text: every match of the query gets a background in
the text edits of the rows shown, the current one a stronger one. A `QSyntaxHighlighter` per text
document formats the matches of each text block as Qt lays it out, so a streaming block keeps its marks
and nothing is re-parsed; rows scrolled into view get theirs as they are made (`watch`), and closing
the search takes every highlighter off again.

Which match is current is found in what the row draws (`mark_in`): the n-th match among the row's text
edits (or a tool card's, for a hit in a tool), top to bottom."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject, QRectF
from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtQuick import QQuickItem, QQuickTextDocument

_TEXT_EDIT = "QQuickTextEdit"


def _format(background: QColor, foreground: QColor) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(background)
    fmt.setForeground(foreground)
    return fmt


class MatchHighlighter(QSyntaxHighlighter):
    """The matches in one text document. Kept by `SearchMarks`, not parented to the document: a document
    reached from Python is only valid while its QQuickTextDocument wrapper lives (PySide ties the two),
    so nothing here holds a document; Qt's highlighter lets go of a document that is destroyed."""

    def __init__(self, marks: SearchMarks) -> None:
        super().__init__(None)
        self._marks = marks
        self.current: tuple[int, int] | None = None  # (block number, start in the block)

    def highlightBlock(self, text: str) -> None:
        needle = self._marks.needle
        if not needle:
            return
        lowered = text.lower()
        block = self.currentBlock().blockNumber()
        marks = self._marks
        start = lowered.find(needle)
        while start >= 0:
            current = self.current == (block, start)
            self.setFormat(start, len(needle), marks.current_format if current else marks.match_format)
            start = lowered.find(needle, start + len(needle))


def text_edits(root: QQuickItem, hidden: bool = False) -> list[QQuickItem]:
    """The text edits under `root`, top to bottom as declared (rows lay their texts out in that order);
    hidden ones are left out unless asked for (a collapsed thought's)."""
    found: list[QQuickItem] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if not hidden and not item.isVisible():
            continue
        if item.metaObject().className().startswith(_TEXT_EDIT):
            found.append(item)
        stack.extend(reversed(item.childItems()))
    return found


def tool_card(row: QQuickItem, tool_id: str) -> QQuickItem | None:
    """The card of one tool call in a tool row's delegate."""
    stack = [row]
    while stack:
        item = stack.pop()
        if item.objectName() == "toolCard":
            tool = item.property("tool")
            if isinstance(tool, dict) and tool.get("id") == tool_id:
                return item
            continue
        stack.extend(item.childItems())
    return None


def quick_document(edit: QQuickItem) -> QQuickTextDocument | None:
    """A text edit's QQuickTextDocument. Keep it while using its `textDocument()`: the document's Python
    wrapper is invalidated when this one goes."""
    if not shiboken6.isValid(edit):
        return None
    wrapper = edit.property("textDocument")
    return wrapper if isinstance(wrapper, QQuickTextDocument) else None


def _address(document: QTextDocument) -> int:
    return shiboken6.getCppPointer(document)[0]


class SearchMarks:
    """The highlighters of one window's conversation (one per text document, by its address) and what
    they mark."""

    def __init__(self) -> None:
        self.needle = ""  # the query, lower-case; "" marks nothing
        self.match_format = _format(QColor("#fff0a8"), QColor("#1d1d1f"))
        self.current_format = _format(QColor("#ffb938"), QColor("#1d1d1f"))
        self._highlighters: dict[int, MatchHighlighter] = {}
        self._current: MatchHighlighter | None = None

    def set_colours(self, match: QColor, current: QColor, text: QColor) -> None:
        self.match_format = _format(match, text)
        self.current_format = _format(current, text)
        self._rehighlight()

    def set_needle(self, needle: str) -> None:
        if needle == self.needle:
            return
        self.needle = needle
        self._set_current(None, None)
        if needle:
            self._rehighlight()
        else:
            self.clear()

    def watch(self, edit: QQuickItem) -> MatchHighlighter | None:
        """A text edit of the conversation: marked while a query is active; its highlighter."""
        if not self.needle:
            return None
        quick = quick_document(edit)
        document = quick.textDocument() if quick is not None else None
        if document is None:
            return None
        address = _address(document)
        highlighter = self._highlighters.get(address)
        if highlighter is not None and _address_of_document(highlighter) == address:
            return highlighter
        highlighter = MatchHighlighter(self)
        highlighter.setDocument(document)
        self._highlighters[address] = highlighter
        return highlighter

    def watch_all(self, root: QQuickItem) -> None:
        """Every text edit under `root`, the hidden ones too (a delegate pooled for reuse comes back
        with new text and no call of its own)."""
        self._prune()
        for edit in text_edits(root, hidden=True):
            self.watch(edit)

    def mark_in(self, root: QQuickItem, index: int) -> QRectF:
        """Make the `index`-th match drawn under `root` the current one; its rectangle in `root`'s
        coordinates (empty when `root` draws fewer matches: a match in markup, or in a title)."""
        needle = self.needle
        if not needle or index < 0:
            self._set_current(None, None)
            return QRectF()
        for edit in text_edits(root):
            quick = quick_document(edit)
            document = quick.textDocument() if quick is not None else None
            if document is None:
                continue
            text = document.toPlainText().lower()
            start = text.find(needle)
            while start >= 0 and index > 0:
                index -= 1
                start = text.find(needle, start + len(needle))
            if start < 0:
                continue
            block = document.findBlock(start)
            self._set_current(self.watch(edit), (block.blockNumber(), start - block.position()))
            rect = _position_rect(edit, start) or QRectF(0, 0, edit.width(), edit.height())
            return edit.mapRectToItem(root, rect)
        self._set_current(None, None)
        return QRectF()

    def clear(self) -> None:
        """The search closed: every highlighter comes off (its document is laid out plain again)."""
        highlighters, self._highlighters = self._highlighters, {}
        self._current = None
        for highlighter in highlighters.values():
            if highlighter.document() is not None:
                highlighter.setDocument(None)

    def _set_current(self, highlighter: MatchHighlighter | None, where: tuple[int, int] | None) -> None:
        previous = self._current
        self._current = highlighter
        if previous is not None and previous is not highlighter:
            previous.current = None
            if previous.document() is not None:
                previous.rehighlight()
        if highlighter is not None:
            highlighter.current = where
            highlighter.rehighlight()

    def _prune(self) -> None:
        """Forget highlighters whose document is gone (their rows' delegates were destroyed)."""
        self._highlighters = {
            address: h for address, h in self._highlighters.items() if _address_of_document(h) == address
        }

    def _rehighlight(self) -> None:
        self._prune()
        for highlighter in self._highlighters.values():
            highlighter.rehighlight()


def _address_of_document(highlighter: MatchHighlighter) -> int:
    document = highlighter.document()
    return _address(document) if document is not None else 0


def _position_rect(edit: QQuickItem, position: int) -> QRectF | None:
    """Where a character of a text edit is drawn (QML's `positionToRectangle`)."""
    try:
        rect = QMetaObject.invokeMethod(
            edit, "positionToRectangle", Q_RETURN_ARG("QRectF"), Q_ARG(int, position)
        )
    except (RuntimeError, TypeError):
        return None
    return rect if isinstance(rect, QRectF) else None
