"""Settings > Agents lists the ACP registry's agents, in the real window: offline (the suite's registry
address refuses at once) the copy bundled with ClawQt, the note saying so and why; Refresh asks again."""

from __future__ import annotations

from PySide6.QtCore import Q_ARG, QMetaObject

from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import open_settings_at
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import find_all


def test_the_registry_is_listed_offline_from_the_bundled_copy_with_a_note(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        registry = window.objects.agent_registry
        dialog = await open_settings_at(ui, window, "Agents")
        await ui.until(lambda: not registry.fetching and registry.note.startswith("Offline: "), 20)
        assert registry.source == "bundled" and "the copy bundled with ClawQt: 4 agents." in registry.note
        rows = [r for r in find_all(window.root.contentItem(), "registryAgent") if r.isVisible()]
        assert len(rows) == len(registry.agents) == 4
        assert {a["how"] for a in registry.agents} >= {"npx @zed-industries/claude-agent-acp@0.23.1"}
        note = await ui.shown(window, "registryNote")
        assert note.property("text") == registry.note

        await mouse_click(ui, window, "registryRefresh")
        await ui.until(lambda: not registry.fetching, 20)
        assert registry.note.startswith("Offline: the ACP registry could not be fetched (")
        QMetaObject.invokeMethod(dialog, "showSection", Q_ARG("QVariant", "Agents"))
        await ui.frames(window, 3)
        await ui.screenshots(window, "164-settings-acp-registry-offline")

    ui.run(scenario(), timeout=60)
