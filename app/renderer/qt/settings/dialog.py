"""`settings`: the Settings window's object. Each change applies at once (through `app`, the settings
in effect) and is saved by the main side into the user's config file; a save that could not happen
is said in the window (`problem`), the change still holding until the app quits."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.appearance import ACCENTS
from app.contract.settings_hosts import SettingsHost
from app.renderer.qt.common.desktop_dialog import folder_dialog, local_path, open_dialog
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.settings.app_settings import AppSettings

COLOR_SCHEME_CHOICES = (("system", "System"), ("light", "Light"), ("dark", "Dark"))  # side by side: short
FONT_SCALE_CHOICES = (0.85, 1.0, 1.15, 1.3, 1.5)


def _percent(scale: float) -> str:
    return f"{round(scale * 100)}%" + (" (the system's size)" if abs(scale - 1.0) < 1e-6 else "")


class SettingsView(QObject):
    changed = Signal()

    def __init__(
        self,
        host: SettingsHost,
        app: AppSettings,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._app = app
        self._ops = ops
        self._problem = ""
        self._saving = 0
        self.dialog: Any = None  # the folder dialog while it is open
        app.changed.connect(self.changed)

    def _save(self, save: Callable[[dict[str, Any]], Awaitable[str]], changes: dict[str, Any]) -> None:
        self._saving += 1
        self.changed.emit()
        self._ops.spawn(self._saved(save, changes))

    async def _saved(self, save: Callable[[dict[str, Any]], Awaitable[str]], changes: dict[str, Any]) -> None:
        try:
            self._problem = await save(changes)
        finally:
            self._saving -= 1
            self.changed.emit()

    @Slot(str)
    def setColorScheme(self, scheme: str) -> None:
        if scheme != self._app.colorScheme and scheme in dict(COLOR_SCHEME_CHOICES):
            self._app.setColorScheme(scheme)
            self._save(self._host.save_appearance, {"colorScheme": scheme})

    @Slot(str)
    def setAccent(self, accent: str) -> None:
        if accent != self._app.accent and accent in ACCENTS:
            self._app.setAccent(accent)
            self._save(self._host.save_appearance, {"accent": accent})

    @Slot(float)
    def setFontScale(self, scale: float) -> None:
        if scale in FONT_SCALE_CHOICES and abs(scale - self._app.fontScale) > 1e-6:
            self._app.setFontScale(scale)
            self._save(self._host.save_appearance, {"fontScale": scale})

    @Slot(bool)
    def setReducedMotion(self, reduced: bool) -> None:
        if reduced != self._app.reducedMotion:
            self._app.setReducedMotion(reduced)
            self._save(self._host.save_appearance, {"reducedMotion": reduced})

    @Slot(bool)
    def setNotify(self, notify: bool) -> None:
        if notify != self._app.notify:
            self._app.setNotify(notify)
            self._save(self._host.save_notifications, {"desktop": notify})

    @Slot()
    def chooseFolder(self) -> None:
        """Add a folder…: the desktop's folder dialog."""
        self.dialog = open_dialog(
            self.dialog, lambda: folder_dialog("A folder the agents may use", self.addFolder)
        )

    @Slot(str)
    def addFolder(self, chosen: str) -> None:
        """A folder the agents may also use (a path, or the file URL a folder dialog gives)."""
        path = local_path(chosen)
        folders = self._host.folders()
        if path and path not in folders:
            self._save_folders([*folders, path])

    @Slot(int)
    def removeFolder(self, index: int) -> None:
        folders = self._host.folders()
        if 0 <= index < len(folders):
            self._save_folders(folders[:index] + folders[index + 1 :])

    @Slot(str)
    def setTerminalToolsPort(self, text: str) -> None:
        """The port field: a number, or empty for "ClawQt picks"; applies from the next start."""
        text = text.strip()
        if not text:
            port = None
        elif text.isdigit():
            port = int(text)
        else:
            self._problem = "The port was not changed: it must be a number, or empty to let ClawQt pick."
            self.changed.emit()
            return
        if port != self._host.terminal_tools_port():
            self._save(lambda changes: self._host.save_terminal_tools_port(changes["port"]), {"port": port})

    def _save_folders(self, folders: list[str]) -> None:
        self._save(lambda changes: self._host.save_folders(changes["folders"]), {"folders": folders})

    colorScheme = Property(str, lambda self: self._app.colorScheme, notify=changed)
    accent = Property(str, lambda self: self._app.accent, notify=changed)
    accents = variant_property(
        "QVariantList", lambda self: [{"value": a, "label": a.capitalize()} for a in ACCENTS], constant=True
    )
    folders = variant_property("QVariantList", lambda self: self._host.folders(), notify=changed)
    terminalToolsPort = Property(
        str, lambda self: str(self._host.terminal_tools_port() or ""), notify=changed
    )
    notify = Property(bool, lambda self: self._app.notify, notify=changed)
    fontScale = Property(float, lambda self: self._app.fontScale, notify=changed)
    reducedMotion = Property(bool, lambda self: self._app.reducedMotion, notify=changed)
    colorSchemes = variant_property(
        "QVariantList",
        lambda self: [{"value": v, "label": t} for v, t in COLOR_SCHEME_CHOICES],
        constant=True,
    )
    fontScales = variant_property(
        "QVariantList",
        lambda self: [{"value": v, "label": _percent(v)} for v in FONT_SCALE_CHOICES],
        constant=True,
    )
    problem = Property(str, lambda self: self._problem, notify=changed)
    saving = Property(bool, lambda self: self._saving > 0, notify=changed)
    location = Property(str, lambda self: self._host.location(), constant=True)
