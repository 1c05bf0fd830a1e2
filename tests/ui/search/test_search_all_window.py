"""Search every chat in the real window (Ctrl+Shift+F) with two real agents (the scripted agent and the
demo agent, each its own subprocess): a word the demo agent said is found from a chat with the other
agent, grouped under its chat with its agent and the word marked; Enter opens that chat at the hit
(find in the chat marks the word); the filters narrow by kind and by agent; a chat deleted is no
longer found; a chat whose agent is gone is read from the index; an index damaged or deleted between
runs is made again from the chats."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Q_ARG, QMetaObject, QObject, QPointF, Qt

from app.main.agents.profiles import AgentProfile
from app.main.core import paths
from app.main.host.build import Launch, build_host
from app.main.host.make import make_host
from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.ui.agents.test_agents_window import hub_of, two_agents
from tests.ui.settings.test_settings_window import dialog_of, open_settings
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_accessible_names import unnamed_controls
from tests.ui_harness import find_all

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


def _rows(objects, kind: str) -> list[dict]:
    return [row for row in objects.search_all.property("rows") if row["type"] == kind]


def test_a_word_another_agent_said_is_found_and_its_chat_opened_at_the_hit(ui):
    async def scenario():
        hub = two_agents(ui.tmp_path)
        host = make_host(hub, data_dir=ui.tmp_path / "data")
        window = await ui.open_host(host)
        objects = window.objects
        objects.agents.newChatWith("demo")
        await ui.until(lambda: hub.agent_of(objects.session.sessionKey) == "demo")
        demo_chat = objects.session.sessionKey
        await ui.send_and_settle(window, "/echo the zanzibar quokka was here")
        objects.agents.newChatWith("scripted")
        await ui.until(lambda: objects.session.sessionKey not in ("", demo_chat))
        scripted_chat = objects.session.sessionKey
        await ui.send_and_settle(window, "hello from the wombat chat")
        assert await host.search.written()

        await ui.key(window, Qt.Key.Key_F, CTRL | SHIFT, "F")
        pane = await ui.until(lambda: window.root.findChild(QObject, "searchPane"))
        await ui.until(lambda: pane.property("opened"))
        await ui.keys(window, "quokka")
        await ui.until(lambda: _rows(objects, "hit"))
        chats, hits = _rows(objects, "chat"), _rows(objects, "hit")
        assert [c["key"] for c in chats] == [demo_chat]
        assert chats[0]["agent"] == hub.label_of(demo_chat) != hub.label_of(scripted_chat)
        assert sorted(h["kind"] for h in hits) == ["Answer", "You"]  # what the agent said, what was asked
        assert all('">quokka</span>' in h["html"] for h in hits)  # the word marked
        assert objects.search_all.property("summary") == "2 matches in 1 chat"
        await ui.screenshots(window, "140-search-all")
        assert unnamed_controls(window) == [], "the search pane"

        objects.search_all.setFilter("kind", "tools")  # no tool said it
        await ui.until(lambda: objects.search_all.property("summary") == "No chat says that")
        objects.search_all.setFilter("kind", "all")
        objects.search_all.setFilter("agent", hub.label_of(scripted_chat))
        await ui.until(lambda: objects.search_all.property("summary") == "No chat says that")
        objects.search_all.setFilter("agent", "")
        await ui.until(lambda: len(_rows(objects, "hit")) == 2)

        assert [h["kind"] for h in _rows(objects, "hit")] == ["Answer", "You"]  # the newest first
        await ui.key(window, Qt.Key.Key_Down, NONE)  # to the user's own message
        await ui.key(window, Qt.Key.Key_Return, NONE, "\r")
        await ui.until(lambda: objects.session.sessionKey == demo_chat)
        await ui.until(lambda: objects.search.property("isOpen") and objects.search.property("count") >= 2)
        assert objects.search.property("query") == "quokka" and not pane.property("opened")
        # at that hit: the user's message, the second match from the newest (Ctrl+F alone goes to 1)
        await ui.until(lambda: objects.search.property("current") == 2)
        await ui.screenshots(window, "141-search-all-opened")

        await ui.key(window, Qt.Key.Key_F, CTRL | SHIFT, "F")
        await ui.until(lambda: pane.property("opened"))
        objects.search_all.setQuery("wombat")
        await ui.until(lambda: [c["key"] for c in _rows(objects, "chat")] == [scripted_chat])
        await hub.delete_session(scripted_chat)  # what the sidebar's Delete asks
        assert await host.search.written()
        objects.search_all.setQuery("wombat chat")
        await ui.until(lambda: objects.search_all.property("summary") == "No chat says that")

    ui.run(scenario(), timeout=90)


def test_a_chat_whose_agent_is_gone_is_read_from_the_index(ui):
    """A chat of the scripted agent, then a window whose only agent is the demo agent (the user removed
    the other): the word is found, and Enter shows the chat read-only as the index keeps it, at the
    word; nothing in it reaches an agent, and Close goes back to a chat."""

    async def scenario():
        scripted = AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test")
        demo = AgentProfile("demo", "Demo agent", demo_agent_argv(), "demo", "test")
        host = make_host(hub_of(ui.tmp_path, scripted), data_dir=ui.tmp_path / "data")
        window = await ui.open_host(host)
        old_chat = window.objects.session.sessionKey
        await ui.send_and_settle(window, "hello from the otter chat")
        assert await host.search.written()
        await window.objects.shutdown()

        host = make_host(hub_of(ui.tmp_path, demo), data_dir=ui.tmp_path / "data")
        window = await ui.open_host(host)
        objects = window.objects
        await ui.key(window, Qt.Key.Key_F, CTRL | SHIFT, "F")
        pane = await ui.until(lambda: window.root.findChild(QObject, "searchPane"))
        await ui.until(lambda: pane.property("opened"))
        await ui.keys(window, "otter")
        await ui.until(lambda: [c["key"] for c in _rows(objects, "chat")] == [old_chat])
        await ui.key(window, Qt.Key.Key_Return, NONE, "\r")
        await ui.until(lambda: objects.session.property("readOnly"))
        note = objects.session.property("readOnlyNote")
        assert note == "A chat with Scripted, from the search index: its agent is not one of yours now"
        assert objects.session.sessionKey == ""  # no agent's chat is shown: nothing reaches one
        await ui.until(lambda: objects.search.property("count") >= 1)
        assert objects.search.property("query") == "otter"
        await ui.shown(window, "traceBanner")

        def turn_names() -> list[str]:
            return [n.property("text") for n in find_all(window.root.contentItem(), "turnAgentName")]

        await ui.until(turn_names)
        assert set(turn_names()) == {"Scripted"}  # the chat's own agent, not the one this window runs
        await ui.screenshots(window, "148-search-read-from-index")
        await mouse_click(ui, window, "traceClose")
        await ui.until(lambda: not objects.session.property("readOnly"))

    ui.run(scenario(), 90)


def test_an_index_damaged_or_deleted_between_runs_is_made_again_from_the_chats(ui):
    """The chats are the truth, the index a cache: a search.db made garbage between two runs is kept aside
    with a word to the user and made again empty; the chat shown again through its agent (the scripted
    agent's stored `big-5`) is found again. Deleted: made again without a word."""

    async def scenario():
        scripted = AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test")

        async def run(damage: Callable[[Path], None], *, told: bool) -> None:
            host = make_host(hub_of(ui.tmp_path, scripted), data_dir=ui.tmp_path / "data")
            window = await ui.open_host(host)
            objects = window.objects
            objects.session.openSession("big-5")
            await ui.until(lambda: objects.session.sessionKey == "big-5")
            assert await host.search.written()
            assert [h.chat.key for h in await host.search.search("question 3")] == ["big-5"]
            await ui.new_chat(window)  # the next start opens this one, not big-5 (which would index it)
            await objects.shutdown()
            damage(paths.data_dir() / "search.db")

            host = make_host(hub_of(ui.tmp_path, scripted), data_dir=ui.tmp_path / "data")
            window = await ui.open_host(host)
            objects = window.objects
            objects.search_all.setOpen(True)
            objects.search_all.setQuery("question 3")
            await ui.until(lambda: objects.search_all.property("summary") == "No chat says that")
            if told:
                await ui.until(lambda: "could not be read and is being made again" in objects.notices.notice)
                assert list(paths.data_dir().glob("search.db.corrupt-*"))  # kept aside, not deleted
            objects.search_all.setOpen(False)
            objects.session.openSession("big-5")  # shown again: its history indexed again
            await ui.until(lambda: objects.session.sessionKey == "big-5")
            assert await host.search.written()
            objects.search_all.setQuery("question 3 again")
            objects.search_all.setQuery("question 3")
            await ui.until(lambda: [c["key"] for c in _rows(objects, "chat")] == ["big-5"])
            await objects.shutdown()

        def garbage(path: Path) -> None:
            for extra in path.parent.glob("search.db-*"):
                extra.unlink()
            path.write_bytes(b"this is not a database, just bytes " * 100)

        await run(garbage, told=True)
        await run(lambda path: path.unlink(), told=False)

    ui.run(scenario(), 120)


def test_settings_say_how_big_the_index_is_and_keep_its_bound(ui, isolated_dirs):
    """Settings' Search: the index's size in words, and its bound in megabytes, applied at once to the
    index and kept in the config file; a bound out of range is refused in words, the old one kept."""
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"agent": {"command": " ".join(scripted_agent_argv())}}))

    async def scenario():
        host, _recorder = build_host(Launch(agent=" ".join(scripted_agent_argv()), cwd=str(ui.tmp_path)))
        window = await ui.open_host(host)
        objects = window.objects
        await ui.send_and_settle(window, "hello from the heron chat")
        assert await host.search.written()
        await open_settings(ui, window)
        await ui.until(lambda: objects.search_all.property("indexSize").startswith("1 chat, "))
        assert objects.search_all.property("indexSize").endswith(" of 2,048 MB")
        assert objects.search_all.property("indexLimit") == 2048
        field = await ui.shown(window, "searchIndexLimit")
        assert field.property("text") == "2048"

        objects.search_all.setIndexLimit(64)  # what the field does when edited
        await ui.until(lambda: json.loads(config.read_text()).get("searchIndexMegabytes") == 64)
        assert host.search.writer.index.max_bytes == 64 * 1024 * 1024  # at once
        await ui.until(lambda: objects.search_all.property("indexSize").endswith(" of 64 MB"))
        objects.search_all.setIndexLimit(3)
        await ui.until(
            lambda: "must be 16 to 1,000,000 MB" in objects.search_all.property("indexLimitProblem")
        )
        assert json.loads(config.read_text())["searchIndexMegabytes"] == 64
        QMetaObject.invokeMethod(dialog_of(window), "showSection", Q_ARG("QVariant", "Search"))
        await ui.until(
            lambda: field.mapToScene(QPointF(0, 0)).y() < window.root.height() - 2 * field.height()
        )
        await ui.frames(window, 3)
        await ui.screenshots(window, "149-settings-search")

    ui.run(scenario(), 60)


