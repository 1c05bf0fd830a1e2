"""Split panes in the terminal panel, in the real window on real shells: the user splits with the
keyboard, each pane is its own shell at its own size, a click moves the keyboard, a pane closes on its
own; and a proposal whose `open` targets the panel opens a pane beside the user's terminal, on its
side and with its shell (the demo agent as a subprocess, the real CLI, the user's Enter)."""

from __future__ import annotations

import os
import shutil

import pytest
from PySide6.QtCore import QPointF, Qt

from tests.ui.cards.test_demo_agent_proposes_window import focus, open_chat
from tests.ui.cards.test_demo_agent_proposes_window import short_runtime_dir as short_runtime_dir
from tests.ui.terminals.panel_support import (
    SIZE_QUESTION,
    click,
    last_answer,
    mouse_click,
    open_panel,
    open_window,
    prompt_shown,
    type_line,
)

CTRL_ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX shells")


def corner(item) -> QPointF:
    return item.mapToScene(QPointF(0, 0))


async def new_pane(ui, window, panel, before: str, key: Qt.Key):
    """Ctrl+Alt+key in the focused pane: a new pane, which takes the keyboard, with a prompt."""
    await click(window, key, CTRL_ALT)
    await ui.until(lambda: panel.currentId not in ("", before))
    pane = panel.currentId
    screen = await ui.until(lambda: ui.find(window, "panelScreen"))
    await ui.until(lambda: screen.property("terminalId") == pane and screen.hasActiveFocus())
    await ui.until(lambda: prompt_shown(screen.property("text")), 20)
    return pane, screen


def test_the_user_splits_right_and_down_each_pane_a_shell_of_its_own_size_and_closes_one(ui):
    async def scenario():
        window = await open_window(ui)
        window.root.resize(1300, 1000)
        panel, first_screen = await open_panel(ui, window)
        host = window.host.terminals
        first = panel.currentId

        second, second_screen = await new_pane(ui, window, panel, first, Qt.Key.Key_R)
        left = ui.item(window, f"paneScreen_{first}")
        assert left is first_screen or left.property("terminalId") == first
        assert corner(second_screen).x() >= corner(left).x() + left.width()  # to the right
        assert abs(corner(second_screen).y() - corner(left).y()) < 2
        assert host.info(second).split_of == first and host.info(second).cwd == host.info(first).cwd
        assert panel.model.rowCount() == 1  # one tab, two panes
        assert ui.item(window, "tabPanes").isVisible()

        # each pane's shell has the size its pane fits
        await type_line(ui, window, SIZE_QUESTION)

        def answered():
            text = second_screen.property("text")
            return last_answer(text, "cols"), last_answer(text, "lines")

        fits = (second_screen.property("fitColumns"), second_screen.property("fitRows"))
        await ui.until(lambda: answered() == fits, 20)
        await ui.until(lambda: host.info(first).columns == left.property("fitColumns"))
        assert fits[0] < host.info(first).columns + fits[0]  # both share the width
        assert left.property("fitColumns") + fits[0] < 1300 // 6

        third, third_screen = await new_pane(ui, window, panel, second, Qt.Key.Key_D)
        second_screen = ui.item(window, f"paneScreen_{second}")  # its pane moved into a new split
        assert corner(third_screen).y() > corner(second_screen).y() + second_screen.height() - 1  # below
        assert abs(corner(third_screen).x() - corner(second_screen).x()) < 2
        assert panel.layout == {
            "orientation": "row",
            "first": {"pane": first},
            "second": {"orientation": "column", "first": {"pane": second}, "second": {"pane": third}},
        }
        await ui.screenshots(window, "82-terminal-split")

        # a click in the first pane: the keyboard and the header follow it
        await mouse_click(ui, window, f"paneScreen_{first}")
        await ui.until(lambda: panel.currentId == first)
        await ui.until(lambda: ui.item(window, "panelScreen").property("terminalId") == first)
        await type_line(ui, window, "echo typed-in-$((40+2))")
        await ui.until(lambda: "typed-in-42" in host.output(first))
        assert "typed-in-42" not in host.output(second) + host.output(third)

        # the second pane closes on its own: the first and the third share the tab
        await mouse_click(ui, window, f"closePane_{second}")
        await ui.until(lambda: host.info(second) is None)
        await ui.until(lambda: panel.layout == {
            "orientation": "row", "first": {"pane": first}, "second": {"pane": third}
        })  # fmt: skip
        assert panel.model.rowCount() == 1 and host.info(third).state == "running"

    ui.run(scenario())


@pytest.mark.skipif(not shutil.which("dash"), reason="no dash shell on this system")
def test_a_proposal_to_split_opens_a_pane_below_the_users_terminal_with_the_shell_it_names(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, host = chat.window, chat.host
        terminal = await chat.terminal()
        marker = tmp_path / "split-marker"
        await chat.propose(f"--split down --profile dash echo shell=$0; touch {marker}")
        button = ui.item(window, "proposalButton_2_0")
        assert button.property("text") == f"Split down in {tmp_path} with dash and run"
        await ui.screenshots(window, "83-proposal-split")

        await focus(ui, window, "proposalButton_2_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(marker.exists, 20)
        opened = host.terminals.terminals()[-1]
        assert (opened.split_of, opened.split_direction, opened.shell) == (terminal, "down", "dash")
        await ui.until(
            lambda: "shell=/bin/dash" in host.terminals.output(opened.terminal_id).replace("\r", "")
        )
        panel = window.objects.user_terminals
        assert panel.layout == {"orientation": "column", "first": {"pane": terminal},
                                "second": {"pane": opened.terminal_id}}  # fmt: skip
        assert panel.panelOpen
        upper = await ui.until(lambda: ui.find(window, f"paneScreen_{terminal}"))
        lower = await ui.until(lambda: ui.find(window, "panelScreen"))
        assert corner(lower).y() > corner(upper).y() + upper.height() - 1
        await ui.screenshots(window, "84-proposal-split-opened")

    ui.run(scenario())


def test_a_proposal_naming_a_shell_that_is_not_here_says_so_on_its_button(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        await chat.terminal()
        await chat.propose("--split right --profile no-such-shell echo hi")
        button = ui.item(chat.window, "proposalButton_2_0")
        expected = f"Split right in {tmp_path} with your own shell (no no-such-shell shell here) and run"
        assert button.property("text") == expected
        await ui.screenshots(chat.window, "85-proposal-split-unknown-shell")

    ui.run(scenario())
