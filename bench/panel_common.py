"""The terminal panel with a real shell in the real window, for the panel benchmarks."""

from __future__ import annotations

from typing import Any

from bench.ui_common import open_window, until


def find_item(window: Any, name: str) -> Any:
    stack = [window.root.contentItem()]
    while stack:
        item = stack.pop()
        if item.objectName() == name:
            return item
        stack.extend(item.childItems())
    return None


async def open_panel(cwd: str) -> tuple[Any, Any, Any, str]:
    """(window, panel view, its painted screen, terminal id) with a shell at its prompt."""
    window = await open_window(cwd)
    panel = window.objects.user_terminals
    panel.setPanelOpen(True)
    terminal_id = panel.newTerminal()
    await until(lambda: find_item(window, "panelScreen") is not None, 30)
    screen = find_item(window, "panelScreen")
    screen.forceActiveFocus()
    emulator = panel.terminal_emulator(terminal_id)
    await until(lambda: emulator.text().rstrip().endswith(("$", "#")), 30)
    return window, panel, screen, terminal_id