def test_an_agents_older_chats_are_indexed_when_asked_with_progress(ui):
    """The scripted agent lists 25 chats never shown here: the pane's "Index its chats" reads each
    through a second process of the agent (nothing of it reaches the chat on screen), says how far it
    is, and what was said in them is found then."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        shown = objects.session.sessionKey
        await ui.key(window, Qt.Key.Key_F, CTRL | SHIFT, "F")
        pane = await ui.until(lambda: window.root.findChild(QObject, "searchPane"))
        await ui.until(lambda: pane.property("opened"))
        await mouse_click(ui, window, "searchIndexAgentButton")
        await ui.until(
            lambda: objects.search_all.property("indexProgress") == "Scripted: 25 more chats indexed.", 30
        )
        assert not objects.search_all.property("indexing")
        assert objects.session.sessionKey == shown  # the window's chat untouched
        await mouse_click(ui, window, "searchAllField")
        await ui.keys(window, "a1")
        await ui.until(lambda: len(_rows(objects, "chat")) == 25)
        chats = _rows(objects, "chat")
        assert {c["key"] for c in chats} == {f"listed-{n}" for n in range(25)}
        assert chats[0]["title"] == "Session 24" and chats[0]["agent"] == "Scripted"  # as the agent lists it
        await ui.screenshots(window, "150-search-indexed-an-agent")

    ui.run(scenario(), 60)
