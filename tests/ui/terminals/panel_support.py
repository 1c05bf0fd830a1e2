"""The terminal panel's window tests' side: keys and clicks through the window system, the window
with the panel open on a prompt, and what its screen and labels read."""

from __future__ import annotations

import asyncio
import re

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from bench.ui_common import outside_task
from tests.conftest import scripted_agent_argv

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


async def click(window, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed and released through the window system (the shortcut map sees it), run as a
    loop callback: QTest may process events, and a task started by the key must not start inside
    this coroutine's step."""
    await outside_task_settled(lambda: QTest.keyClick(window.root, key, modifiers))


async def clicks(window, text: str) -> None:
    """Typed characters (QTest's char form: the key and its text, as a keyboard sends them)."""

    def type_all() -> None:
        for char in text:
            QTest.keyClick(window.root, ord(char))

    await outside_task_settled(type_all)


async def outside_task_settled(action) -> None:
    await outside_task(action)
    await asyncio.sleep(0.02)  # what the action set off on the loop runs


async def open_window(ui):
    window = await ui.open(scripted_agent_argv())
    ui.model_checks.watch(window.objects.user_terminals.model)
    window.root.requestActivate()
    await ui.until(lambda: window.root.isActive())
    return window


def prompt_shown(text: str) -> bool:
    """bash's prompt ends in $ (or # for root, whatever PS1 the system's bashrc set)."""
    return text.rstrip().endswith(("$", "#"))


def screen_text(ui, window) -> str:
    return ui.item(window, "panelScreen").property("text")


async def open_panel(ui, window):
    """Ctrl+` through the window system (the shortcut map sees it), then a prompt in the shell."""
    await click(window, Qt.Key.Key_QuoteLeft, CTRL)
    panel = window.objects.user_terminals
    await ui.until(lambda: panel.panelOpen and panel.currentId)
    screen = ui.item(window, "panelScreen")
    await ui.until(lambda: screen.hasActiveFocus())
    await ui.until(lambda: prompt_shown(screen.property("text")), 20)
    return panel, screen


async def type_line(ui, window, text: str) -> None:
    """Real key events, one per character, then Enter."""
    await clicks(window, text)
    await click(window, Qt.Key.Key_Return)


def lines_after(text: str, command: str) -> list[str]:
    """The screen lines that follow the last line where `command` was typed (none before it shows)."""
    lines = text.split("\n")
    typed = max((i for i, line in enumerate(lines) if line.rstrip().endswith(command)), default=None)
    return [] if typed is None else [line.strip() for line in lines[typed + 1 :]]


async def mouse_click(ui, window, name: str) -> None:
    """A real left click in the middle of the item named `name` (through the window system), once a
    user could click it: shown, laid out and enabled."""
    item = await ui.shown(window, name)
    await ui.until(lambda: item.isVisible() and item.width() > 0 and item.isEnabled())
    centre = await settled_centre(ui, item)
    await outside_task_settled(lambda: QTest.mouseClick(window.root, Qt.MouseButton.LeftButton, pos=centre))


async def settled_centre(ui, item):
    """The item's centre once a layout pass has placed it: text that just changed (a command that
    wraps to more lines) moves the items below it only when the window next polishes."""
    seen: list = []

    def same_twice() -> bool:
        seen.append(item.mapToScene(QPointF(item.width() / 2, item.height() / 2)).toPoint())
        return len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]

    await ui.until(same_twice)
    return seen[-1]


def last_answer(text: str, name: str) -> int | None:
    """The number in the last screen line that reads exactly `name=N`: an answer, never the typed
    command (which a long prompt may wrap anywhere on a narrow screen)."""
    answers = [re.fullmatch(rf"{name}=(\d+)", line.strip()) for line in text.split("\n")]
    found = [int(match.group(1)) for match in answers if match]
    return found[-1] if found else None


SIZE_QUESTION = "echo cols=$(tput cols); echo lines=$(tput lines)"


def descendants(item) -> list:
    found, stack = [], list(item.childItems())
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(current.childItems())
    return found


def texts(item) -> list[str]:
    """The visible labels under an item (icon glyphs left out)."""
    return [
        child.property("text")
        for child in descendants(item)
        if child.metaObject().className().startswith("QQuickText")
        and child.isVisible()
        and child.property("text")
        and not all(0xE000 <= ord(c) <= 0xF8FF for c in child.property("text"))
    ]
