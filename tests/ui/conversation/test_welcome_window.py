"""An empty chat greets the user instead of showing a blank page: the agent's mark and name, what it is
doing, and its own slash commands as first steps that fill the composer (nothing is sent until the user
sends it); the greeting gives way to the conversation once there is one."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tests.conftest import demo_agent_argv
from tests.ui.terminals.panel_support import mouse_click


def _composer_middle(ui, window) -> float:
    """Where the composer card's middle is, as a share of the window's content height."""
    card = ui.item(window, "composerCard")
    top = card.mapToScene(QPointF(0, 0)).y()
    return (top + card.height() / 2) / window.root.contentItem().height()


def test_an_empty_chat_says_whose_it_is_and_offers_the_agents_commands_as_first_steps(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        welcome = await ui.shown(window, "welcome")
        assert ui.item(window, "welcomeTitle").property("text") == "What should we work on?"
        await ui.until(lambda: objects.agent.state == "ready")
        await ui.until(lambda: ui.item(window, "welcomeAgent").property("text") == objects.agent.label)
        step = await ui.shown(window, "welcomeStep_echo")  # the demo agent's own command
        assert step.property("text") == "/echo"
        middle = lambda: _composer_middle(ui, window)  # noqa: E731 - read again on each poll
        await ui.until(
            lambda: 0.4 < middle() < 0.7, seen=middle
        )  # the composer waits mid-height (it moves there)
        greeting = ui.item(window, "welcome")
        card = ui.item(window, "composerCard")
        greeting_bottom = greeting.mapToScene(QPointF(0, greeting.height())).y()
        assert 0 < card.mapToScene(QPointF(0, 0)).y() - greeting_bottom < 80  # the greeting rests on it
        no_chats = await ui.shown(window, "noChatsYet")  # the sidebar's first-run state, drawn and said
        assert no_chats.property("text").startswith("Your chats will appear here")
        await ui.screenshots(window, "61-welcome")
        await mouse_click(ui, window, "welcomeStep_echo")
        composer = ui.item(window, "composerInput")
        await ui.until(lambda: composer.property("text") == "/echo " and composer.hasActiveFocus())
        assert ui.kinds(window) == []  # filled, not sent
        await ui.keys(window, "hello")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: "user" in ui.kinds(window))
        await ui.until(lambda: not welcome.isVisible())  # the conversation takes its place
        await ui.until(lambda: _composer_middle(ui, window) > 0.85)  # and the composer goes to the foot
        await ui.until(lambda: not ui.item(window, "sessionListEmpty").isVisible())  # the chat is a row now

    ui.run(scenario())
