"""The search index fed by a real agent (the scripted agent, a subprocess over ACP) through the host as
the app builds it: what it said in a loaded history and live is found, with its chat and agent; a chat
shown again in the same run is not indexed twice; nothing is opened before anything is said."""

from __future__ import annotations

from datetime import datetime

from app.main.agents.command import AgentCommand
from app.main.core import paths
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
        assert not (paths.data_dir() / "search.db").exists()  # nothing said yet: no file
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
    assert (paths.data_dir() / "search.db").exists()  # the app's own folder, not the stores' (tmp_path)


async def test_the_index_is_never_written_into_the_folder_an_agent_works_in(tmp_path):
    """The host's stores may live inside the chat's folder (a benchmark's window does): the index still
    goes to the app's own data folder, which the review never counts as the agent's change (in that
    benchmark it once showed as a changed file and the turn's real change card never came)."""
    host = _host(tmp_path)  # cwd tmp_path, the stores in tmp_path/data
    try:
        opened = await host.sessions.new_session()
        await host.sessions.prompt(opened.session_key, "hello")
        assert await host.search.written()
        assert await host.search.search("hello")
    finally:
        await host.shutdown()
    assert not list(tmp_path.glob("data/search.db*"))
    assert (paths.data_dir() / "search.db").exists()


async def test_a_chat_the_user_deletes_is_no_longer_found(tmp_path):
    host = _host(tmp_path)
    try:
        kept = await host.sessions.new_session()
        await host.sessions.prompt(kept.session_key, "the kept chat says quokka")
        gone = await host.sessions.new_session()
        await host.sessions.prompt(gone.session_key, "the deleted chat says quokka and wombat")
        assert await host.search.written()
        found = {h.chat.key for h in await host.search.search("quokka")}
        assert found == {kept.session_key, gone.session_key}

        await host.sessions.delete_session(gone.session_key)
        assert await host.search.written()
        assert [h.chat.key for h in await host.search.search("quokka")] == [kept.session_key]
        assert await host.search.search("wombat") == []
    finally:
        await host.shutdown()


async def test_the_output_of_a_terminal_clawqt_runs_for_the_agent_is_found(tmp_path):
    host = _host(tmp_path)
    try:
        opened = await host.sessions.new_session()
        await host.sessions.prompt(opened.session_key, "term-create")  # a real bash through terminal/create
        assert await host.search.written()
        hits = await host.search.search("été-123")
        assert [(h.chat.key, h.kind) for h in hits] == [(opened.session_key, "terminal")]
        assert "été-123" in hits[0].snippet.text
    finally:
        await host.shutdown()


async def test_every_chat_an_agent_lists_is_indexed_through_a_connection_of_its_own(tmp_path):
    """The scripted agent lists 25 chats in three pages: each is loaded through a second process of the
    agent (its loads never reach the window's subscribers), indexed with the agent's name and folder,
    progress said after each; run again, nothing is loaded twice; cancelled, the second process ends."""
    host = _host(tmp_path)
    seen: list = []
    host.sessions.subscribe(seen.append)  # what the window would receive
    try:
        said: list[tuple[int, int, int]] = []
        indexed = await host.search.index_agent(host.agents.current, lambda *step: said.append(step))
        assert indexed == 25 and said[0] == (25, 0, 0) and said[-1] == (25, 25, 0)
        hits = await host.search.search("a1", limit=100)
        assert {h.chat.key for h in hits} == {f"listed-{n}" for n in range(25)}
        assert {h.chat.agent for h in hits} == {host.sessions.label_of("listed-0")}
        listed_day = datetime(2026, 11, 30).timestamp()  # each listed "updatedAt": dated then, not now
        assert {h.chat.updated for h in hits} == {listed_day} and {h.at for h in hits} == {listed_day}
        assert [e for e in seen if getattr(e, "session_key", "").startswith("listed-")] == []

        again: list[tuple[int, int, int]] = []
        assert await host.search.index_agent(host.agents.current, lambda *step: again.append(step)) == 0
        assert again == [(0, 0, 0)]
    finally:
        await host.shutdown()


async def test_indexing_an_agents_chats_stops_when_cancelled_and_its_process_ends(tmp_path):
    import asyncio
    import contextlib

    from tests.conftest import process_group_gone
    from tests.waits import until

    host = _host(tmp_path)
    readers: list = []
    make_reader = host.search._reader

    def watched(agent_id: str):
        reader, label = make_reader(agent_id)
        readers.append(reader)
        return reader, label

    host.search._reader = watched
    try:
        said: list[tuple[int, int, int]] = []

        def progress(*step: int) -> None:
            said.append(step)
            if step[1] == 3:  # a few chats in: the user presses Cancel
                task.cancel()

        task = asyncio.ensure_future(host.search.index_agent(host.agents.current, progress))
        with contextlib.suppress(asyncio.CancelledError):
            await task
        pid = readers[0].connection.pid
        assert said[-1] == (25, 3, 0)  # stopped there
        await until(lambda: process_group_gone(pid))  # its own agent process ended with it
    finally:
        await host.shutdown()
