"""The window draws every control in the app's own Quick Controls style (resources/qml/style/ClawQt),
never in a stock one (Fusion, Basic, or a platform's), whichever screen is open."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QUrl
from PySide6.QtQuick import QQuickItem

from app.renderer.qt.main_window import CONTROLS_STYLE
from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import dialog_of, open_settings
from tests.ui.terminals.panel_support import mouse_click

STYLE = "ClawQt"
QT_OWN = {"ApplicationWindowContentControl"}  # the window's own content holder: no style draws it


def stock_controls(window) -> list[str]:
    """Every visible control of the window (popups included: they live in its overlay) that the app's
    style did not make, as `Class objectName`."""
    found: list[str] = []

    def walk(item: QQuickItem) -> None:
        if not item.isVisible():
            return
        if item.inherits("QQuickControl") and item.objectName() not in QT_OWN:
            # a popup's surface is an item the popup makes; the popup is the styled object
            owner: QObject = item.parent() if item.inherits("QQuickPopupItem") else item
            if owner.property("designStyle") != STYLE:
                found.append(f"{owner.metaObject().className()} {owner.objectName()}".strip())
        for child in item.childItems():
            walk(child)

    walk(window.root.contentItem())
    return found


def controls_seen(window) -> int:
    count = 0

    def walk(item: QQuickItem) -> None:
        nonlocal count
        count += item.isVisible() and item.property("designStyle") == STYLE
        for child in item.childItems():
            walk(child)

    walk(window.root.contentItem())
    return count


def test_every_control_on_the_chat_and_in_settings_is_the_apps_own(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "permission")  # a card waiting with buttons of its own
        await ui.shown(window, "permissionWaiting")
        assert controls_seen(window) > 10  # the walk reaches the controls
        assert stock_controls(window) == []
        await open_settings(ui, window)
        assert dialog_of(window).property("designStyle") == STYLE
        assert stock_controls(window) == []
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not dialog_of(window).property("visible"))
        await mouse_click(ui, window, "chatMenuButton")
        menu = window.root.findChild(QObject, "chatMenu")
        await ui.until(lambda: menu.property("opened"))
        assert stock_controls(window) == []

    ui.run(scenario())


def test_the_walk_sees_a_stock_control(ui):
    """A control of Basic, made in the window at run time, is found (so a clean walk means something)."""

    async def scenario():
        from PySide6.QtQml import QQmlComponent

        window = await ui.open(scripted_agent_argv())
        component = QQmlComponent(window.engine)
        component.setData(b"import QtQuick.Controls.Basic\nButton { objectName: 'stock'; text: 'x' }", QUrl())
        stock = component.create()
        assert stock is not None, component.errorString()
        stock.setParentItem(window.root.contentItem())
        found = stock_controls(window)
        assert len(found) == 1 and found[0].endswith(" stock"), found
        stock.setVisible(False)
        assert stock_controls(window) == []

    ui.run(scenario())


def test_the_window_asks_for_the_apps_style_and_a_users_own_choice_still_wins(ui, monkeypatch):
    """The style is asked for before the QML loads, once a process (Qt refuses it with an error line once
    QML is loaded: a second window does not ask again); QT_QUICK_CONTROLS_STYLE, set by a user, is kept."""
    from PySide6.QtQuickControls2 import QQuickStyle

    asked: list[str] = []
    real = QQuickStyle.setStyle
    monkeypatch.setattr(
        QQuickStyle, "setStyle", staticmethod(lambda style: (asked.append(style), real(style)))
    )

    async def scenario():
        await ui.open(scripted_agent_argv())
        first = list(asked)  # [] when an earlier window of this process asked already
        assert first in ([], [STYLE]) and CONTROLS_STYLE == STYLE and QQuickStyle.name() == STYLE
        await ui.open(scripted_agent_argv())
        assert asked == first  # not asked again
        monkeypatch.setenv("QT_QUICK_CONTROLS_STYLE", "Basic")
        await ui.open(scripted_agent_argv())
        assert asked == first  # the user's own choice: never overridden

    ui.run(scenario())
