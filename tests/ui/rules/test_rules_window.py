"""The user's permission rules in the real window, with the scripted agent as a real subprocess: a
permission card's "Always allow…" offers rules in words and the one chosen answers the request (the
card says by which rule, with Undo rule); the next such request is answered without asking; Settings
lists the rule and its decisions and turns it into a deny; Undo rule asks again."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from app.renderer.timeline.items import PermissionItem
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, shown_texts, timeline_items

CTRL = Qt.KeyboardModifier.ControlModifier


def test_always_allow_keeps_a_rule_that_answers_now_and_next_time_and_undo_asks_again(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "run git status")
        folder = objects.host.sessions.default_cwd
        button = await ui.shown(window, "ruleButton_allow")
        button.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)  # the offers, in words
        menu = button.findChild(QObject, "ruleMenu_allow")
        await ui.until(lambda: menu.property("opened"))
        offer = await ui.until(lambda: menu.findChild(QObject, "ruleOffer_0"))
        assert offer.property("text") == f"Allow commands starting with “git status” in {folder}"
        await ui.screenshots(window, "127-permission-rule-offers")
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy)
        [answered] = timeline_items(window, PermissionItem)
        assert (answered.status, answered.selected_option) == ("selected", "allow")
        assert answered.rule_words == f"Allow commands starting with “git status” in {folder}"
        await ui.until(lambda: shown_texts(window, "permissionRule") == [answered.rule_words])
        assert shown_texts(window, "permissionAnswer") == ["Answered by your rule: Allow (allowed once)"]
        await ui.screenshots(window, "128-permission-answered-by-rule")

        await ui.send_and_settle(window, "run git status --short")  # never asked
        assert [p.rule_words for p in timeline_items(window, PermissionItem)] == [answered.rule_words] * 2
        assert not objects.sessions.entries()[0]["needsYou"]
        assert [d["request"] for d in objects.rules.audit] == ["git status --short", "git status"]
        assert shown_texts(window, "permissionAnswer")[-1] == "Answered by your rule: Allow (allowed once)"

        await ui.key(window, Qt.Key.Key_Comma, CTRL, ",")  # Settings: the rule and what it decided
        dialog = window.root.findChild(QObject, "settingsDialog")
        await ui.until(lambda: dialog.property("opened"))
        sheet = dialog.property("contentItem")
        await ui.until(lambda: len(find_all(sheet, "settingsRule")) == 1)
        assert len(find_all(sheet, "settingsDecision")) == 2
        find_all(sheet, "settingsNav_Permissions")[0].clicked.emit()  # scrolled to the section
        await ui.frames(window, 3)
        await ui.screenshots(window, "129-settings-permissions")
        find_all(sheet, "settingsFlipRule")[0].clicked.emit()  # the editor: deny instead
        await ui.until(lambda: objects.rules.rules[0]["decision"] == "deny")
        dialog.setProperty("visible", False)
        await ui.send_and_settle(window, "run git status")  # denied by the rule, never asked
        assert timeline_items(window, PermissionItem)[-1].selected_option == "deny"
        assert timeline_items(window, PermissionItem)[-1].rule_words.startswith(
            "Deny commands starting with “git status”"
        )

        undo = await ui.shown(window, "permissionUndoRule")
        undo.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Space, text=" ")
        await ui.until(lambda: objects.rules.rules == [])
        await ui.type_and_send(window, "run git status")
        await ui.until(
            lambda: any(p.status == "pending" for p in timeline_items(window, PermissionItem))
        )  # asked again
        pending = next(p for p in timeline_items(window, PermissionItem) if p.status == "pending")
        objects.turn.answerPermission(pending.request_id, "deny")
        await ui.until(lambda: not objects.session.busy)

    ui.run(scenario())
