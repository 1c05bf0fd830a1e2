"""Work a hostile agent can make long stays off the loop the window runs on: closing a chat with 64 of
its terminals scans /proc once, off the loop (it scanned once or more per terminal, on it), and a 100 MB
line is parsed in a worker thread in short steps (json.loads held the loop for the whole parse), in
order: nothing the agent sent after it is handled before it. A real scripted agent each time."""

from __future__ import annotations

import threading

from app.main.core import process_tree
from tests.conftest import process_alive, scripted_agent_argv
from tests.waits import until


async def test_closing_a_chat_with_64_agent_terminals_scans_proc_off_the_loop_in_one_go(
    make_service, monkeypatch
):
    """Each terminal's kill scanned /proc on the loop (and scanned again for children forked meanwhile):
    64 of them stalled it 0.3-1.6 s (bench/loop_stalls.py measures the stall now). The scopes asked for
    in one turn are swept together, in a worker thread."""
    sweeps: list[int] = []
    scans_on_the_loop: list[object] = []
    real_kill_scopes, real_tagged = process_tree.kill_scopes, process_tree._tagged

    def sweeping(scopes, rounds: int = 3) -> int:
        sweeps.append(len(scopes or ()))
        return real_kill_scopes(scopes, rounds)

    def scanning(scopes):
        if threading.current_thread() is threading.main_thread():
            scans_on_the_loop.append(scopes)
        return real_tagged(scopes)

    monkeypatch.setattr(process_tree, "kill_scopes", sweeping)
    monkeypatch.setattr(process_tree, "_tagged", scanning)
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "term-many 64")
    assert "created 64 terminals" in envelopes.text()
    terminals = service.terminals.terminals
    pids = [t.pty.pid for t in terminals._terminals.values()]
    assert terminals.running_count == 64 and all(process_alive(p) for p in pids)
    sweeps.clear()
    await service.close_session(session.session_key)
    await until(lambda: not any(process_alive(p) for p in pids), 30)
    await until(lambda: len(terminals) == 0 and terminals.running_count == 0, 30)
    await until(lambda: sweeps, 30)  # the sweep runs in its worker thread: the shells may end first
    assert not scans_on_the_loop, f"{len(scans_on_the_loop)} scans of /proc on the loop's thread"
    assert sweeps[0] == 64 and len(sweeps) <= 2, sweeps  # every scope in the first sweep


async def test_a_100_mb_line_from_the_agent_arrives_whole_and_in_order(make_service):
    """One 100 MB session/update of text written as \\uXXXX escapes, then a short one: both arrive, in
    the order sent (the line is parsed in a worker thread: tests/unit/acp/test_transport_and_block_model.py;
    the loop's stall is measured by bench/loop_stalls.py)."""
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "hostile-bigline 100 escaped")
    chunks = [e.notification["update"]["content"]["text"] for e in envelopes.updates("agent_message_chunk")]
    assert len(chunks) == 2 and chunks[1] == "after the big line"  # in the order sent
    assert len(chunks[0]) > 50_000_000 and chunks[0].startswith("Grüße, 世界 and Привет")
