"""The protocol doctor in the real window, with real agent processes: Settings > Agents' Doctor button
opens the report of the agent the window runs (what it offers, what ClawQt allows it); Check runs it on
a connection of its own and shows each step with its time; an agent not started yet says so and is
checked from nothing, a short message sent only when ticked; Copy report gives the text."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from app.main.host.make import make_host
from app.renderer.qt.doctor.doctor_view import NOT_STARTED
from tests.ui.agents.test_agents_window import two_agents
from tests.ui.settings.test_settings_window import open_settings_at
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled, settled_centre
from tests.ui_harness import find_all


def _shown(window, name: str) -> list:
    return [item for item in find_all(window.root.contentItem(), name) if item.isVisible()]


def _card_agent(item) -> str:
    """The agent id of the Settings card an item is in."""
    while item is not None and item.property("modelData") is None:
        item = item.parentItem()
    return item.property("modelData")["agentId"] if item is not None else ""


def _agents_shown(window) -> list[str]:
    return [_card_agent(button) for button in _shown(window, "settingsDoctor")]


def _doctor_button(window, agent_id: str):
    return next((b for b in _shown(window, "settingsDoctor") if _card_agent(b) == agent_id), None)


async def click_item(ui, window, item) -> None:
    """A real left click in the middle of `item`, once laid out."""
    await ui.until(lambda: item.isVisible() and item.width() > 0 and item.isEnabled())
    centre = await settled_centre(ui, item)
    await outside_task_settled(lambda: QTest.mouseClick(window.root, Qt.MouseButton.LeftButton, pos=centre))


def test_the_doctor_reports_an_agent_and_checks_it_step_by_step(ui, tmp_path):
    async def scenario():
        hub = two_agents(tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=tmp_path / "data"))
        window.root.resize(1180, 900)
        doctor = window.objects.doctor

        settings = await open_settings_at(ui, window, "Agents")
        button = await ui.until(
            lambda: _doctor_button(window, "scripted"), seen=lambda: _agents_shown(window)
        )
        await click_item(ui, window, button)  # the scripted agent's card: the agent the window runs
        await ui.until(lambda: doctor.isOpen and doctor.agentId == "scripted")
        dialog = window.root.findChild(QObject, "doctorDialog")
        await ui.until(lambda: dialog is not None and dialog.property("opened"))
        assert doctor.running and doctor.note == ""
        features = {f["feature"]: f["on"] for f in doctor.findings}
        assert features["Opening old chats"] and features["Listing its chats"]
        assert features["Questions as forms"]
        assert '"loadSession": true' in doctor.offered and '"clawqt"' in doctor.declared

        await mouse_click(ui, window, "doctorCheck")
        await ui.until(lambda: doctor.checking)
        await ui.until(lambda: not doctor.checking and len(doctor.steps) == 2, 60)
        assert [s["name"] for s in doctor.steps] == ["Start and initialize", "A new chat"]
        assert all(s["ok"] for s in doctor.steps)
        await ui.until(lambda: len(_shown(window, "doctorStep")) == 2)
        await ui.frames(window, 2)
        await ui.screenshots(window, "160-doctor-report-and-check")

        await mouse_click(ui, window, "doctorCopy")
        copied = QGuiApplication.clipboard().text()
        assert copied.startswith("ClawQt protocol doctor: ") and "[ok] A new chat" in copied

        doctor.open("demo")  # not started in this window: said, then checked from nothing
        await ui.until(lambda: doctor.agentId == "demo" and doctor.note == NOT_STARTED)
        assert doctor.findings == [] and doctor.steps == []
        await mouse_click(ui, window, "doctorSendMessage")
        await mouse_click(ui, window, "doctorCheck")
        await ui.until(lambda: not doctor.checking and len(doctor.steps) == 3, 60)
        message = doctor.steps[2]
        assert message["ok"] and "refused, as nobody answers a check" in message["words"]
        assert {f["feature"] for f in doctor.findings} >= {"Opening old chats", "Questions as forms"}
        assert hub.started("demo") is None  # the check's connection was its own
        await ui.frames(window, 2)
        await ui.screenshots(window, "161-doctor-checked-with-a-message")

        await mouse_click(ui, window, "doctorClose")
        await ui.until(lambda: not doctor.isOpen)

        await ui.key(window, Qt.Key.Key_Escape)  # Settings, under it
        await ui.until(lambda: not settings.property("visible"))
        window.objects.inspector.setOpen(True)  # F12: the inspector's own way to the agent it shows
        await mouse_click(ui, window, "inspectorDoctor")
        await ui.until(
            lambda: doctor.isOpen and doctor.agentId == "scripted" and doctor.running,
            seen=lambda: (doctor.isOpen, doctor.agentId, doctor.running),
        )

    ui.run(scenario(), timeout=120)
