"""The message queue in the real window with the scripted agent (a real subprocess): what is sent while a
turn runs waits above the composer, on disk at once, and goes out one by one as turns end; each queued
message can be sent now (stopping the turn), edited or removed; a turn the user stops, or one that
fails, leaves the queue waiting; and a queue survives the agent being killed, Reconnect and a restart."""

from __future__ import annotations

import asyncio
import json
import os

from PySide6.QtCore import QPointF, Qt

from app.renderer.timeline.turn_view import item_text
from tests.conftest import scripted_agent_argv
from tests.ui_harness import user_texts


def _attached(objects) -> dict[str, list[str]]:
    """The user messages that carry attachments, with their attachments' names."""
    found = {}
    for item in objects.session.timeline.items.values():
        names = [p.attachment.name for p in getattr(item, "parts", ()) if hasattr(p, "attachment")]
        if names:
            found[" ".join(getattr(p, "text", "") for p in item.parts).strip()] = names
    return found


def _on_disk() -> dict:
    path = os.path.join(os.environ["CLAWQT_DATA_DIR"], "queued-messages.json")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _row_texts(ui, window) -> list[str]:
    count = window.objects.queue.count
    return [ui.item(window, f"queuedText_{i}").property("text") for i in range(count)]


def test_messages_sent_during_a_turn_wait_on_disk_and_go_out_one_by_one(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        key = objects.session.sessionKey
        (ui.tmp_path / "notes.md").write_text("n")
        await ui.type_and_send(window, "permission")  # the turn runs until the permission is answered
        await ui.until(lambda: "permission" in ui.kinds(window))
        composer = ui.item(window, "composerInput")
        composer.setProperty("text", "first queued")
        await ui.frames(window, 2)
        send = ui.item(window, "sendButton")
        assert send.property("text") == "Queue" and ui.item(window, "stopButton").property("visible")
        await ui.key(window, Qt.Key.Key_Return)
        assert objects.composer_files.add_path(str(ui.tmp_path / "notes.md"))
        await ui.type_and_send(window, "second queued\nwith a second line")
        panel = ui.item(window, "messageQueue")
        await ui.until(lambda: panel.property("visible") and objects.queue.count == 2)
        assert _row_texts(ui, window) == ["1. first queued", "2. second queued  (+1 file)"]
        queued, card = ui.item(window, "queueCard"), ui.item(window, "composerCard")
        edges = [(round(i.mapToScene(QPointF(0, 0)).x()), round(i.width())) for i in (queued, card)]
        assert edges[0] == edges[1], edges  # a card in the reading column, on the composer it feeds
        assert send.width() == send.height()  # the round send (here: queue) button
        assert ui.item(window, "queueReason").property("text").startswith("Sent one by one as the agent")
        assert composer.property("text") == "" and objects.composer_files.count == 0
        saved = _on_disk()[key]  # on disk at once: nothing waits for a quit
        assert [m["text"] for m in saved] == ["first queued", "second queued\nwith a second line"]
        assert saved[1]["files"] == [
            {"path": str(ui.tmp_path / "notes.md"), "name": "notes.md", "mime": "text/markdown"}
        ]
        assert user_texts(objects) == ["permission"]  # nothing queued is shown as sent
        await ui.screenshots(window, "66-message-queue")

        ui.item(window, "permissionOption_allow").clicked.emit()
        await ui.until(lambda: objects.queue.count == 0 and not objects.session.busy, 20)
        await ui.until(lambda: len(user_texts(objects)) == 3)
        assert user_texts(objects) == ["permission", "first queued", "second queued\nwith a second line"]
        assert not panel.property("visible") and key not in _on_disk()
        assert _attached(objects) == {"second queued\nwith a second line": ["notes.md"]}

    ui.run(scenario())


def test_send_now_stops_the_turn_and_a_queued_message_can_be_edited_or_removed(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "slow")
        await ui.until(lambda: objects.session.busy)
        for text in ("alpha", "beta", "gamma"):
            await ui.type_and_send(window, text)
        await ui.until(lambda: objects.queue.count == 3)
        ui.item(window, "queuedRemove_1").clicked.emit()  # beta
        await ui.until(lambda: objects.queue.texts() == ["alpha", "gamma"])
        composer = ui.item(window, "composerInput")
        composer.setProperty("text", "typed meanwhile")
        await ui.frames(window, 2)
        edit = ui.item(window, "queuedEdit_1")  # gamma: back into the composer, before the typed text
        edit.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Space, text=" ")
        await ui.until(lambda: objects.queue.texts() == ["alpha"])
        assert composer.property("text") == "gamma\n\ntyped meanwhile"

        ui.item(window, "queuedSendNow_0").clicked.emit()  # alpha: the slow turn is stopped for it
        await ui.until(lambda: user_texts(objects) == ["slow", "alpha"], 20)
        await ui.until(lambda: not objects.session.busy)
        assert objects.queue.count == 0
        assert any(r.kind == "turn-footer" for r in ui.rows(window))
        assert composer.property("text") == "gamma\n\ntyped meanwhile"  # the draft was left alone

    ui.run(scenario())


