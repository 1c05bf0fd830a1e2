"""What the window shows as text, read the way a screen reader reads it (the accessibility tree, hidden
items left out), and whether an agent's reply is among it. For `clawqt self-test`, which a packager runs
on a fresh build: a QML module missing from a bundle shows as a window without the reply, not as a
crash."""

from __future__ import annotations

import re

from PySide6.QtGui import QAccessible, QAccessibleInterface, QWindow
from PySide6.QtQuick import QQuickItem

MAX_DEPTH = 80  # the window's item tree is far shallower; a cycle never runs forever
WORDS = 6  # how many words of the reply's last paragraph must show, in order
_MARKUP = re.compile(r"[*_`#>\[\]]")


def shown(node: QAccessibleInterface) -> bool:
    """Whether the user can see this node: Qt Quick reports a hidden item as visible to accessibility
    (with an empty name), so the item's own effective visibility decides."""
    if node.state().invisible:
        return False
    item = node.object()
    return not isinstance(item, QQuickItem) or item.isVisible()


def visible_texts(window: QWindow) -> list[str]:
    """The accessible names of the window's visible items, in tree order."""
    texts: list[str] = []

    def walk(node: QAccessibleInterface | None, depth: int) -> None:
        if node is None or not node.isValid() or depth > MAX_DEPTH or not shown(node):
            return
        name = node.text(QAccessible.Text.Name)
        if name:
            texts.append(name)
        for index in range(node.childCount()):
            walk(node.child(index), depth + 1)

    walk(QAccessible.queryAccessibleInterface(window), 0)
    return texts


def _words(text: str) -> list[str]:
    return _MARKUP.sub("", text).split()


def reply_shown(reply: str, texts: list[str]) -> str:
    """The first words of the reply's last paragraph when some visible text holds them ("" if none
    does, or the reply has no words)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", reply) if _words(p)]
    if not paragraphs:
        return ""
    wanted = " ".join(_words(paragraphs[-1])[:WORDS])
    return wanted if any(wanted in " ".join(_words(text)) for text in texts) else ""
