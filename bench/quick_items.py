"""Reading the real window's Qt Quick items, for the window tests and the window benchmarks alike:
items found by name in the visual tree, a text edit's plain text, the marks find drew on it."""

from __future__ import annotations

from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem


def plain_text(edit: QQuickItem) -> str:
    """A (rich text) TextEdit's text as the user reads it, without its markup."""
    length = edit.property("length")
    text = QMetaObject.invokeMethod(
        edit, "getText", Q_RETURN_ARG("QString"), Q_ARG(int, 0), Q_ARG(int, length)
    )
    return text.replace("\u2029", "\n")  # Qt's paragraph separators


def find_all(root: QQuickItem, name: str) -> list[QQuickItem]:
    """Every item named `name` in the visual tree under `root` (itself included)."""
    found, stack = [], [root]
    while stack:
        current = stack.pop()
        if current.objectName() == name:
            found.append(current)
        stack.extend(current.childItems())
    return found


def drawn_marks(edit: QQuickItem) -> list[tuple[int, int, QColor]]:
    """The formats a text edit's document draws over its layout (find's marks): (block, start,
    background)."""
    quick = edit.property("textDocument")  # its document lives only while this wrapper does
    document = quick.textDocument()
    marks = []
    block = document.begin()
    while block.isValid():
        for fmt in block.layout().formats():
            marks.append((block.blockNumber(), fmt.start, fmt.format.background().color()))
        block = block.next()
    return marks
