"""Up and Down in an empty composer walk this chat's earlier prompts (like a shell's history), in the real
window with the scripted agent: newest first, the oldest stays, Down past the newest empties the
composer, typed text is never replaced, and a loaded chat's prompts are there too."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import scripted_agent_argv


def test_up_and_down_walk_the_chats_earlier_prompts_and_never_replace_typed_text(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        composer = ui.item(window, "composerInput")
        for prompt in ("first question", "second question\nwith a second line"):
            await ui.type_and_send(window, prompt)
            await ui.until(lambda: not objects.session.busy)
        composer.forceActiveFocus()
        text = lambda: composer.property("text")  # noqa: E731

        await ui.key(window, Qt.Key.Key_Up)
        assert text() == "second question\nwith a second line"
        assert composer.property("cursorPosition") == len(text())  # at its end, ready to edit
        await ui.key(window, Qt.Key.Key_Up)
        assert text() == "first question"
        await ui.key(window, Qt.Key.Key_Up)  # nothing older: the oldest stays
        assert text() == "first question"
        await ui.key(window, Qt.Key.Key_Down)
        assert text() == "second question\nwith a second line"
        await ui.key(window, Qt.Key.Key_Down)  # past the newest: an empty composer again
        assert text() == ""

        await ui.key(window, Qt.Key.Key_Up)
        await ui.keys(window, " again")  # edited: the user's own text now
        assert text() == "second question\nwith a second line again"
        await ui.key(window, Qt.Key.Key_Up)
        assert text() == "second question\nwith a second line again"  # Up moves the cursor, nothing else
        composer.setProperty("text", "")

        objects.session.openSession("big-3")  # a loaded chat's prompts
        await ui.until(lambda: objects.session.sessionKey == "big-3", 30)
        await ui.until(lambda: len(objects.model.rows) > 10)
        composer.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Up)
        assert text() == "question 2?"
        await ui.key(window, Qt.Key.Key_Up)
        assert text() == "question 1?"

    ui.run(scenario())
