"""The protocol inspector (F12) in the real window with a real agent: the traffic both ways and stderr as
it happens, a message's text indented on demand, the filter and the directions, Save trace through the
desktop's save dialog, and the saved trace rendered by `clawqt replay`."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from app.contract.protocol_log import REPORT_RULES
from app.replay import replay_json
from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled
from tests.ui_harness import find_all, shown_save_dialog


def _rows(model) -> list[dict]:
    names = {v.data().decode(): k for k, v in model.roleNames().items()}
    return [
        {name: model.data(model.index(row), role) for name, role in names.items()}
        for row in range(model.rowCount())
    ]


async def _click_an_entry_in_view(ui, window) -> None:
    """A real click on a message row whose middle is inside the list (rows at its edges are clipped)."""
    listing = ui.item(window, "inspectorList")
    for entry in find_all(window.root.contentItem(), "inspectorEntry"):
        middle = entry.mapToItem(listing, QPointF(entry.width() / 2, entry.height() / 2))
        if entry.isVisible() and 0 < middle.y() < listing.height():
            point = entry.mapToScene(QPointF(entry.width() / 2, entry.height() / 2)).toPoint()
            await outside_task_settled(
                lambda: QTest.mouseClick(window.root, Qt.MouseButton.LeftButton, pos=point)  # noqa: B023 - awaited here
            )
            return
    raise AssertionError("no message row in view")


def test_the_inspector_shows_the_live_traffic_filters_it_and_saves_a_trace_replay_renders(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        model = objects.inspector
        await ui.key(window, Qt.Key.Key_F12)
        panel = await ui.until(lambda: ui.find(window, "inspectorPanel"))
        await ui.until(lambda: panel.isVisible())
        await ui.until(lambda: any(r["method"] == "initialize" for r in _rows(model)))  # kept from the start

        objects.header.setMode("b")  # the scripted agent writes a stderr line for it
        await ui.type_and_send(window, "hello inspector")

        def answered() -> list[dict]:
            return [r for r in _rows(model) if r["method"] == "session/prompt" and r["kind"] == "response"]

        await ui.until(answered)  # the panel reads the log a few times a second
        await ui.until(lambda: not objects.session.busy)
        assert any(r["direction"] == "stderr" for r in _rows(model))
        rows = _rows(model)
        prompt = next(
            i for i, r in enumerate(rows) if r["method"] == "session/prompt" and r["direction"] == "send"
        )
        assert any(r["method"] == "session/prompt" and r["kind"] == "response" for r in rows)
        updates = [r for r in rows if r["method"] == "session/update"]
        assert updates and all(r["session"] == objects.session.sessionKey for r in updates)
        assert model.total == len(rows)

        # picking a message shows it whole, indented; the list follows the newest
        await _click_an_entry_in_view(ui, window)
        text = ui.item(window, "inspectorText")
        picked = await ui.until(lambda: panel.property("picked") + 1) - 1
        await ui.until(lambda: text.property("text") == model.text(picked, True) != "")
        if rows[picked]["direction"] != "stderr":
            assert text.property("text").startswith("{\n")  # indented
        assert json.loads(model.text(prompt, True))["params"]["prompt"][0]["text"].endswith("hello inspector")
        await ui.screenshots(window, "65-protocol-inspector")

        # the filter and the directions
        model.setFilter("session/prompt")
        assert {r["method"] for r in _rows(model)} == {"session/prompt"} and model.rowCount() == 2
        model.setShown("send", False)
        assert [r["direction"] for r in _rows(model)] == ["recv"]
        model.setShown("send", True)
        model.setFilter("")
        assert model.rowCount() == model.total

        # Save trace: the desktop's dialog, the trace `clawqt replay` renders
        await mouse_click(ui, window, "inspectorSave")
        dialog = await ui.until(shown_save_dialog)
        assert dialog.selectedFiles()[0].endswith(".jsonl")
        trace = tmp_path / "inspected.jsonl"
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(trace))
        dialog.accept()
        await ui.until(lambda: "Trace of" in objects.notices.notice and trace.exists(), 20)
        replayed = replay_json(trace)
        users = [g["text"] for s in replayed["sessions"] for g in s["groups"] if g["kind"] == "user"]
        assert "hello inspector" in users

        window.root.requestActivate()  # the dialog closed: the window manager gives the window back
        await ui.until(lambda: window.root.isActive())

        # Save trace for a bug report: its rules first, then the desktop's dialog; a note leads the file
        await mouse_click(ui, window, "inspectorSaveReport")
        rules = window.root.findChild(QObject, "reportRulesDialog")
        await ui.until(lambda: rules is not None and rules.property("opened"))
        assert objects.inspector.reportRules == list(REPORT_RULES)
        await ui.frames(window, 2)
        await ui.screenshots(window, "162-trace-for-a-bug-report-rules")
        await mouse_click(ui, window, "reportRulesSave")
        dialog = await ui.until(shown_save_dialog)
        report = tmp_path / "for-a-bug-report.jsonl"
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(report))
        dialog.accept()
        await ui.until(lambda: report.exists() and "Taken out:" in objects.notices.notice, 20)
        assert json.loads(report.read_text().splitlines()[0])["dir"] == "note"
        window.root.requestActivate()
        await ui.until(lambda: window.root.isActive())
        await ui.key(window, Qt.Key.Key_F12)  # closed again: the log is no longer read
        await ui.until(lambda: not model.isOpen and ui.find(window, "inspectorPanel") is None)

    ui.run(scenario())
