"""Conversation rules in the real window with the scripted agent: OpenClaw's working-directory prefix on
the user's text the agent sends back, and an echo that never changes what the user typed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.agents.user_words_prompts import PLANTED
from tests.conftest import scripted_agent_argv


def test_an_echo_confirms_the_prompt_but_the_typed_text_stays(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "echo-cwd")
        await ui.until(lambda: not objects.session.busy)
        [row] = ui.rows(window, "user")
        assert ui.role(window, row, "text") == "echo-cwd"  # not the echo's prefix, nor its extra words
        assert objects.session.timeline.items[row.item_ids[0]].echoed

    ui.run(scenario())


def test_an_agent_cannot_put_words_in_the_users_message_or_prompt_history(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        typed = "echo-other please tidy the README"
        await ui.type_and_send(window, typed)
        await ui.until(lambda: not objects.session.busy)
        [row] = ui.rows(window, "user")
        assert objects.session.timeline.items[row.item_ids[0]].echoed  # the echo arrived and confirmed it
        assert ui.role(window, row, "text") == typed
        parts = objects.session.timeline.items[row.item_ids[0]].parts
        assert PLANTED not in str(parts)
        assert "passwd" not in str(parts) and not ui.role(window, row, "cards")  # nor a file never attached
        composer = ui.item(window, "composerInput")
        composer.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Up)
        assert composer.property("text") == typed  # prompt history offers what the user typed

    ui.run(scenario())
