"""Chats side by side, in the real window with real agent processes: a tile of the demo agent beside
the scripted agent's chat, both streaming at once, each into its own list; the keyboard moves between
them and closes a tile; tiles come back after a restart, and two chats of one agent take turns being
the one it answers (each is opened again before its message goes)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtQuick import QQuickItem

from app.main.host.make import make_host
from app.renderer.qt.tiles.tiles import FULL
from tests.conftest import scripted_agent_argv
from tests.ui.agents.test_agents_window import two_agents
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_view_memory_window import _restart
from tests.ui_harness import find_all

CTRL_ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier


def said(session) -> str:
    """What the agent said in the chat a pane shows."""
    timeline = session.timeline
    if timeline is None:
        return ""
    return " ".join(
        "".join(getattr(part, "text", "") for part in item.parts)
        for item in timeline.items.values()
        if item.kind == "message" and item.role == "assistant"
    )


def in_tile(window, pane, name: str) -> QQuickItem:
    tile = window.objects.tiles.view.item(pane)
    assert tile is not None, "the pane has no tile"
    [found] = [item for item in find_all(tile, name) if item.isVisible()] or find_all(tile, name)[:1]
    return found


def test_two_agents_stream_side_by_side_and_the_keyboard_moves_between_them(ui, tmp_path):
    async def scenario():
        hub = two_agents(tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=tmp_path / "data"))
        window.root.resize(1400, 820)
        objects, tiles = window.objects, window.objects.tiles
        first = objects.session.sessionKey
        assert hub.agent_of(first) == "scripted"

        tiles.newBesideWith("demo")
        await ui.until(lambda: tiles.count == 1 and tiles.panes[0].session.sessionKey not in ("", first), 30)
        pane = tiles.panes[0]
        second = pane.session.sessionKey
        assert hub.agent_of(second) == "demo"
        assert in_tile(window, pane, "tileAgent").property("text") == "ClawQt demo agent"

        # the new tile has the keyboard: Enter sends what is typed there to its own chat
        tile_input = in_tile(window, pane, "composerInput")
        await ui.until(lambda: tile_input.hasActiveFocus())
        tile_input.setProperty("text", "slow")
        await asyncio.sleep(0.02)  # the text is taken before the key
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: pane.session.busy, 15)

        # Ctrl+Alt+Left: the main chat's composer; its message goes to the scripted agent
        await ui.key(window, Qt.Key.Key_Left, CTRL_ALT)
        main_input = ui.item(window, "composerInput")
        assert main_input is not tile_input
        await ui.until(lambda: main_input.hasActiveFocus())
        assert tiles.focusedPane is objects.main
        main_input.setProperty("text", "slow")
        await asyncio.sleep(0.02)  # the text is taken before the key
        await ui.key(window, Qt.Key.Key_Return)

        await ui.until(lambda: objects.session.busy and pane.session.busy, 15)  # both at once
        await ui.until(lambda: "tick 5" in said(objects.session) and "slow-3/" in said(pane.session), 30)
        assert "tick" not in said(pane.session) and "slow-" not in said(objects.session)
        ticks = said(objects.session).count("tick")
        await ui.until(lambda: said(objects.session).count("tick") > ticks)  # still streaming, both
        # each list shows its own chat: the tile's rows are drawn in the tile
        tile_list = in_tile(window, pane, "timeline")
        assert tile_list.property("count") == pane.model.rowCount() > 0
        assert ui.item(window, "timeline").property("count") == objects.model.rowCount() > 0
        await ui.frames(window, 2)
        await ui.screenshots(window, "157-tiles-two-agents-streaming")

        # Ctrl+Alt+Right: the tile again; Esc stops its turn alone; Ctrl+Alt+W closes it
        await ui.key(window, Qt.Key.Key_Right, CTRL_ALT)
        await ui.until(lambda: tile_input.hasActiveFocus())
        assert in_tile(window, pane, "tileFocusRing").isVisible()
        assert not ui.item(window, "mainFocusRing").isVisible()
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not hub.is_live(second), 20)
        assert hub.is_live(first) and objects.session.busy
        await ui.key(window, Qt.Key.Key_W, CTRL_ALT)
        await ui.until(lambda: tiles.count == 0 and main_input.hasActiveFocus())
        assert not window.objects.tiles.view.item(pane).isVisible()
        await ui.key(window, Qt.Key.Key_Escape)  # the main chat's turn, now the keyboard is there
        await ui.until(lambda: not hub.is_live(first), 20)

    ui.run(scenario(), timeout=120)


def test_a_fourth_tile_is_refused_a_chat_on_screen_gets_the_keyboard_and_a_failed_open_closes_its_tile(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects, tiles = window.objects, window.objects.tiles
        first = objects.session.sessionKey
        for n in (1, 2, 3):
            tiles.openBeside(f"big-{n}")
        await ui.until(lambda: tiles.keys() == ["big-1", "big-2", "big-3"], 30)
        await ui.until(lambda: all(pane.model.rowCount() > 0 for pane in tiles.panes))
        tiles.openBeside("big-4")
        assert tiles.count == 3 and objects.notices.notice == FULL

        tiles.open("big-2")  # chosen in the sidebar while a tile shows it: that tile takes the keyboard
        assert tiles.focusedPane is tiles.panes[1] and objects.session.sessionKey == first
        tiles.openBeside(first)  # the main chat is on screen already
        assert tiles.focusedPane is objects.main and tiles.count == 3

        tiles.close(tiles.panes[1])
        assert tiles.keys() == ["big-1", "big-3"]
        tiles.openBeside("fail-load")  # the agent refuses to load it: said, and no empty tile stays
        await ui.until(
            lambda: tiles.count == 2 and "Could not open that chat beside" in objects.notices.notice, 20
        )
        tiles.openBeside("big-5")  # a closed tile's pane serves the next tile
        await ui.until(lambda: tiles.keys() == ["big-1", "big-3", "big-5"], 20)
        assert len({id(pane) for pane in tiles.panes}) == 3

        objects.sessions.delete("big-3")  # a chat deleted while a tile shows it: the tile goes
        await ui.until(lambda: tiles.keys() == ["big-1", "big-5"], 20)
        assert objects.session.sessionKey == first

    ui.run(scenario(), timeout=90)


def test_tiles_come_back_after_a_restart_and_two_chats_of_one_agent_each_send_to_their_own(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        first = window.objects.session.sessionKey
        await ui.send_and_settle(window, "hello in the main chat")
        window.objects.tiles.openBeside("big-3")
        await ui.until(lambda: window.objects.tiles.keys() == ["big-3"], 20)

        again = await _restart(ui, window)
        objects, tiles = again.objects, again.objects.tiles
        assert objects.session.sessionKey == first
        await ui.until(lambda: tiles.keys() == ["big-3"], 30)
        pane = tiles.panes[0]
        await ui.until(lambda: pane.model.rowCount() > 0 and "lorem" in said(pane.session), 20)
        assert tiles.focusedPane is objects.main  # the keyboard starts in the main chat

        # one agent, two chats on screen: the tile's load made it the one the agent answers; the main
        # chat's message opens the main chat again first, then goes there (and not to the tile's)
        host = again.host.sessions
        assert host.shown_elsewhere(first) and not host.shown_elsewhere("big-3")
        main_replies = said(objects.session).count("Hello world")
        await ui.send_and_settle(again, "hello again")
        await ui.until(lambda: said(objects.session).count("Hello world") == main_replies + 1, 20)
        assert not host.shown_elsewhere(first) and host.shown_elsewhere("big-3")
        history = said(pane.session)
        pane.turn.send("hello from the tile")
        await ui.until(lambda: "Hello world" in said(pane.session) and not pane.session.busy, 20)
        assert said(pane.session).startswith(history)  # its history, opened again, is all there
        assert said(objects.session).count("Hello world") == main_replies + 1
        # a turn that ended in a tile was seen: neither the inbox nor the sidebar holds it unread
        assert objects.inbox.count == 0
        assert not any(entry["unseen"] for entry in objects.sessions.entries())
        await ui.screenshots(again, "158-tiles-restored")

    ui.run(scenario(), timeout=120)


def test_a_turn_in_a_tile_is_reviewed_in_that_tile(ui):
    """A footer's Review in a tile opens that turn's review over the tile's conversation (the window's
    review pane is the main chat's)."""
    target = ui.tmp_path / "app.txt"
    target.write_text("".join(f"line {n}\n" for n in range(1, 9)))

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        tiles = window.objects.tiles
        tiles.newBeside()
        await ui.until(lambda: tiles.count == 1 and tiles.panes[0].session.sessionKey, 20)
        pane = tiles.panes[0]
        pane.turn.send("shell sed -i 's/^line 3$/line three/' app.txt")
        await ui.until(lambda: pane.session.busy, 15)
        await ui.until(lambda: not pane.session.busy, 20)
        assert "line three" in target.read_text()
        await mouse_click(ui, window, "reviewTurnButton")
        await ui.until(lambda: pane.review.isOpen and in_tile(window, pane, "reviewPane").isVisible())
        await ui.until(lambda: len(find_all(window.objects.tiles.view.item(pane), "reviewHunk")) == 1)
        assert not window.objects.review.isOpen
        assert not ui.item(window, "reviewPaneLoader").property("active")
        assert not in_tile(window, pane, "timeline").isVisible()
        await ui.screenshots(window, "159-tiles-review-in-a-tile")
        pane.review.close()
        await ui.until(lambda: in_tile(window, pane, "timeline").isVisible())

    ui.run(scenario(), timeout=60)
