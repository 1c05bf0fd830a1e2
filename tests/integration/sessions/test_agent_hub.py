"""Several agents at once through the agent hub, on real agent processes (the scripted agent and the
demo agent): each chat goes to its own agent, an agent starts on its first chat and stops once no chat
needs it, each agent's state waits until one of its chats is opened, the user's mode and model are
re-applied to that agent's next chat (also in the next run), and quitting kills every process group."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.contract.envelopes import Envelope
from app.contract.errors import SignInRequired
from app.main.agents.profiles import AgentProfile
from app.main.host.parts import SignInOfShown
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.local import JsonStringMap
from tests.conftest import demo_agent_argv, process_group_gone, scripted_agent_argv

SCRIPTED = AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test")
DEMO = AgentProfile(
    "demo", "Demo agent", demo_agent_argv(), "demo", "test", env=(("CLAWQT_DEMO_DELAY_MS", "2"),)
)


def _hub(tmp_path: Path, idle_stop_s: float = 600.0, first: str | None = None) -> AgentHub:
    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    remembered = JsonStringMap("chat-agents.json", tmp_path / "data")
    return AgentHub([SCRIPTED, DEMO], make, first=first, idle_stop_s=idle_stop_s, remembered=remembered)


def _text(updates: list[Any] | tuple[Any, ...]) -> str:
    """The text the agent streamed in these session updates."""
    texts = []
    for envelope in updates:
        content = envelope.notification.get("update", {}).get("content")
        texts.append(content.get("text", "") if isinstance(content, dict) else "")
    return "".join(texts)


async def _until(predicate: Any, timeout: float = 15.0) -> Any:
    for _ in range(int(timeout / 0.02)):
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.02)  # the poll's interval
    raise AssertionError(f"not within {timeout} s")


async def test_each_chat_streams_from_its_own_agent_and_quitting_kills_both_process_groups(tmp_path):
    hub = _hub(tmp_path)
    seen: list[Envelope] = []
    hub.subscribe(seen.append)
    try:
        await hub.start()
        assert "demo" not in hub._services  # the other agent starts with its first chat, not before
        scripted = await hub.new_session()
        demo = await hub.new_session_with("demo")
        assert (hub.agent_of(scripted.session_key), hub.agent_of(demo.session_key)) == ("scripted", "demo")
        assert hub.current == "demo" and hub.last_used == "demo"
        first = asyncio.ensure_future(hub.prompt(scripted.session_key, "slow"))
        await _until(lambda: hub.is_live(scripted.session_key))
        second = asyncio.ensure_future(hub.prompt(demo.session_key, "slow please"))
        await _until(lambda: hub.is_live(demo.session_key))
        assert hub.is_live(scripted.session_key)  # both turns run at once, each on its own agent

        def text_of(key: str) -> str:
            return _text([e for e in seen if e.kind == "session_update" and e.session_key == key])

        await _until(
            lambda: "tick 3" in text_of(scripted.session_key) and "slow-3/" in text_of(demo.session_key)
        )
        assert "slow-" not in text_of(scripted.session_key) and "tick" not in text_of(demo.session_key)
        pids = [hub.service(agent).connection.pid for agent in ("scripted", "demo")]
        assert all(pids) and pids[0] != pids[1]
    finally:
        await hub.shutdown()
    for turn in (first, second):
        with pytest.raises(Exception):  # noqa: B017 - the turn ends with its agent, whatever the error
            await turn
    assert all(process_group_gone(pid) for pid in pids), "an agent's process group outlived the quit"


async def test_an_agent_no_chat_needs_stops_and_starts_again_when_its_chat_is_opened(tmp_path):
    hub = _hub(tmp_path, idle_stop_s=0.3)
    try:
        await hub.start()
        scripted = await hub.new_session()
        await hub.prompt(scripted.session_key, "hello")
        pid = hub.service("scripted").connection.pid
        await hub.new_session_with("demo")  # the scripted agent's chat is no longer shown

        def states() -> dict[str, str]:
            return {choice.agent_id: choice.state for choice in hub.choices()}

        await _until(
            lambda: process_group_gone(pid) and states()["scripted"] == "stopped", 10
        )  # killed, then said
        assert states() == {"scripted": "stopped", "demo": "ready"}
        reopened = await hub.activate_session(scripted.session_key)  # loads it on a new child
        assert reopened.session_key == scripted.session_key and hub.current == "scripted"
        assert hub.service("scripted").connection.pid not in (None, pid)
        assert _text(reopened.updates)  # its history came back from the new child
    finally:
        await hub.shutdown()


async def test_a_busy_agent_is_not_stopped_while_its_turn_runs(tmp_path):
    hub = _hub(tmp_path, idle_stop_s=0.2)
    try:
        await hub.start()
        scripted = await hub.new_session()
        turn = asyncio.ensure_future(hub.prompt(scripted.session_key, "slow"))
        await _until(lambda: hub.is_live(scripted.session_key))
        await hub.new_session_with("demo")
        await asyncio.sleep(1.0)  # several idle periods
        assert hub.is_live(scripted.session_key) and hub.service("scripted").connection.is_ready
        await hub.cancel(scripted.session_key)
        assert (await turn).stop_reason == "cancelled"
    finally:
        await hub.shutdown()


async def test_an_agents_state_is_held_until_one_of_its_chats_is_opened(tmp_path):
    hub = _hub(tmp_path)
    seen: list[Envelope] = []
    hub.subscribe(seen.append)
    try:
        await hub.start()
        scripted = await hub.new_session()
        seen.clear()
        await hub.service("demo").start()  # started in the background: its state is not "the agent's"
        assert not [e for e in seen if e.kind == "agent_state"]
        assert [e.agent_id for e in seen if e.kind == "agents_changed"]  # the picker hears of it
        assert hub.agent_label == "Scripted"
        await hub.new_session_with("demo")
        held = [e for e in seen if e.kind == "agent_state"]
        assert held and held[-1].state == "ready" and "demo" in held[-1].command
        assert hub.agent_info is not None and hub.agent_info.name != "scripted-agent"
        await hub.activate_session(scripted.session_key)
        assert hub.agent_label == "Scripted"
    finally:
        await hub.shutdown()


async def test_the_mode_and_model_chosen_last_are_reapplied_to_the_agents_next_chat_in_the_next_run(
    tmp_path,
):
    hub = _hub(tmp_path, first="demo")
    try:
        await hub.start()
        chat = await hub.new_session()
        assert chat.modes["currentModeId"] == "code"
        await hub.set_mode(chat.session_key, "ask")
        await hub.set_config_option(chat.session_key, "model", "demo-thorough")
    finally:
        await hub.shutdown()

    again = _hub(tmp_path)  # the next run: the demo was used last, so it comes first
    try:
        await again.start()
        assert again.current == "demo"
        chat = await again.new_session()
        assert chat.modes["currentModeId"] == "ask"
        model = next(o for o in chat.config_options if o.get("category") == "model")
        assert model["currentValue"] == "demo-thorough"
    finally:
        await again.shutdown()


async def test_permission_requests_of_two_agents_never_share_an_id(tmp_path):
    hub = _hub(tmp_path)
    asked: list[Any] = []
    hub.subscribe(lambda e: e.kind == "permission_request" and asked.append(e))
    try:
        await hub.start()
        first = await hub.new_session()
        second_agent = hub.service("demo")
        second_agent.machine.permissions.prefix  # noqa: B018 - made with the hub's prefix
        assert hub.service("scripted").machine.permissions.prefix == "scripted-"
        assert second_agent.machine.permissions.prefix == "demo-"
        turn = asyncio.ensure_future(hub.prompt(first.session_key, "permission"))
        request = await _until(lambda: asked and asked[-1])
        assert request.request_id.startswith("rpc-scripted-")
        assert not hub.answer_permission(request.request_id.replace("scripted", "demo"), "allow")
        option = request.options[0]["optionId"]
        assert hub.answer_permission(request.request_id, option)
        await turn
    finally:
        await hub.shutdown()


async def test_the_sessions_of_every_running_agent_are_listed_each_under_its_agent(tmp_path):
    hub = _hub(tmp_path)
    try:
        await hub.start()
        scripted = await hub.new_session()
        await hub.prompt(scripted.session_key, "hello")
        demo = await hub.new_session_with("demo")
        await hub.prompt(demo.session_key, "/nothing")  # an unknown command: a one-line hint
        hub._owners.clear()  # forget what this run made: the listing alone must say whose each chat is
        hub.memory.store = None
        keys: list[str] = []
        cursor = None
        for _ in range(10):
            page = await hub.list_sessions(cursor)
            keys += [s.session_key for s in page.sessions]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert "listed-0" in keys and demo.session_key in keys  # the scripted agent lists canned ones
        assert len(keys) == len(set(keys))
        assert hub.agent_of("listed-0") == "scripted" and hub.agent_of(demo.session_key) == "demo"
    finally:
        await hub.shutdown()


async def test_a_second_agent_that_asks_to_sign_in_becomes_the_shown_agent_with_its_panel(tmp_path):
    locked = AgentProfile("locked", "Locked", scripted_agent_argv("--auth=agent"), "config", "test")

    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    hub = AgentHub([SCRIPTED, locked], make)
    seen: list[Envelope] = []
    hub.subscribe(seen.append)
    try:
        await hub.start()
        await hub.new_session()
        with pytest.raises(SignInRequired):
            await hub.new_session_with("locked")
        assert hub.current == "locked"  # the header, banner and sign-in panel are the locked agent's
        offer = [e for e in seen if e.kind == "sign_in"][-1]
        assert offer.phase == "needed" and offer.methods[0].id == "scripted-oauth"
        assert hub.agent_info is hub.service("locked").agent_info is not None
        sign_in = SignInOfShown(hub)
        assert await sign_in.authenticate("scripted-oauth") is True
        chat = await hub.new_session()  # what the panel does once signed in
        assert hub.agent_of(chat.session_key) == "locked"
    finally:
        await hub.shutdown()


async def test_a_chat_with_an_agent_not_running_is_listed_under_it_and_opens_by_starting_it(tmp_path):
    demo = AgentProfile(
        "demo",
        "Demo agent",
        demo_agent_argv(),
        "demo",
        "test",
        env=(("CLAWQT_DEMO_DELAY_MS", "2"), ("CLAWQT_DATA_DIR", str(tmp_path / "demo-data"))),
    )

    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    def hub() -> AgentHub:
        remembered = JsonStringMap("chat-agents.json", tmp_path / "data")
        return AgentHub([SCRIPTED, demo], make, first="scripted", remembered=remembered)

    first = hub()
    try:
        await first.start()
        empty = await first.new_session_with("demo")  # never sent to: not remembered
        chat = await first.new_session_with("demo")
        await first.prompt(chat.session_key, "/nothing")
    finally:
        await first.shutdown()

    again = hub()  # the next run starts the scripted agent only
    try:
        await again.start()
        page = await again.list_sessions()
        keys = [s.session_key for s in page.sessions]
        assert chat.session_key in keys and empty.session_key not in keys
        assert "demo" not in again._services and again.agent_of(chat.session_key) == "demo"
        opened = await again.activate_session(chat.session_key)  # starts the demo and loads the chat
        assert again.current == "demo" and _text(opened.updates)
        await again.close_session(chat.session_key)  # closed: no longer remembered
        assert again.agent_of(chat.session_key) == ""
    finally:
        await again.shutdown()
