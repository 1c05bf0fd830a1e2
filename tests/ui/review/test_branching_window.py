"""Continue from here and Edit and resend in the real window, with two real agent processes: a new
chat starts from one of the user's messages, with the chat's own agent or the other one; the
conversation up to there goes with it (the agent's own fork when it offers one and nothing is left
behind, else the transcript as hidden context of the first message), the banner says where the chat
came from, the sidebar marks it, and the chat it came from stays as it was."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from app.main.agents.profiles import AgentProfile
from app.main.host.make import make_host
from tests.conftest import scripted_agent_argv
from tests.fast_agent_support import ensure_fast_agent, fast_agent_args
from tests.real_agents_support import installed_or_fail
from tests.ui.agents.test_agents_window import _timeline_text, hub_of
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled
from tests.ui_harness import find_all, user_texts


def _hub(tmp_path):
    return hub_of(
        tmp_path,
        AgentProfile("first", "First agent", scripted_agent_argv("--ids=one"), "config", "test"),
        AgentProfile("second", "Second agent", scripted_agent_argv("--ids=two"), "config", "test"),
    )


async def _chat_of_two_messages(ui):
    hub = _hub(ui.tmp_path)
    window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"))
    await ui.send_and_settle(window, "first question")
    await ui.send_and_settle(window, "second question")
    return hub, window


async def _menu_on(ui, window, index: int):
    """The pointer on the user's message `index` (0: the oldest), then a click on its branch button:
    the message's menu, open."""
    bubbles = await ui.until(
        lambda: (
            len(find_all(window.root.contentItem(), "userBubble")) == 2
            and find_all(window.root.contentItem(), "userBubble")
        )
    )
    content = window.root.contentItem()
    deadline = time.monotonic() + 15  # a ceiling only a broken hover reaches
    while not [b for b in find_all(content, "branchHereButton") if b.isVisible()]:
        # the bubble read where it is now: a list still settling after the reply moves it under the pointer
        assert time.monotonic() < deadline, "the branch button never showed under the pointer"
        bubble = sorted(bubbles, key=lambda b: b.mapToScene(QPointF(0, 0)).y())[index]
        centre = bubble.mapToScene(QPointF(bubble.width() / 2, bubble.height() / 2)).toPoint()
        await outside_task_settled(lambda c=centre: QTest.mouseMove(window.root, c))
        await ui.frames(window, 2)
    await mouse_click(ui, window, "branchHereButton")
    await ui.shown(window, "menuEditResend")  # the menu is open


async def _click_text(ui, window, text: str) -> None:
    """A real click on the shown item whose text is `text` (a menu's submenu item has no name)."""

    def shown():
        items = find_all(window.root.contentItem(), "")
        return next((i for i in items if i.property("text") == text and i.isVisible() and i.width()), None)

    await _pointer_click(ui, window, await ui.until(shown))


async def _pointer_click(ui, window, item) -> None:
    """The pointer moves onto `item`, then clicks it (a menu follows the pointer, not the click)."""
    centre = item.mapToScene(QPointF(item.width() / 2, item.height() / 2)).toPoint()
    await outside_task_settled(lambda: QTest.mouseMove(window.root, centre))
    await ui.frames(window, 1)
    await outside_task_settled(lambda: QTest.mouseClick(window.root, Qt.MouseButton.LeftButton, pos=centre))


def _banner(ui, window) -> str:
    shown = ui.item(window, "branchBanner").isVisible()
    return ui.item(window, "branchSummary").property("text") if shown else ""


async def _new_chat(ui, objects, source: str) -> str:
    key = objects.session
    return await ui.until(
        lambda: key.sessionKey not in ("", source) and key.sessionKey,
        seen=lambda: (objects.notices.notice, key.opening),
    )


def test_continue_from_the_first_message_with_the_other_agent_hands_it_the_conversation(ui):
    async def scenario():
        hub, window = await _chat_of_two_messages(ui)
        objects = window.objects
        source = objects.session.sessionKey
        await _menu_on(ui, window, 0)
        await _click_text(ui, window, "Continue with")  # opens its submenu of agents
        await ui.shown(window, "continueWith_second")
        await ui.screenshots(window, "96-branch-menu")
        await _pointer_click(ui, window, await ui.shown(window, "continueWith_second"))

        new = await _new_chat(ui, objects, source)
        assert hub.agent_of(new) == "second"
        assert user_texts(objects) == []  # a new chat: the conversation went to the agent, not into it
        await ui.until(lambda: "1 message handed over with your first message" in _banner(ui, window))
        assert "with Scripted" in _banner(ui, window)  # the chat it continues was the first agent's
        await ui.screenshots(window, "97-branch-banner")
        exported = ui.tmp_path / "branch.md"
        objects.export.save_to(str(exported), "The branch")  # the export says where the chat came from
        said = "It continues \u201cfirst question\u201d"
        await ui.until(lambda: exported.exists() and said in exported.read_text())

        await ui.send_and_settle(window, "recall")
        answer = _timeline_text(objects, new)
        assert "handed first question" in answer and "second question" not in answer, answer
        await ui.until(lambda: "with your first message" not in _banner(ui, window))
        await ui.send_and_settle(window, "recall")  # the transcript went once, not with every message
        assert _timeline_text(objects, new).count("handed first question") == 1

        # the sidebar marks the new chat; the chat it came from is as it was
        await ui.until(lambda: any(e["key"] == new and e["branchOf"] for e in objects.sessions.model.entries))
        await mouse_click(ui, window, "branchOpenOrigin")
        await ui.until(lambda: objects.session.sessionKey == source)
        assert not ui.item(window, "branchBanner").isVisible()
        await ui.send_and_settle(window, "recall")  # its agent knows the two messages, nothing more
        answer = _timeline_text(objects, source)
        assert "said first question | second question" in answer and "handed" not in answer, answer

    ui.run(scenario(), timeout=90)


