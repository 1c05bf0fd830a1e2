"""The sidebar's archive and its grouping by folder, with the demo agent listing real session files
over ACP: a chat archived leaves the list (and stays out after a restart) until the user shows the
archived ones, then sits in a group of its own at the end, and comes back with one click; grouped by
folder, the chats fall under the folder each works in, the folder worked in last first, and the
choice is kept for the next start."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from app.renderer.qt.common.keyed_list_model import ENTRY_ROLE
from tests.conftest import demo_agent_argv
from tests.ui.sessions.test_sidebar_groups_window import _shown
from tests.ui.terminals.panel_support import mouse_click


def _seed(data_dir, folders: list[str]) -> None:
    """One stored demo chat per folder given, a day apart, the first the newest."""
    sessions = data_dir / "demo-agent" / "sessions"
    sessions.mkdir(parents=True)
    now = datetime.now()
    for n, folder in enumerate(folders):
        touched = (now - timedelta(days=n, minutes=1)).astimezone()
        record = {"version": 1, "sessionId": f"seeded-{n}", "cwd": folder, "title": f"Chat {n}",
                  "updatedAt": touched.isoformat(), "modeId": "code", "model": "demo-fast", "turns": 1,
                  "history": []}  # fmt: skip
        (sessions / f"seeded-{n}.json").write_text(json.dumps(record))


def _rows(sessions) -> list[tuple[str, str]]:
    model = sessions.model
    entries = [model.data(model.index(row), ENTRY_ROLE) for row in range(model.rowCount())]
    return [(entry["title"], entry["group"]) for entry in entries]


def test_a_chat_archived_leaves_the_list_and_the_chats_group_by_folder_across_a_restart(ui, isolated_dirs):
    beta, alpha = str(isolated_dirs / "work" / "beta"), str(isolated_dirs / "work" / "alpha")
    _seed(isolated_dirs / "data", [beta, alpha, beta, alpha])

    async def scenario():
        window = await ui.open(demo_agent_argv())
        sessions = window.objects.sessions
        await ui.until(lambda: len([t for t, _ in _rows(sessions) if t.startswith("Chat ")]) == 4)

        sessions.setArchived("seeded-1", True)  # what the row's Archive does
        await ui.until(lambda: "Chat 1" not in [t for t, _ in _rows(sessions)])
        assert sessions.archivedCount == 1
        await mouse_click(ui, window, "sidebarViewButton")
        await mouse_click(ui, window, "showArchived")
        await ui.until(lambda: _rows(sessions)[-1] == ("Chat 1", "Archived"))
        await ui.shown(window, "sessionRow_seeded-1")
        await ui.screenshots(window, "142-sidebar-archived")

        await mouse_click(ui, window, "sidebarViewButton")
        await ui.shown(window, "groupByFolder")
        await ui.screenshots(window, "144-sidebar-view-menu")
        await mouse_click(ui, window, "groupByFolder")
        await ui.until(lambda: sessions.groupBy == "folder")
        seeded = [(t, g) for t, g in _rows(sessions) if t.startswith("Chat ")]
        groups = [g for _, g in seeded if g != "Archived"]
        assert groups == [groups[0], groups[0], groups[2]]  # each folder's chats together
        # the folder worked in last first, named first
        assert groups[0].startswith("beta \u00b7") and groups[2].startswith("alpha \u00b7")
        assert [t for t, g in seeded if g != "Archived"] == ["Chat 0", "Chat 2", "Chat 3"]
        shown_groups = [g.property("text") for g in _shown(window, "sessionGroup")]
        assert [g for g in shown_groups if g.startswith(("beta", "alpha"))] == [groups[0], groups[2]]
        await ui.screenshots(window, "143-sidebar-by-folder")
        await window.objects.shutdown()  # the window's state written as it closes

        window = await ui.open(demo_agent_argv())  # the next start: the folders kept, Chat 1 still archived
        sessions = window.objects.sessions
        await ui.until(lambda: len([t for t, _ in _rows(sessions) if t.startswith("Chat ")]) == 3)
        assert sessions.groupBy == "folder" and "Chat 1" not in [t for t, _ in _rows(sessions)]
        sessions.setArchived("seeded-1", False)  # back to the list
        await ui.until(lambda: "Chat 1" in [t for t, _ in _rows(sessions)])
        assert sessions.archivedCount == 0

    ui.run(scenario(), 90)
