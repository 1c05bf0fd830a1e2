"""The window shown where the user left it: its remembered size and position (on a screen that is still
there) or maximized. Apart from ViewMemory, which notes the moves afterwards, because the window is shown
before the chat objects exist (main_window.py: its first frame waits for nothing)."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication, QWindow

from app.contract.local_stores import WindowPlacement

MIN_VISIBLE_PX = 120  # a restored window shows at least this much of itself on some screen


def show_placed(window: QWindow, placement: WindowPlacement) -> None:
    """Give the window its remembered geometry and show it."""
    width, height = placement.get("width"), placement.get("height")
    if width and height:
        window.resize(width, height)
    if "x" in placement and "y" in placement:
        rect = QRect(placement["x"], placement["y"], window.width(), window.height())
        if on_a_screen(rect):
            window.setPosition(rect.topLeft())
    if placement.get("maximized"):
        window.showMaximized()
    else:
        window.show()


def on_a_screen(rect: QRect) -> bool:
    """Whether enough of `rect` is on a screen there now (a monitor unplugged since is not)."""
    for screen in QGuiApplication.screens():
        shown = rect.intersected(screen.availableGeometry())
        if shown.width() >= MIN_VISIBLE_PX and shown.height() >= MIN_VISIBLE_PX:
            return True
    return False
