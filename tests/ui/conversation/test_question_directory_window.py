"""The question directory in the real window: the user's questions listed, one chosen scrolls to it,
opened at the newest, with tooltips, open or closed per chat."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.ui_harness import find_all


def test_question_directory_lists_questions_and_scrolls_to_one(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        toggle = ui.item(window, "questionToggle")
        assert not toggle.property("enabled")
        for question in ("/echo first question", "/echo second question", "/echo third question"):
            await ui.type_and_send(window, question)
            await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: len(objects.conversation.questions) == 3)
        assert toggle.property("enabled")
        await ui.key(
            window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        directory = ui.item(window, "questionDirectory")
        await ui.until(lambda: directory.property("visible"))
        await ui.screenshot(window, "05-question-directory")
        scrolled = []
        objects.conversation.scrollToRow.connect(scrolled.append)
        first = objects.conversation.questions[0]
        objects.conversation.goToQuestion(first["number"])
        assert len(scrolled) == 1
        model = objects.model
        shown = model.row_at(scrolled[0])
        assert shown.kind == "user" and first["title"] in ui.role(window, shown, "text")
        objects.conversation.goToQuestion(99)  # a question that is not there is a no-op
        assert len(scrolled) == 1
        await ui.frames(window, 2)
        await ui.screenshot(window, "05b-scrolled-to-question")

    ui.run(scenario())


def test_the_question_directory_opens_at_the_newest_entry_has_tooltips_and_stays_open_per_chat(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        for n in range(1, 21):
            await ui.type_and_send(window, f"hello number {n}, " + "long words " * 40)
            await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: len(objects.conversation.questions) == 20)
        first_chat = objects.session.sessionKey
        ui.item(window, "questionToggle").clicked.emit()
        entries = ui.item(window, "questionList")
        await ui.until(lambda: entries.isVisible())
        await ui.until(lambda: entries.property("currentIndex") == 19)

        def in_view() -> list[str]:
            height, top = entries.property("height"), entries.property("contentY")
            shown = [e for e in find_all(entries, "questionEntry") if 0 <= e.y() - top < height]
            return [e.property("text") for e in shown]

        # the newest is in view, and the list scrolled past the first (positioned after its layout)
        await ui.until(lambda: any(t.startswith("20. ") for t in in_view()))
        assert not any(t.startswith("1. ") for t in in_view())
        newest = objects.conversation.questions[-1]
        assert newest["title"].endswith("...") and newest["text"].startswith("hello number 20, long words")
        assert len(newest["text"]) > len(newest["title"])  # the tooltip says more than the entry
        await ui.screenshots(window, "36-question-directory-newest")

        objects.session.newChat()  # another chat: its own directory state (closed)
        await ui.until(lambda: objects.session.sessionKey != first_chat)
        await ui.until(lambda: not entries.isVisible())
        objects.session.openSession(first_chat)  # back: still open
        await ui.until(lambda: objects.session.sessionKey == first_chat)
        await ui.until(lambda: entries.isVisible())

    ui.run(scenario())


def test_the_directory_is_made_again_only_when_the_questions_change(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        made: list[None] = []
        objects.conversation.questionsChanged.connect(lambda: made.append(None))
        await ui.type_and_send(
            window, "paced 40 60"
        )  # 60 characters at 40 a second: chunks 250 ms apart and more
        await ui.until(lambda: not objects.session.busy, 20)
        await ui.until(lambda: len(objects.conversation.questions) == 1)
        await ui.frames(window, 2)
        assert 1 <= len(made) <= 2, f"the directory was made {len(made)} times for one question"

    ui.run(scenario())
