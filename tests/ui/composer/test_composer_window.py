"""The composer in the real window: slash-command completion, the mode and model pickers, drafts kept
per chat and across restarts, a failed prompt given back, a message sent before the chat opens."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_window import contrast, shown_over
from tests.ui_harness import find_all


def test_slash_command_completion_with_hints(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        composer = ui.item(window, "composerInput")
        composer.forceActiveFocus()
        await ui.keys(window, "/st")
        popup_list = ui.item(window, "slashList")
        await ui.until(lambda: popup_list.property("count") == 1)
        await ui.screenshots(window, "06-slash-completion")
        # the chosen row's hint and description are readable on its highlight, light and dark
        for scheme in ("light", "dark"):
            window.objects.app.setColorScheme(scheme)
            await asyncio.sleep(0.05)  # the scheme's colours are applied
            under = QColor(window.singleton("theme").property("raised"))  # the popup's surface
            background = shown_over(ui.item(window, "slashItemBackground").property("color"), under)
            assert contrast(ui.item(window, "slashItemName").property("color"), background) >= 4.5, scheme
            assert contrast(ui.item(window, "slashItemDescription").property("color"), background) >= 3.0, (
                scheme
            )
        window.objects.app.setColorScheme("system")
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: composer.property("text") == "/status ")

    ui.run(scenario())


def test_mode_and_model_changes_reach_the_agent(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        assert [m["id"] for m in objects.header.modes] == ["a", "b"]
        model = next(o for o in objects.header.configOptions if o["category"] == "model")
        assert model["currentValue"] == "m1"
        objects.header.setMode("b")
        objects.header.setConfigOption("model", "m2")
        log = ui.tmp_path / "agent-stderr.log"
        await ui.until(
            lambda: "set_mode b" in log.read_text() and "set_config_option model=m2" in log.read_text()
        )
        await ui.until(lambda: objects.header.currentMode == "b")
        await ui.until(
            lambda: (
                next(o for o in objects.header.configOptions if o["category"] == "model")["currentValue"]
                == "m2"
            )
        )

    ui.run(scenario())


def test_a_draft_survives_an_app_restart(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "/echo keep this session")
        await ui.until(lambda: not objects.session.busy)
        key = objects.session.sessionKey
        ui.item(window, "composerInput").setProperty("text", "draft written before quitting")
        await asyncio.sleep(0.6)  # the draft's save delay passes
        await objects.shutdown()
        window.root.close()
        ui.windows.remove(window)

        again = await ui.open(demo_agent_argv())
        await ui.until(lambda: any(s["key"] == key for s in again.objects.sessions.entries()))
        again.objects.session.openSession(key)
        await ui.until(lambda: again.objects.session.sessionKey == key)
        composer = ui.item(again, "composerInput")
        await ui.until(lambda: composer.property("text") == "draft written before quitting")

    ui.run(scenario())


def test_a_failed_prompt_goes_back_into_the_composer(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "fail please")
        await ui.until(lambda: not objects.session.busy)
        assert "Your message was not sent (it is back in the composer)" in objects.notices.notice
        await ui.until(lambda: ui.item(window, "composerInput").property("text") == "fail please")
        assert not ui.item(window, "retryButton").property("visible")
        assert ui.kinds(window) == []  # the optimistic message that never arrived is gone
        await ui.screenshot(window, "08-failed-prompt")

    ui.run(scenario())


def test_the_composer_follows_each_sessions_draft_also_after_sending(ui):
    """Sending clears the composer from code, which ended its binding to the draft: switching sessions
    afterwards must still show each session's own draft."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: not objects.session.busy)
        composer = ui.item(window, "composerInput")
        assert composer.property("text") == ""
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        composer.setProperty("text", "a thought for the new chat")
        await asyncio.sleep(0.1)  # time for what must not happen to show: an absence has no event
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: composer.property("text") == "")
        second = next(e["key"] for e in objects.sessions.entries() if e["key"] not in (first,))
        objects.session.openSession(second)
        await ui.until(lambda: composer.property("text") == "a thought for the new chat")

    ui.run(scenario())


def test_a_message_sent_before_the_chat_opens_is_shown_queued_then_sent(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv("--init-delay=2"), start=False)
        objects = window.objects
        objects.start()
        await ui.until(lambda: objects.agent.state == "starting")
        await ui.type_and_send(window, "hello before the chat is open")
        queued = ui.item(window, "messageQueue")
        await ui.until(lambda: queued.property("visible"))
        assert ui.item(window, "queuedText_0").property("text") == "1. hello before the chat is open"
        assert ui.item(window, "queueReason").property("text") == "Sent as soon as the chat is open."
        assert ui.item(window, "composerInput").property("text") == ""
        await ui.screenshots(window, "18-queued-message")
        await ui.until(lambda: not queued.property("visible"), 20)
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        assert ui.kinds(window)[0] == "user"

    ui.run(scenario())


def test_a_boolean_option_is_a_switch_and_is_set_as_a_boolean(ui):
    """ACP 1.21's boolean config options (declared in initialize: session.configOptions.boolean): the
    agent's "Think harder" is a switch in Options, and turning it on sends `type: "boolean"`."""

    async def scenario():
        window = await ui.open(scripted_agent_argv("--think"))
        objects = window.objects
        think = next(o for o in objects.header.configOptions if o["id"] == "think")
        assert think["type"] == "boolean" and think["currentValue"] is False
        await mouse_click(ui, window, "optionsButton")
        await mouse_click(ui, window, "config_think")
        log = ui.tmp_path / "agent-stderr.log"
        await ui.until(lambda: "set_config_option think=True boolean" in log.read_text())
        await ui.until(
            lambda: (
                next(o for o in objects.header.configOptions if o["id"] == "think")["currentValue"] is True
            )
        )
        assert ui.item(window, "config_think").property("checked")
        await ui.screenshots(window, "99a-boolean-option")

    ui.run(scenario())


def test_a_turns_tokens_are_in_its_footer_when_the_agent_reports_them(ui):
    """ACP's per-turn `usage` (PromptResponse): the footer says the tokens beside the time; fields an
    agent should not send (a string, a negative count) are left out."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.send_and_settle(window, "tokens")
        timing = await ui.until(
            lambda: next(
                (
                    t
                    for t in find_all(window.root.contentItem(), "turnTiming")
                    if "tokens" in t.property("text")
                ),
                None,
            )
        )
        assert timing.property("text").endswith("\u00b7 1.5k tokens (1.2k in, 334 out)")
        assert "thinking" not in timing.property("text") and "cache" not in timing.property("text")
        await ui.send_and_settle(window, "hello")  # an agent that says nothing: only the time
        texts = [
            t.property("text") for t in find_all(window.root.contentItem(), "turnTiming") if t.isVisible()
        ]
        assert sum("tokens" in text for text in texts) == 1

    ui.run(scenario())
