"""Every interactive control a user can reach in the main states of the window has an accessible name a
screen reader can say: walked through the accessibility tree (hidden items left out), each button,
check box, combo box, text field, slider and tab must have a name that is not empty, not "undefined"
and not built around an empty value (a double space)."""

from __future__ import annotations

from PySide6.QtGui import QAccessible

from app.renderer.qt.common.screen_text import shown
from tests.conftest import demo_agent_argv

INTERACTIVE = {
    QAccessible.Role.Button,
    QAccessible.Role.CheckBox,
    QAccessible.Role.RadioButton,
    QAccessible.Role.ComboBox,
    QAccessible.Role.EditableText,
    QAccessible.Role.Slider,
    QAccessible.Role.SpinBox,
    QAccessible.Role.PageTab,
    QAccessible.Role.MenuItem,
    QAccessible.Role.ButtonMenu,
    QAccessible.Role.ButtonDropDown,
    QAccessible.Role.Link,
}


def unnamed_controls(window) -> list[str]:
    """What is wrong, as "role (object name or parent's): name" for each badly named control."""
    found: list[str] = []

    def walk(node, depth: int) -> None:
        if node is None or not node.isValid() or depth > 80 or not shown(node):
            return
        role = node.role()
        name = node.text(QAccessible.Text.Name)
        reachable = (
            role != QAccessible.Role.EditableText or node.state().focusable
        )  # a combo's own text is not
        if role in INTERACTIVE and reachable and (not name.strip() or "undefined" in name or "  " in name):
            item = node.object()
            label = item.objectName() if item is not None else ""
            while item is not None and not label:
                item = item.parent()
                label = item.objectName() if item is not None else ""
            found.append(f"{role.name} ({label or '?'}): {name!r}")
        for index in range(node.childCount()):
            walk(node.child(index), depth + 1)

    walk(QAccessible.queryAccessibleInterface(window.root), 0)
    return found


def test_every_control_of_the_main_states_has_a_name(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        assert unnamed_controls(window) == [], "the empty chat"
        service = objects.host.sessions  # the tour's permission is left waiting: its buttons count too
        await ui.type_and_send(window, "Show me everything")
        await ui.until(lambda: "permission" in ui.kinds(window), 30)
        await ui.frames(window, 2)
        assert unnamed_controls(window) == [], "a permission waiting, the tour's cards"
        request = (
            next(e for e in ui.envelopes(window) if e.kind == "permission_request")
            if hasattr(ui, "envelopes")
            else None
        )
        del request
        pending = [i for i in objects.session.timeline.items.values() if i.kind == "permission"]
        service.answer_permission(pending[0].request_id, pending[0].options[0]["optionId"])
        await ui.until(lambda: not objects.session.busy, 30)
        await ui.frames(window, 2)
        assert unnamed_controls(window) == [], "the whole tour answered"
        objects.user_terminals.newTerminal()  # the terminal panel with a shell
        await ui.until(lambda: objects.user_terminals.panelOpen, 10)
        await ui.frames(window, 2)
        assert unnamed_controls(window) == [], "the terminal panel"

        window.root.property("chatWindow").openSettings()
        await ui.frames(window, 2)
        assert unnamed_controls(window) == [], "settings"

    ui.run(scenario(), 90)