def test_edit_and_resend_by_keyboard_puts_the_message_back_in_the_new_chats_composer(ui):
    async def scenario():
        hub, window = await _chat_of_two_messages(ui)
        objects = window.objects
        source = objects.session.sessionKey
        await _menu_on(ui, window, 1)
        await ui.key(window, Qt.Key.Key_Down)  # the menu's first item: Edit and resend
        await ui.key(window, Qt.Key.Key_Return)

        new = await _new_chat(ui, objects, source)
        assert hub.agent_of(new) == "first"  # the chat's own agent, handed the transcript (not a fork:
        composer = ui.item(window, "composerInput")  # the edited message is left behind)
        await ui.until(lambda: composer.property("text") == "second question")
        assert "1 message handed over" in _banner(ui, window)
        await ui.send_and_settle(window, "recall this")
        answer = _timeline_text(objects, new)
        assert "handed first question" in answer and "second question" not in answer, answer

    ui.run(scenario(), timeout=90)


def test_continue_from_the_last_message_with_the_same_agent_forks_its_session(ui):
    async def scenario():
        hub, window = await _chat_of_two_messages(ui)
        objects = window.objects
        source = objects.session.sessionKey
        await _menu_on(ui, window, 1)
        await mouse_click(ui, window, "menuContinueHere")

        new = await _new_chat(ui, objects, source)
        assert hub.agent_of(new) == "first"
        await ui.until(lambda: "forked by the agent" in _banner(ui, window))
        await ui.send_and_settle(window, "recall")
        answer = _timeline_text(objects, new)
        assert "forked from" in answer and "said first question | second question" in answer, answer
        assert "handed" not in answer  # the fork carries it: no transcript besides

    ui.run(scenario(), timeout=90)


@pytest.mark.real_agents
def test_a_chat_continued_with_fast_agent_hands_it_the_conversation(ui, tmp_path_factory):
    """fast-agent (a real agent nobody here wrote; its `passthrough` model echoes the message) gets the
    scripted agent's chat as the hidden context of its first message: its saved history holds it."""
    fast = installed_or_fail("fast-agent", ensure_fast_agent)
    home = tmp_path_factory.mktemp("fast-agent-home")
    argv = fast.argv + fast_agent_args(home, "passthrough", shell=False)

    async def scenario():
        hub = hub_of(
            ui.tmp_path,
            AgentProfile("first", "First agent", scripted_agent_argv("--ids=one"), "config", "test"),
            AgentProfile("fast", "fast-agent", argv, "config", "test"),
        )
        window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"))
        objects = window.objects
        await ui.send_and_settle(window, "the plan is to rename the module")
        source = objects.session.sessionKey
        [message_id] = user_message_ids(objects)
        objects.branching.continueFrom(message_id, "fast")  # what the menu's Continue with > does
        new = await _new_chat(ui, objects, source)
        assert hub.agent_of(new) == "fast"
        await ui.send_and_settle(window, "go on")
        assert await ui.until(lambda: _timeline_text(objects, new), 60) == "go on"  # its echo of the message
        # what fast-agent keeps of the message (its saved history) holds the conversation handed over
        saved = await ui.until(lambda: _saved_text(home), 30)
        assert "the plan is to rename the module" in saved and "Hello world" in saved

    ui.run(scenario(), timeout=180)


def _saved_text(home) -> str:
    """Everything fast-agent saved of its sessions under `home` that mentions the message sent."""
    texts = [p.read_text(errors="replace") for p in home.rglob("*.json") if p.is_file()]
    return "\n".join(t for t in texts if "go on" in t)


def user_message_ids(objects) -> list[str]:
    from app.renderer.timeline.items import MessageSegment

    timeline = objects.session.timeline
    return list(
        dict.fromkeys(
            item.message_id
            for item in (timeline.items[i] for i in timeline.order)
            if isinstance(item, MessageSegment) and item.role == "user"
        )
    )
