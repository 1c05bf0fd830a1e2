"""The sidebar with many chats over many days: rows fall under Today, Yesterday, Previous 7 days,
Previous 30 days and the months before, each says when it was last touched, and a search (Ctrl+K)
keeps only the chats whose title holds what was typed; Esc clears it. The chats are real demo agent
session files, listed by the demo agent over ACP."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from PySide6.QtCore import QPointF, Qt

from app.renderer.qt.common.keyed_list_model import ENTRY_ROLE
from tests.conftest import demo_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import find_all

CHATS = 50


def _seed(data_dir, now: datetime) -> None:
    """Fifty stored demo chats, one a day back from a minute ago."""
    sessions = data_dir / "demo-agent" / "sessions"
    sessions.mkdir(parents=True)
    for n in range(CHATS):
        touched = (now - timedelta(days=n, minutes=1)).astimezone()
        record = {"version": 1, "sessionId": f"seeded-{n:02d}", "cwd": str(data_dir),
                  "title": f"Chat number {n}", "updatedAt": touched.isoformat(), "modeId": "code",
                  "model": "demo-fast", "turns": 1, "history": []}  # fmt: skip
        (sessions / f"seeded-{n:02d}.json").write_text(json.dumps(record))


def _shown(window, name: str) -> list:
    """The visible items named `name`, top to bottom."""
    items = [item for item in find_all(window.root.contentItem(), name) if item.isVisible()]
    return sorted(items, key=lambda item: item.mapToScene(QPointF(0, 0)).y())


def test_many_chats_fall_in_groups_by_day_say_when_and_a_search_finds_one(ui, isolated_dirs):
    _seed(isolated_dirs / "data", datetime.now())

    async def scenario():
        window = await ui.open(demo_agent_argv())
        window.root.resize(1280, 1000)
        sessions = window.objects.sessions
        await ui.until(lambda: sessions.model.rowCount() >= 20)  # the first page of the agent's list

        def groups() -> list[str] | None:
            names = [group.property("text") for group in _shown(window, "sessionGroup")]
            return names if len(names) >= 4 else None

        shown_groups = await ui.until(groups)
        assert shown_groups[:4] == ["Today", "Yesterday", "Previous 7 days", "Previous 30 days"], shown_groups
        whens = [w.property("text") for w in _shown(window, "sessionWhen")]
        assert whens and all(whens), whens  # each row says when
        await ui.screenshots(window, "63-sidebar-many-chats")

        listed = sessions.model.rowCount()
        await ui.key(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        search = ui.item(window, "sessionSearch")
        await ui.until(lambda: search.hasActiveFocus())
        await ui.keys(window, "number 1")  # 1 and 10-19 among those listed
        await ui.until(lambda: sessions.query == "number 1")
        model = sessions.model
        titles = [model.data(model.index(row), ENTRY_ROLE)["title"] for row in range(model.rowCount())]
        assert titles and all("number 1" in title.lower() for title in titles), titles
        await ui.screenshots(window, "64-sidebar-search")
        await ui.keys(window, "zzz")
        await ui.shown(window, "noChatMatches")
        await ui.key(window, Qt.Key.Key_Escape)
        # every chat again (more pages may have come in meanwhile: the list loads them as it is scrolled)
        await ui.until(lambda: sessions.query == "" and sessions.model.rowCount() >= listed)

    ui.run(scenario())


def test_a_new_chat_offers_the_last_chats_under_its_composer_and_one_click_opens_one(ui, isolated_dirs):
    _seed(isolated_dirs / "data", datetime.now())

    async def scenario():
        window = await ui.open(demo_agent_argv())
        window.root.resize(1280, 900)
        await ui.until(lambda: window.objects.sessions.model.rowCount() >= 20)
        await ui.shown(window, "recentChats")

        def shown_recent() -> list[str] | None:
            titles = [r.property("text") for r in _shown(window, "recentChatTitle")]
            return titles if len(titles) >= 3 else None  # the rows come in one by one

        # the newest three, once the list has settled (its pages arrive one by one, each re-sorted)
        await ui.until(
            lambda: shown_recent() == ["Chat number 0", "Chat number 1", "Chat number 2"], seen=shown_recent
        )
        composer = ui.item(window, "composerCard")
        first = _shown(window, "recentChatTitle")[0]
        assert first.mapToScene(QPointF(0, 0)).y() > composer.mapToScene(QPointF(0, composer.height())).y()
        await ui.screenshots(window, "86-welcome-recent-chats")
        await mouse_click(ui, window, "recentChat_0")
        await ui.until(lambda: window.objects.session.sessionKey == "seeded-00")
        # the chat shown is not offered, the next three are (these seeded chats are empty: the greeting stays)
        await ui.until(
            lambda: (
                [r.property("text") for r in _shown(window, "recentChatTitle")]
                == ["Chat number 1", "Chat number 2", "Chat number 3"]
            )
        )

    ui.run(scenario())


def test_a_search_reaches_chats_on_pages_not_loaded_yet_and_agent_names_one_agents_chats(ui, isolated_dirs):
    _seed(isolated_dirs / "data", datetime.now())

    async def scenario():
        window = await ui.open(demo_agent_argv())
        sessions = window.objects.sessions
        await ui.until(lambda: sessions.model.rowCount() > 0)
        await ui.frames(window, 3)
        listed = sessions.model.rowCount()
        assert listed < CHATS  # the agent pages its list: the oldest chats are not loaded yet
        model = sessions.model

        def titles() -> list[str]:
            return [model.data(model.index(row), ENTRY_ROLE)["title"] for row in range(model.rowCount())]

        sessions.setQuery("number 4")  # 4 and 40-49: most of them on later pages
        await ui.until(lambda: len(titles()) == 11, 30)
        assert not sessions.searchingOlder  # every page read
        sessions.setQuery("agent:demo number 4")  # the demo agent's chats: the same
        await ui.until(lambda: len(titles()) == 11)
        sessions.setQuery("agent:nobody number 4")  # an agent there is not: none
        await ui.until(lambda: titles() == [])
        await ui.shown(window, "noChatMatches")

    ui.run(scenario())
