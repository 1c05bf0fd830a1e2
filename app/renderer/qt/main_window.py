"""The window: the QML engine, Main.qml and the chat objects it binds to. Made in two steps so the first
frame never waits for the main side: `Window.open` shows the start frame (the window's shape in the
user's theme, placed where the user left it) from the appearance and placement alone, before any agent,
chat store or MCP module is imported; `attach` binds the chat objects of a host made meanwhile and loads
the chat into the same window (window/ChatWindow.qml), keeping what the user typed into the start frame."""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuick import QQuickItem, QQuickWindow  # imported before load(): the root is one
from PySide6.QtQuickControls2 import QQuickStyle

from app.contract.bundled import resources_dir
from app.contract.local_stores import WindowPlacement
from app.renderer.qt.common.window_placement import show_placed
from app.renderer.qt.settings.app_settings import AppSettings

if TYPE_CHECKING:  # the host's types: their modules are not needed before the first frame
    from app.contract.host_api import HostApi

# The app's own Quick Controls style (resources/qml/style/ClawQt, built on Basic; the default would be
# each platform's native style, which Theme's tokens do not reach): buttons, combo boxes, menus and
# fields look like one app everywhere, drawn from Theme.qml.
CONTROLS_STYLE = "ClawQt"


def qml_dir() -> Path:
    """resources/qml in a checkout, or inside a PyInstaller bundle."""
    return resources_dir() / "qml"


def reduced_motion(saved: bool = False) -> bool:
    """CLAWQT_REDUCED_MOTION=1 (or 0) decides for this run; else the saved setting."""
    value = os.environ.get("CLAWQT_REDUCED_MOTION", "")
    return saved if value == "" else value != "0"


def color_scheme(saved: str = "system") -> str:
    """CLAWQT_COLOR_SCHEME=light|dark|system decides for this run; else the saved setting (default:
    the desktop's)."""
    return os.environ.get("CLAWQT_COLOR_SCHEME", "").strip().lower() or saved


def prefer_basic_render_loop(environ: MutableMapping[str, str]) -> None:
    """Render on the GUI thread (Qt's basic loop) unless the user chose a loop. The terminal screens are
    painted by Python: a threaded render loop (Qt's default on most GPU desktops) paints them on its
    render thread, which needs the interpreter lock while the GUI thread holds it waiting for that very
    thread to finish the frame, and the window freezes. Every window test runs the basic loop too."""
    environ.setdefault("QSG_RENDER_LOOP", "basic")


def app_settings(appearance: Mapping[str, Any], notifications: Mapping[str, Any]) -> AppSettings:
    """The window-wide settings in effect: the saved ones, the environment's overrides winning."""
    return AppSettings(
        reduced_motion(bool(appearance.get("reducedMotion"))),
        color_scheme(str(appearance.get("colorScheme") or "system")),
        font_scale=float(appearance.get("fontScale") or 1.0),
        notify=bool(notifications.get("desktop", True)),
        accent=str(appearance.get("accent") or ""),
    )


