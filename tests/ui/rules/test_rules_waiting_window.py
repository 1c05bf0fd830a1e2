"""A rule kept in one chat answers a request already waiting in another (its "Needs you" goes), and the
rules survive a restart of ClawQt: the next window answers by the rule without asking. The real window,
the scripted agent as a real subprocess."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from app.renderer.timeline.items import PermissionItem
from tests.conftest import scripted_agent_argv
from tests.ui_harness import timeline_items


def _entries(objects) -> dict[str, dict]:
    return {entry["key"]: entry for entry in objects.sessions.entries()}


def test_a_rule_answers_a_request_waiting_in_another_chat_and_survives_a_restart(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "run make test")
        await ui.until(lambda: any(p.status == "pending" for p in timeline_items(window, PermissionItem)))
        await ui.new_chat(window)
        await ui.type_and_send(window, "run make test --fast")
        button = await ui.shown(window, "ruleButton_allow")
        await ui.until(lambda: _entries(objects)[first]["needsYou"])  # the first chat still waits
        button.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        menu = button.findChild(QObject, "ruleMenu_allow")
        await ui.until(lambda: menu.property("opened"))
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Return)  # "Allow commands starting with “make test” in …"
        await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: not _entries(objects)[first]["needsYou"])  # answered there too
        assert {d["request"] for d in objects.rules.audit} == {"make test", "make test --fast"}
        await window.objects.shutdown()  # ClawQt quits
        window.root.close()
        ui.windows.remove(window)

        again = await ui.open(scripted_agent_argv())  # and starts again
        assert [r["words"].split(" in ")[0] for r in again.objects.rules.rules] == [
            "Allow commands starting with “make test”"
        ]
        await ui.send_and_settle(again, "run make test")
        [answered] = timeline_items(again, PermissionItem)
        assert answered.rule_words.startswith("Allow commands starting with “make test”")
        assert answered.selected_option == "allow"

    ui.run(scenario(), timeout=90)