def test_a_turn_the_user_stops_leaves_the_queue_waiting_until_send_now(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "slow")
        await ui.until(lambda: objects.session.busy)
        await ui.type_and_send(window, "after the stop")
        await ui.until(lambda: objects.queue.count == 1)
        await ui.key(window, Qt.Key.Key_Escape)  # the user stops the turn: the queue is not sent
        await ui.until(lambda: not objects.session.busy, 20)
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert objects.queue.texts() == ["after the stop"] and user_texts(objects) == ["slow"]
        reason = ui.item(window, "queueReason").property("text")
        assert reason.startswith("Waiting: the last turn was stopped")
        assert ui.item(window, "sendButton").property("text") == "Send"
        await ui.screenshots(window, "67-message-queue-waiting")
        ui.item(window, "queuedSendNow_0").clicked.emit()
        await ui.until(lambda: user_texts(objects) == ["slow", "after the stop"])
        await ui.until(lambda: not objects.session.busy and objects.queue.count == 0)

    ui.run(scenario())


def test_a_queue_survives_the_agent_being_killed_reconnect_and_a_restart(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        key = objects.session.sessionKey
        await ui.type_and_send(window, "slow")
        await ui.until(lambda: objects.session.busy)
        await ui.type_and_send(window, "do not lose me")
        await ui.until(lambda: objects.queue.count == 1)
        objects.host.sessions.current_service.connection._process.proc.kill()
        banner = ui.item(window, "agentBanner")
        await ui.until(lambda: banner.property("visible"), 10)
        assert objects.queue.texts() == ["do not lose me"]  # a failed turn sends nothing
        ui.item(window, "reconnectButton").clicked.emit()
        await ui.until(lambda: objects.agent.state == "ready" and objects.session.sessionKey == key, 20)
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert objects.queue.texts() == ["do not lose me"] and ui.item(window, "messageQueue").property(
            "visible"
        )

        restarted = await ui.open(scripted_agent_argv())  # a new app on the same data folder
        again = restarted.objects
        again.session.openSession(key)
        await ui.until(lambda: again.session.sessionKey == key, 20)
        await ui.until(lambda: again.queue.texts() == ["do not lose me"])
        queued = await ui.shown(restarted, "queuedText_0")  # the card is drawn after the queue is read
        assert queued.property("text") == "1. do not lose me"
        ui.item(restarted, "queuedSendNow_0").clicked.emit()
        await ui.until(lambda: "do not lose me" in user_texts(again), 20)
        await ui.until(lambda: again.queue.count == 0 and key not in _on_disk())

    ui.run(scenario())


def test_a_queue_in_a_chat_the_user_left_goes_on_when_they_come_back(ui):
    """An agent takes prompts for the chat it has open (the one shown): a queue whose turn ended in a
    chat the user left waits there, and goes on as soon as the user comes back to it."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        sent, settled = [], []
        objects.turn.messageSent.connect(lambda key, text: sent.append((key, text)))
        objects.session.settledElsewhere.connect(settled.append)
        await ui.type_and_send(window, "background")  # streams for about a second
        await ui.until(lambda: objects.session.busy)
        await ui.type_and_send(window, "next, once I am back")
        await ui.until(lambda: objects.queue.count == 1)
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 20)
        assert objects.queue.count == 0  # the panel shows the new chat's queue: none
        await ui.until(lambda: settled == [first], 20)
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert sent == [(first, "background")] and [m["text"] for m in _on_disk()[first]] == [
            "next, once I am back"
        ]
        assert objects.host.stores.drafts.get(first) == "" and objects.notices.notice == ""

        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first, 20)
        await ui.until(lambda: "next, once I am back" in user_texts(objects))
        await ui.until(lambda: not objects.session.busy and objects.queue.count == 0)
        assert sent[-1] == (first, "next, once I am back") and first not in _on_disk()

    ui.run(scenario())


def shown_text(objects) -> str:
    return "\n".join(item_text(item) for item in objects.session.timeline.items.values())


def test_send_now_on_an_agent_that_ignores_stop_ends_the_turn_after_the_grace_and_sends(ui, monkeypatch):
    """The agent never answers Stop (the scripted `ignore-cancel`): after the grace ClawQt ends the turn
    itself, its footer says the agent did not confirm, and the message goes out (the late answer's
    absorption: tests/integration/sessions/test_stop_unconfirmed.py)."""
    monkeypatch.setattr("app.main.sessions.stop_grace.STOP_CONFIRM_S", 1.0)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "ignore-cancel 60")
        await ui.until(lambda: "working on it" in shown_text(objects))
        await ui.type_and_send(window, "alpha")
        await ui.until(lambda: objects.queue.count == 1)
        ui.item(window, "queuedSendNow_0").clicked.emit()
        await ui.until(lambda: user_texts(objects) == ["ignore-cancel 60", "alpha"], 20)
        await ui.until(lambda: not objects.session.busy, 20)
        footers = [ui.role(window, row, "footer")["timing"] for row in ui.rows(window, "turn-footer")]
        assert footers[0].startswith("Stopped after") and footers[0].endswith("(the agent did not confirm)")
        await ui.screenshots(window, "72-stop-not-confirmed")

    ui.run(scenario())
