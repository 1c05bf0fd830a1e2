"""The search index fed by a real agent (the scripted agent, a subprocess over ACP) through the host as
the app builds it: what it said in a loaded history and live is found, with its chat and agent; a chat
shown again in the same run is not indexed twice; nothing is opened before anything is said."""

from __future__ import annotations

from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.sessions.service import ChatService
from tests.conftest import scripted_agent_argv


def _host(tmp_path):
    service = ChatService(
        AgentCommand(scripted_agent_argv(), "flag", "Scripted"),
        cwd=str(tmp_path),
        log_path=tmp_path / "agent-stderr.log",
    )
    return make_host(service, tmp_path / "data")


async def test_what_an_agent_said_in_a_loaded_history_and_live_is_found(tmp_path):
    host = _host(tmp_path)
    try:
        assert not (tmp_path / "data" / "search.db").exists()  # nothing said yet: no file
        await host.sessions.load_session("big-5")
        assert await host.search.written()
        hits = await host.search.search("question 3")
        assert hits and hits[0].chat.key == "big-5" and hits[0].kind == "message"
        assert hits[0].chat.agent == host.sessions.label_of("big-5")
        assert [hits[0].snippet.text[a:b] for a, b in hits[0].snippet.marks] == ["question", "3"]

        opened = await host.sessions.new_session()
        await host.sessions.prompt(opened.session_key, "hello there, searchable zanzibar")
        assert await host.search.written()
        live = await host.search.search("zanzibar")
        assert [(h.chat.key, h.kind) for h in live] == [(opened.session_key, "message")]
        assert live[0].chat.folder == str(tmp_path)

        entries = host.search.writer.index.counts()[1]
        await host.sessions.load_session("big-5")  # shown again: indexed once a run
        assert await host.search.written()
        assert host.search.writer.index.counts()[1] == entries
    finally:
        await host.shutdown()
    assert (tmp_path / "data" / "search.db").exists()
