"""What an agent's input costs the real window, with the scripted agent: a rewritten 60,000-line file
(as a tool call's diff and as an fs/write_text_file) shows its counts and reverts; a burst of 100,000
updates is drawn, as prose and to one endless line; output parked for terminal ids no tool names and a
permission request with 10,000 options stay bounded, and their memory is returned after New chat. The
GUI thread's longest stall for each (and the endless line's time against prose) is
bench/hostile_render.py's figure.

Memory is the process's resident set after a full collection and `malloc_trim` (what the system could
take back)."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtGui import QGuiApplication

from app.contract.heap import trim_heap
from app.renderer.timeline.serialize import item_record
from bench.ui_common import resident_mb
from tests.conftest import scripted_agent_argv

MEMORY_LIMIT_MB = 100  # what may stay after New chat (the hostile inputs held 300 to 400 MB)


def rss_mb() -> float:
    gc.collect()
    trim_heap()  # glibc only: elsewhere the figure is higher
    resident = resident_mb()
    assert resident is not None, "no VmRSS in /proc/self/status"
    return resident


async def _answered(ui, window, prompt: str, timeout: float = 60) -> None:
    """Send `prompt` and wait for its turn to end (a fast turn may be over before `busy` is polled)."""
    objects = window.objects
    ended: list[str] = []
    objects.turn.turnEnded.connect(ended.append)
    try:
        await ui.type_and_send(window, prompt)
        await ui.until(lambda: ended, timeout)
    finally:
        objects.turn.turnEnded.disconnect(ended.append)
    await ui.until(lambda: not objects.session.busy, timeout)


async def _new_chat(ui, window) -> str:
    """Open a new chat; returns the key of the one left."""
    objects = window.objects
    first = objects.session.sessionKey
    objects.session.newChat()
    await ui.until(lambda: objects.session.sessionKey != first, 30)
    await ui.frames(window, 2)
    return first


def test_a_rewritten_60000_line_file_in_a_tool_card_says_it_is_too_large(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await _answered(ui, window, "hostile-diff 60000")
        ui.toggle_tool(window, "tool:t-big-diff", False)
        summary = await ui.shown(window, "diffTooLarge")
        assert summary.property("text") == (
            "Diff too large to show: 120,000 lines changed "
            "(60,000 removed, 60,000 added, lines 1\u201360,000)."
        )
        assert ui.item(window, "diffAdded").property("text") == "+60000"
        assert ui.find(window, "diffBody") is None or not ui.item(window, "diffBody").isVisible()

        from app.renderer.timeline import tool_text

        assert tool_text._unified.cache_info().currsize > 0
        await _new_chat(ui, window)
        assert tool_text._unified.cache_info().currsize == 0  # the 60,000-line texts are not kept

    ui.run(scenario())


def test_an_agent_rewriting_a_60000_line_file_shows_the_counts_and_the_revert_works(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await _answered(ui, window, "hostile-write 60000")
        big = ui.tmp_path / "big.py"
        assert big.read_text().count("calculate(") == 60_000
        [changed] = await ui.until(
            lambda: [
                f for row in ui.rows(window, "turn-footer") for f in ui.role(window, row, "footer")["files"]
            ]
        )
        assert (changed["added"], changed["removed"]) == (60_000, 60_000)
        await ui.shown(window, "filesChanged")
        (await ui.shown(window, "fileDiffToggle")).clicked.emit()
        summary = await ui.shown(window, "diffTooLarge")
        assert summary.property("text").startswith("Diff too large to show: 120,000 lines changed")
        ui.item(window, "revertButton").clicked.emit()
        await ui.until(lambda: big.read_text().count("compute(") == 60_000)

    ui.run(scenario())


def test_a_burst_of_100000_updates_is_drawn_whole_as_prose_and_as_one_endless_line(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        for prompt in ("hostile-burst 100000", "hostile-burst 100000 unbroken"):
            await _answered(ui, window, prompt, 120)
            objects.model.flush()
            await ui.until(lambda: not objects.model.views.presenter.rows_behind, 60)
            footer = ui.rows(window, "turn-footer")[-1]
            objects.conversation.copyTurn(objects.model.view_row_of_key(footer.key))
            copied = QGuiApplication.clipboard().text().strip()
            if "unbroken" in prompt:  # one digit per update, in the order sent
                assert copied == "".join(str(n % 10) for n in range(100_000))
            else:  # a word per update
                assert copied.split() == [f"w{n % 10}" for n in range(100_000)]
            await _new_chat(ui, window)

    ui.run(scenario(), 180)


def test_output_for_terminals_no_tool_names_is_capped_and_returned_after_new_chat(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        before = rss_mb()
        await _answered(ui, window, "hostile-parked 200 2048")  # 400 MB of output for nobody
        timeline = window.objects.session.timeline
        assert timeline.terminals.parked == {}  # the turn is over: nothing waits for a card any more
        left = weakref.ref(timeline)
        del timeline
        first = await _new_chat(ui, window)
        assert first not in window.objects.session.store.timelines
        grown = rss_mb() - before
        assert left() is None, "the old chat's timeline is still referenced"
        assert grown < MEMORY_LIMIT_MB, f"{grown:.0f} MB stayed after New chat"

    ui.run(scenario())


def test_ten_thousand_permission_options_show_nine_buttons_the_rest_listed_as_it_scrolls(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        before = rss_mb()
        await ui.type_and_send(window, "hostile-options 10000")
        deny = await ui.until(lambda: ui.find(window, "permissionOption_deny"), 30)
        await ui.frames(window)
        buttons = [item.objectName() for item in _option_buttons(window.root.contentItem())]
        expected = [f"permissionOption_o{n}" for n in range(8)] + ["permissionOption_deny"]
        assert sorted(buttons) == sorted(expected)
        hidden = ui.item(window, "permissionHidden")
        count, _, rest = hidden.property("text").partition(" more options not shown")
        assert hidden.isVisible() and rest and "".join(filter(str.isdigit, count)) == "9901"  # locale digits
        toggle = ui.item(window, "permissionMoreToggle")
        assert "(91)" in toggle.property("text")
        toggle.clicked.emit()
        listed = await ui.shown(window, "permissionMoreList")
        await ui.frames(window)
        assert listed.property("count") == 91
        made = len(_option_buttons(window.root.contentItem())) - len(buttons)
        assert 0 < made < 20, f"{made} rows made for a list showing six"
        listed.positionViewAtEnd()
        await ui.until(lambda: ui.find(window, "permissionOption_o98"), 10)
        deny.clicked.emit()
        await ui.until(lambda: not objects.session.busy, 30)
        records = str([item_record(item) for item in objects.session.timeline.items.values()])
        assert '"outcome": "selected", "optionId": "deny"' in records  # the agent got Deny
        first = await _new_chat(ui, window)
        assert first not in objects.session.store.timelines
        grown = rss_mb() - before
        assert grown < MEMORY_LIMIT_MB, f"{grown:.0f} MB stayed after New chat"

    ui.run(scenario())


def _footer_files(ui, window) -> list[dict]:
    return [
        file for row in ui.rows(window, "turn-footer") for file in ui.role(window, row, "footer")["files"]
    ]


def _option_buttons(root) -> list:
    found, stack = [], [root]
    while stack:
        item = stack.pop()
        if item.objectName().startswith("permissionOption_"):
            found.append(item)
        stack.extend(item.childItems())
    return found
