"""An agent's file handed to the desktop from the real window, fed by a real agent subprocess, on a
private session bus (Debian's dbus-daemon) with a test portal and file manager: "Open with..." asks the
portal's application chooser (OpenFile with `ask`, the file passed as a descriptor), "Show in folder"
asks the file manager to show it; with neither on the bus, the default app opens the file and the
folder. Nothing opens by itself."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import scripted_agent_argv
from tests.desktop.session_bus import DesktopServices
from tests.ui.cards.attachment_support import cards_shown, child_named, make_workspace, record_opens


def _button(window, uri: str, name: str):
    card = next(c for c in cards_shown(window) if c.property("modelData")["uri"] == uri)
    return child_named(card.parentItem(), name)


async def _ready(ui, window, uri: str) -> None:
    await ui.type_and_send(window, "attach-mix")
    await ui.until(lambda: not window.objects.session.busy)
    await ui.until(
        lambda: any(
            c.property("modelData")["uri"] == uri and c.property("modelData")["status"] == "available"
            for c in cards_shown(window)
        )
    )


def test_open_with_asks_the_desktops_chooser_and_show_in_folder_the_file_manager(
    ui, session_bus, monkeypatch
):
    make_workspace(ui.tmp_path)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)
    services = DesktopServices(session_bus)
    archive = str(Path(ui.tmp_path, "archive.zip").resolve())

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        opened = record_opens(window)
        await _ready(ui, window, str(ui.tmp_path / "archive.zip"))
        assert services.calls() == [] and opened == []  # nothing by itself

        open_with = _button(window, str(ui.tmp_path / "archive.zip"), "openWithButton")
        assert open_with.isVisible()
        open_with.clicked.emit()
        await ui.until(lambda: services.calls(), 10)
        assert services.calls() == [{"call": "OpenFile", "path": archive, "options": {"ask": True}}]

        show = _button(window, str(ui.tmp_path / "archive.zip"), "showInFolderButton")
        assert show.isVisible()
        show.clicked.emit()
        await ui.until(lambda: len(services.calls()) == 2, 10)
        assert services.calls()[1] == {"call": "ShowItems", "uris": [Path(archive).as_uri()], "startup": ""}
        assert opened == []  # the desktop's services did it: the default app was not asked
        await ui.screenshots(window, "77-open-with-show-in-folder")

    try:
        ui.run(scenario(), timeout=60)
    finally:
        services.stop()


def test_without_a_portal_or_file_manager_the_default_app_opens_the_file_and_the_folder(ui):
    make_workspace(ui.tmp_path)  # the ui fixture leaves no session bus at all

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        opened = record_opens(window)
        uri = str(ui.tmp_path / "archive.zip")
        await _ready(ui, window, uri)
        _button(window, uri, "openWithButton").clicked.emit()
        await ui.until(lambda: opened, 10)
        _button(window, uri, "showInFolderButton").clicked.emit()
        await ui.until(lambda: len(opened) == 2, 10)
        folder = Path(uri).resolve().parent
        assert opened == [Path(uri).resolve().as_uri(), folder.as_uri()]

    ui.run(scenario(), timeout=60)
