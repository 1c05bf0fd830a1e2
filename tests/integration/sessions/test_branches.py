"""Chats that continue another one, on the main side with real scripted agents: the transcript goes
with the new chat's first message only (as hidden context), the link and a transcript not sent yet
survive a restart (a new hub on the same data folder) and an agent crash, a fork needs the agent's
capability and the chat's end, and a hand-edited links file is read as no link."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.contract.branches import BranchRequest
from app.contract.errors import HostError
from app.main.agents.profiles import AgentProfile
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.local import JsonStringMap
from tests.conftest import scripted_agent_argv

CAPS_WITHOUT_FORK = '{"loadSession": true, "sessionCapabilities": {"list": {}}}'
ONE = AgentProfile("one", "One", scripted_agent_argv("--ids=one"), "config", "test")
TWO = AgentProfile(
    "two", "Two", scripted_agent_argv("--ids=two", f"--caps={CAPS_WITHOUT_FORK}"), "config", "t"
)


def _hub(tmp_path: Path) -> AgentHub:
    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    data = tmp_path / "data"
    return AgentHub(
        [ONE, TWO],
        make,
        remembered=JsonStringMap("chat-agents.json", data),
        branches=JsonStringMap("chat-branches.json", data),
    )


def _request(source: str, agent_id: str, at_end: bool = False) -> BranchRequest:
    transcript = "Earlier:\n\nUser:\nfirst question\n\nOne:\nHello world\n\n"
    return BranchRequest(source, "First", "m1", agent_id, "", transcript, 1, at_end)


async def _answer(hub: AgentHub, key: str, text: str) -> str:
    seen: list[str] = []

    def listen(envelope) -> None:
        update = getattr(envelope, "notification", {}).get("update", {})
        content = update.get("content") if isinstance(update, dict) else None
        if getattr(envelope, "session_key", "") == key and isinstance(content, dict):
            seen.append(content.get("text", ""))

    stop = hub.subscribe(listen)
    try:
        await hub.prompt(key, text)
    finally:
        stop()
    return "".join(seen)


async def test_the_transcript_goes_once_and_the_link_outlives_a_restart(tmp_path):
    hub = _hub(tmp_path)
    try:
        source = (await hub.new_session_with("one")).session_key
        await hub.prompt(source, "first question")
        branch = await hub.branches.branch(_request(source, "two"))
        key = branch.session_key
        assert hub.agent_of(key) == "two" and key != source
        origin = hub.branches.origin(key)
        assert origin is not None and origin.source_key == source and not origin.forked
        assert not origin.handed_over and origin.source_agent
    finally:
        await hub.shutdown()

    hub = _hub(tmp_path)  # the next run: the link and the transcript still due are remembered
    try:
        origin = hub.branches.origin(key)
        assert origin is not None and not origin.handed_over and origin.source_title == "First"
        await hub.load_session(key)
        assert "handed first question" in await _answer(hub, key, "recall")
        assert hub.branches.origin(key).handed_over  # type: ignore[union-attr]
        assert "handed" not in await _answer(hub, key, "recall")  # once, not with every message
        assert hub.branches.origin(source) is None  # the chat continued is not changed
    finally:
        await hub.shutdown()


async def test_a_fork_needs_the_agents_capability_and_the_chats_end(tmp_path):
    hub = _hub(tmp_path)
    try:
        one = (await hub.new_session_with("one")).session_key
        await hub.prompt(one, "first question")
        forked = await hub.branches.branch(_request(one, "", at_end=True))
        assert hub.branches.origin(forked.session_key).forked  # type: ignore[union-attr]
        assert "forked from" in await _answer(hub, forked.session_key, "recall")
        earlier = await hub.branches.branch(_request(one, "", at_end=False))  # not its end: no fork
        assert not hub.branches.origin(earlier.session_key).forked  # type: ignore[union-attr]

        two = (await hub.new_session_with("two")).session_key  # an agent that cannot fork
        await hub.prompt(two, "first question")
        handed = await hub.branches.branch(_request(two, "", at_end=True))
        assert not hub.branches.origin(handed.session_key).forked  # type: ignore[union-attr]
        assert "handed first question" in await _answer(hub, handed.session_key, "recall")
    finally:
        await hub.shutdown()


def test_a_hand_edited_links_file_is_read_as_no_link(tmp_path):
    store = JsonStringMap("chat-branches.json", tmp_path / "data")
    store.set("a", "not json")
    store.set("b", '{"source_key": "x", "unknown_field": 1}')
    store.set("c", "[1, 2]")
    hub = AgentHub([ONE], lambda profile: None, branches=store)  # type: ignore[arg-type,return-value]
    assert [hub.branches.origin(key) for key in "abc"] == [None, None, None]
    assert hub.branches.context("a") is None


async def test_an_agent_crash_on_the_first_message_keeps_the_transcript_due(tmp_path):
    hub = _hub(tmp_path)
    try:
        source = (await hub.new_session_with("one")).session_key
        await hub.prompt(source, "first question")
        key = (await hub.branches.branch(_request(source, "two"))).session_key
        with pytest.raises(HostError):
            await hub.prompt(key, "exit")  # the agent dies during the branch's first message
        assert not hub.branches.origin(key).handed_over  # type: ignore[union-attr]
        for _ in range(500):  # until the hub has seen the process end (a ceiling only a hang reaches)
            if hub.service("two").connection.state in ("exited", "failed"):
                break
            await asyncio.sleep(0.02)  # the poll's interval
        await hub.load_session(key)  # a new agent process: the chat is opened again
        assert "handed first question" in await _answer(hub, key, "recall")
    finally:
        await hub.shutdown()
