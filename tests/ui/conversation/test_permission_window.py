"""A permission request in the real window: answered with the keyboard, set apart while it waits (in
the footer of the tool card it concerns), folded into one line once answered."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.renderer.timeline.serialize import item_record
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all


def test_a_permission_is_answered_with_the_keyboard(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "permission")
        await ui.until(lambda: "permission" in ui.kinds(window))
        await ui.frames(window, 2)
        deny = ui.item(window, "permissionOption_deny")
        deny.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 10)
        timeline = objects.session.timeline
        assert any("outcome: deny" in str(item_record(item)) for item in timeline.items.values())
        answer = await ui.until(lambda: ui.find(window, "permissionAnswer"))
        assert answer.property("text") == "Answered: Deny (rejected)"  # the option's name, not its id
        await ui.screenshots(window, "03-permission-answered")

    ui.run(scenario())


def test_a_waiting_permission_stands_apart_and_its_number_key_answers_it(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "permission")
        await ui.until(lambda: "permission" in ui.kinds(window))
        await ui.frames(window, 2)
        card = ui.item(window, "permissionCard")
        assert ui.item(window, "permissionWaiting").property("visible")
        holder = card.parentItem()
        while holder is not None and holder.objectName() != "toolCard":
            holder = holder.parentItem()
        assert holder is not None  # in the footer of the card of the call it concerns
        assert not find_all(holder, "statusPill")[0].isVisible()  # "Needs you" says it, not "Pending" too
        keys = [cap.childItems()[0].property("text") for cap in find_all(card, "permissionOptionKey")]
        assert sorted(keys) == ["1", "2"]  # each option's key shown on it
        waiting_colour = card.property("color")
        await ui.screenshots(window, "59-permission-waiting")
        waiting = next(i for i in objects.session.timeline.items.values() if i.kind == "permission")
        options = [option["optionId"] for option in waiting.options]
        ui.item(window, f"permissionOption_{options[0]}").forceActiveFocus()
        await ui.key(window, Qt.Key.Key_2, text="2")  # the second option, as numbered
        await ui.until(lambda: not objects.session.busy, 10)
        answer = await ui.until(lambda: ui.find(window, "permissionAnswer"))
        assert answer.property("text").startswith("Answered: ")
        permission = next(i for i in objects.session.timeline.items.values() if i.kind == "permission")
        assert permission.selected_option == options[1]
        # the card drawn answered: the row's delegate follows the answer on the model's next beat
        await ui.until(lambda: not ui.item(window, "permissionWaiting").property("visible"))
        await ui.until(lambda: ui.item(window, "permissionCard").property("color") != waiting_colour)

    ui.run(scenario())


def test_options_past_nine_are_listed_under_more_options_and_answered_with_the_keyboard(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "hostile-options 30")  # o0..o29, then Deny
        await ui.shown(window, "permissionOption_deny")
        await ui.frames(window, 2)
        assert ui.find(window, "permissionOption_o8") is None  # not a button: listed on request
        toggle = ui.item(window, "permissionMoreToggle")
        assert toggle.property("text") == "More options (22)"
        toggle.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Space, text=" ")
        listed = await ui.shown(window, "permissionMoreList")
        await ui.until(lambda: listed.hasActiveFocus())
        await ui.frames(window, 2)
        await ui.screenshots(window, "151-permission-more-options")
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Return)  # the third listed: o10
        await ui.until(lambda: not objects.session.busy, 10)
        permission = next(i for i in objects.session.timeline.items.values() if i.kind == "permission")
        assert permission.selected_option == "o10"

    ui.run(scenario())
