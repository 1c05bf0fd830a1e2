"""Scrolled up in a long chat while new rows come in, the user sees how many arrived on the jump button
("3 new"); a click glides to the newest row, the count goes, and the view follows the end again."""

from __future__ import annotations

import re

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_view_memory_window import BIG, _wheel_up


def test_rows_that_arrive_while_scrolled_up_are_counted_on_the_jump_button_which_brings_them_into_view(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        objects.session.openSession(BIG)
        await ui.until(lambda: objects.session.sessionKey == BIG, 30)
        await ui.until(lambda: len(objects.model.rows) > 100)
        timeline = ui.item(window, "timeline")
        jump = ui.item(window, "jumpToLatest")
        await _wheel_up(ui, window, 12)
        await ui.until(lambda: not timeline.property("atYEnd") and not timeline.property("moving"))
        await ui.until(lambda: jump.isVisible())
        assert jump.property("text") == "Jump to latest"  # nothing new yet
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: re.fullmatch(r"[2-9] new", jump.property("text")))  # the message, the reply...
        assert not timeline.property("atYEnd")  # the user's place is kept meanwhile
        await ui.screenshots(window, "92-jump-to-latest-count")
        await mouse_click(ui, window, "jumpToLatest")
        await ui.until(lambda: timeline.property("atYEnd") and not jump.isVisible(), 10)
        assert jump.property("text") == "Jump to latest"  # counted from zero next time

    ui.run(scenario(), timeout=120)