class Window:
    """Owns the QML engine of one window and, once attached, the chat objects it binds to."""

    def __init__(self, host: HostApi) -> None:
        """The whole window at once (tests, benchmarks, the self-test): opened, then attached."""
        settings = host.settings
        self._open(settings.appearance(), settings.notifications(), host.stores.views.window())
        self.attach(host)

    @classmethod
    def open(
        cls,
        appearance: Mapping[str, Any],
        notifications: Mapping[str, Any],
        placement: WindowPlacement,
    ) -> Window:
        """The window shown with its start frame, before any host exists."""
        window = cls.__new__(cls)
        window._open(appearance, notifications, placement)
        return window

    def _open(
        self, appearance: Mapping[str, Any], notifications: Mapping[str, Any], placement: WindowPlacement
    ) -> None:
        # a user's own choice of style still wins; set once a process (a second window's is refused)
        if not os.environ.get("QT_QUICK_CONTROLS_STYLE") and QQuickStyle.name() != CONTROLS_STYLE:
            QQuickStyle.setStyle(CONTROLS_STYLE)
        prefer_basic_render_loop(os.environ)
        self.engine = QQmlApplicationEngine()
        # parented to the engine: destroyed after the QML that binds to them, never before
        self.app = app_settings(appearance, notifications)
        self.app.setParent(self.engine)
        self.warnings: list[str] = []
        self.engine.warnings.connect(lambda errors: self.warnings.extend(e.toString() for e in errors))
        qml = qml_dir()  # each feature folder's qmldir names its types (common/qmldir the singletons)
        self.engine.rootContext().setContextProperty("app", self.app)  # the theme reads it
        self.engine.addImportPath(str(qml))
        self.engine.addImportPath(str(qml / "style"))  # where QQuickStyle finds CONTROLS_STYLE
        self.engine.load(QUrl.fromLocalFile(str(qml / "Main.qml")))
        roots = self.engine.rootObjects()
        if not roots:
            raise RuntimeError("the window could not be created:\n" + "\n".join(self.warnings))
        root = roots[0]
        if not isinstance(root, QQuickWindow):
            raise RuntimeError(f"Main.qml's root is not a window: {type(root).__name__}")
        self.root = root
        root.setProperty("chatOpens", bool(placement.get("openChat")))
        show_placed(root, placement)  # where the user left it

    def attach(self, host: HostApi) -> None:
        """Bind the chat objects of `host` and load the chat into the window."""
        self.bind(host)
        self.load_chat()

    def bind(self, host: HostApi) -> None:
        """The chat objects of `host` made and offered to QML (the chat's QML is not made yet: the
        start's split reads each step's time and memory apart)."""
        from app.renderer.qt.common.feature_scan import answer_from_bytes

        answer_from_bytes()  # before the view's modules load: PySide reads each one as it is imported
        from app.renderer.qt.cards.attachments import IMAGE_PROVIDER
        from app.renderer.qt.common.icon_images import ICON_PROVIDER, IconImages
        from app.renderer.qt.common.image_provider import MemoryImages
        from app.renderer.qt.composer.attachments import THUMBNAIL_PROVIDER
        from app.renderer.qt.window import ChatObjects

        self.host = host
        self.objects = ChatObjects(host, app=self.app, parent=self.engine)
        for name, qobject in self.objects.context().items():
            self.engine.rootContext().setContextProperty(name, qobject)
        self.engine.addImageProvider(IMAGE_PROVIDER, MemoryImages(self.objects.attachments.image))
        self.engine.addImageProvider(ICON_PROVIDER, IconImages())
        self.engine.addImageProvider(THUMBNAIL_PROVIDER, MemoryImages(self.objects.tiles.thumbnail))

    def load_chat(self) -> None:
        """The chat's QML made into the window (on the objects `bind` offered)."""
        from app.renderer.qt.tiles.items import TileItems

        self.root.setProperty("chatReady", True)  # the Loader makes the chat now, synchronously
        if self.root.property("chatWindow") is None:
            raise RuntimeError("the chat could not be created:\n" + "\n".join(self.warnings))
        self.objects.tiles.view = TileItems(self.engine, self._chat_row())
        self.objects.view_memory.watch(self.root)
        self.root.frameSwapped.connect(self.objects.after_frame)
        self.root.afterAnimating.connect(self.objects.whole_text.before_sync)
        self.objects.attention.openRequested.connect(lambda _key: self.bring_up())

    def _chat_row(self) -> QQuickItem:
        """The row the main chat and its tiles share (ChatWindow.qml)."""
        row = self.root.findChild(QQuickItem, "chatRow")
        if row is None:
            raise RuntimeError("the chat has no row for tiles (chatRow)")
        return row

    def singleton(self, name: str) -> Any:
        """A QML singleton of the window (`theme`, `spinnerClock`), as Main.qml exposes it."""
        return self.root.property(name)

    def bring_up(self) -> None:
        """Show the window above the others with the keyboard (a clicked notification)."""
        if self.root.visibility() == self.root.Visibility.Minimized:
            self.root.showNormal()
        self.root.raise_()
        self.root.requestActivate()

    def grab(self, path: Path) -> bool:
        image = self.root.grabWindow()
        path.parent.mkdir(parents=True, exist_ok=True)
        return bool(image.save(str(path)))
