"""The marks a search draws in the conversation's text: every match of the query gets a background in
the text edits of the rows shown, the current one a stronger one. A `QSyntaxHighlighter` per text
document formats the matches of each text block as Qt lays it out, so a streaming block keeps its marks
and nothing is re-parsed; rows scrolled into view get theirs as they are made (`watch`), and closing
the search takes every highlighter off again.

Marking is bounded like counting: a document marks at most `MARKS_PER_DOCUMENT` matches (the current one
always), and documents are marked (a new query, new colours, text edits made) a few at a time in slices
between frames, those on screen first: Qt lays a document out again for its marks, which cost seconds
for a one-letter query over the 300,000 characters of a long reply shown at once.

Which match is current is found in what the row draws (`mark_in`): the n-th match among the row's text
edits (or a tool card's, for a hit in a tool), top to bottom. A match past what a long reply shows (its
"more" block: "N of M characters shown", Show more) has no mark: the view shows that block instead."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import shiboken6
from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject, QRectF, QTimer
from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtQuick import QQuickItem, QQuickTextDocument

_TEXT_EDIT = "QQuickTextEdit"
_MORE = "moreLabel"  # a long reply's "N of M characters shown" (TextBlocks.qml)
MARKS_PER_DOCUMENT = 1_000  # matches marked in one text document (a block of a reply, a tool's output)
MARK_SLICE_S = 0.008  # documents marked per slice, at least one
MARK_INTERVAL_MS = 16  # between slices: the window draws


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
        super().__init__(None)  # type: ignore[call-overload]  # no parent: PySide6 takes None, its stubs do not say so
        self._marks = marks
        self.retired = False  # the search closed: to be taken off its document
        self.current: tuple[int, int] | None = None  # (block number, start in the block)

    def highlightBlock(self, text: str) -> None:
        """The block's matches while the document has marked fewer than `MARKS_PER_DOCUMENT` (the
        count so far is the block state Qt carries from block to block), and the current match."""
        marks = self._marks
        needle = marks.needle
        if not needle:
            return
        before = max(0, self.previousBlockState())
        block = self.currentBlock().blockNumber()
        current = self.current[1] if self.current is not None and self.current[0] == block else -1
        lowered = text.lower()
        marked = 0
        start = lowered.find(needle) if before < MARKS_PER_DOCUMENT or current >= 0 else -1
        while start >= 0 and before + marked < MARKS_PER_DOCUMENT:
            self.setFormat(
                start, len(needle), marks.current_format if start == current else marks.match_format
            )
            marked += 1
            start = lowered.find(needle, start + len(needle))
        if start >= 0 and current >= start:  # past the document's marks: the current one still is
            self.setFormat(current, len(needle), marks.current_format)
        self.setCurrentBlockState(before + marked)


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
    they mark. What waits for a slice (`_waiting`): text edits to give a highlighter, highlighters to
    run again or take off. Setting a highlighter on a document or taking it off costs a layout of the
    document even when nothing is marked, so that waits too; a waiting text edit is dropped when QML
    destroys it (its `destroyed` signal), so no slice touches a destroyed one."""

    def __init__(self) -> None:
        self.needle = ""  # the query, lower-case; "" marks nothing
        self.match_format = _format(QColor("#fff0a8"), QColor("#1d1d1f"))
        self.current_format = _format(QColor("#ffb938"), QColor("#1d1d1f"))
        self._highlighters: dict[int, MatchHighlighter] = {}
        self._current: MatchHighlighter | None = None
        self._retired: dict[int, MatchHighlighter] = {}  # by document address: to be taken off
        self._waiting: dict[int, QQuickItem | MatchHighlighter] = {}  # by their own address
        self._guards: dict[int, Callable[..., None]] = {}  # a waiting text edit's `destroyed` slot
        self._view: QQuickItem | None = None  # what is on screen (the conversation's list), when known
        self._slices = QTimer()
        self._slices.setSingleShot(True)
        self._slices.setInterval(MARK_INTERVAL_MS)
        self._slices.timeout.connect(self._mark_more)

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

    def watch(self, edit: QQuickItem) -> None:
        """A text edit of the conversation: marked while a query is active (in the next slices)."""
        if not self.needle:
            return
        address = _document_address(edit)
        if address is None:
            return
        highlighter = self._highlighters.get(address)
        if highlighter is not None and _address_of_document(highlighter) == address:
            return  # Qt marks what changes in its document
        highlighter = self._take_back(address)
        if highlighter is not None:
            self._wait([highlighter])
            return
        key = _pointer(edit)
        if key in self._waiting:
            return

        def destroyed(*_: object) -> None:
            self._waiting.pop(key, None)
            self._guards.pop(key, None)

        edit.destroyed.connect(destroyed)
        self._guards[key] = destroyed
        self._wait([edit])

    def watch_all(self, root: QQuickItem) -> None:
        """Every text edit under `root`, the hidden ones too (a delegate pooled for reuse comes back
        with new text and no call of its own). `root` is the conversation list's content: the list
        itself is what is on screen."""
        view = root.parentItem()
        if view is not None and view is not self._view:
            self._view = view
            view.destroyed.connect(self._forget_view)
        self._prune()
        for edit in text_edits(root, hidden=True):
            self.watch(edit)

    def _forget_view(self) -> None:
        self._view = None

    def _take_back(self, address: int) -> MatchHighlighter | None:
        """A highlighter still to be taken off the document at `address`, active again."""
        highlighter = self._retired.pop(address, None)
        if highlighter is None or _address_of_document(highlighter) != address:
            return None
        highlighter.retired = False
        self._highlighters[address] = highlighter
        return highlighter

    def _attach(self, edit: QQuickItem) -> MatchHighlighter | None:
        """A text edit's highlighter while a query is active, made and run now if it has none."""
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
        highlighter = self._take_back(address)
        if highlighter is None:
            highlighter = MatchHighlighter(self)
            highlighter.setDocument(document)
            self._highlighters[address] = highlighter
        highlighter.rehighlight()  # now (setDocument's own would come with every other one's)
        return highlighter

    def mark_in(self, root: QQuickItem, index: int) -> QRectF:
        """Make the `index`-th match drawn under `root` the current one; its rectangle in `root`'s
        coordinates. When `root` draws fewer matches: the rectangle of its "more" block if it has one
        (the match is in the part of a long reply not shown), else empty (a match in markup, or in a
        title). Text edits before the one holding the match are counted, not walked match by match."""
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
            drawn = text.count(needle)
            if index >= drawn:
                index -= drawn
                continue
            start = text.find(needle)
            for _ in range(index):
                start = text.find(needle, start + len(needle))
            block = document.findBlock(start)
            self._set_current(self._attach(edit), (block.blockNumber(), start - block.position()))
            rect = _position_rect(edit, start) or QRectF(0, 0, edit.width(), edit.height())
            return edit.mapRectToItem(root, rect)
        self._set_current(None, None)
        more = _more_block(root)
        return more.mapRectToItem(root, QRectF(0, 0, more.width(), more.height())) if more else QRectF()

    def clear(self) -> None:
        """The search closed: every highlighter comes off (its document is laid out plain again), in
        slices, those on screen first."""
        highlighters, self._highlighters = self._highlighters, {}
        self._current = None
        for key in list(self._waiting):
            self._unwait(key)
        for address, highlighter in highlighters.items():
            highlighter.retired = True
            self._retired[address] = highlighter
        self._wait(self._retired.values())

    def _set_current(self, highlighter: MatchHighlighter | None, where: tuple[int, int] | None) -> None:
        previous = self._current
        self._current = highlighter
        if previous is not None and previous is not highlighter:
            previous.current = None
            if previous.document() is not None:
                previous.rehighlight()
        if highlighter is not None:
            highlighter.current = where
            self._unwait(_pointer(highlighter))
            highlighter.rehighlight()

    def _prune(self) -> None:
        """Forget highlighters whose document is gone (their rows' delegates were destroyed)."""
        self._highlighters = {
            address: h for address, h in self._highlighters.items() if _address_of_document(h) == address
        }
        self._retired = {
            address: h for address, h in self._retired.items() if _address_of_document(h) == address
        }

    def _rehighlight(self) -> None:
        """Every highlighter runs again (a new query, new colours), in the next slices."""
        self._prune()
        self._wait(self._highlighters.values())

    def _wait(self, entries: Iterable[QQuickItem | MatchHighlighter]) -> None:
        for entry in entries:
            self._waiting[_pointer(entry)] = entry
        if self._waiting and not self._slices.isActive():
            self._slices.start()

    def _unwait(self, key: int) -> QQuickItem | MatchHighlighter | None:
        """Take an entry out of `_waiting` (a text edit's `destroyed` slot with it)."""
        entry = self._waiting.pop(key, None)
        guard = self._guards.pop(key, None)
        if guard is not None and isinstance(entry, QQuickItem):
            entry.destroyed.disconnect(guard)
        return entry

    def _mark_more(self) -> None:
        """One slice: text edits given a highlighter, highlighters run again or taken off, those on
        screen first, until `MARK_SLICE_S`."""
        started = time.perf_counter()
        for key in self._on_screen_first():
            entry = self._unwait(key)
            if isinstance(entry, MatchHighlighter):
                if entry.retired:
                    self._retired.pop(_address_of_document(entry), None)
                    if entry.document() is not None:
                        entry.setDocument(None)
                elif entry.document() is not None:
                    entry.rehighlight()
            elif entry is not None:
                self._attach(entry)
            else:
                continue
            if time.perf_counter() - started >= MARK_SLICE_S:
                break
        if self._waiting:
            self._slices.start()

    def _on_screen_first(self) -> list[int]:
        """The waiting entries, those whose text edit (for a highlighter: its document's parent) is on
        screen first."""
        view = self._view
        if view is None or len(self._waiting) < 2:
            return list(self._waiting)
        height = view.height()

        def off_screen(key: int) -> bool:
            entry = self._waiting[key]
            if isinstance(entry, MatchHighlighter):
                document = entry.document()
                edit = document.parent() if document is not None else None
            else:
                edit = entry
            if not isinstance(edit, QQuickItem) or not edit.isVisible():
                return True
            area = edit.mapRectToItem(view, QRectF(0, 0, edit.width(), edit.height()))
            return area.bottom() < 0 or area.top() > height

        return sorted(self._waiting, key=off_screen)


def _more_block(root: QQuickItem) -> QQuickItem | None:
    """The shown "more" block under `root` (the part of a long reply not laid out), if any."""
    stack = [root]
    while stack:
        item = stack.pop()
        if item.isVisible() and item.objectName() == _MORE:
            return item
        stack.extend(item.childItems())
    return None


def _pointer(entry: QQuickItem | MatchHighlighter) -> int:
    return shiboken6.getCppPointer(entry)[0]


def _document_address(edit: QQuickItem) -> int | None:
    quick = quick_document(edit)
    document = quick.textDocument() if quick is not None else None
    return _address(document) if document is not None else None


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
