"""Terminal cards from every source, through a real agent subprocess into ClawQt's service, reducer and
grouping: the `_meta` convention (all at the end, streamed deltas), ACP v2 updates, output before the
card, unknown ids, and the client's own terminals on a real PTY (terminal/create)."""

from __future__ import annotations

import asyncio
import json
import time

from app.renderer.timeline.pipeline import HeadlessPipeline
from app.renderer.timeline.terminal_screen import render_screen
from tests.conftest import process_alive, scripted_agent_argv
from tests.waits import until


async def _turn(make_service, prompt: str):
    service, envelopes = make_service(scripted_agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    result = await pipeline.prompt(timeline.session_key, prompt)
    return service, envelopes, timeline, result


def _tool(timeline, tool_call_id: str):
    return timeline.items[f"tool:{tool_call_id}"]


async def _held_pid(pidfile) -> int:
    """A terminal's shell pid once its `echo $$ > FILE` has written it: the file exists, empty, before."""

    def written() -> str:
        text = pidfile.read_text() if pidfile.exists() else ""
        return text if text.endswith("\n") else ""

    return int(await until(written, 30, seen=lambda: f"nothing whole in {pidfile}"))


async def test_full_output_once_at_the_end_like_claude_agent_acp(make_service):
    _, _, timeline, _ = await _turn(make_service, "term-end")
    tool = _tool(timeline, "t-end")
    terminal = tool.terminal
    assert (terminal.cwd, terminal.exit_code, terminal.exited) == ("/work", 0, True)
    assert render_screen(terminal.output) == "dir  run.sh  notes.txt"  # colours applied, not printed
    assert tool.output_parts[0].text == "List the files"  # the description stays above the terminal


async def test_streamed_deltas_like_codex_acp_render_the_progress_bar_and_exit_2(make_service):
    _, _, timeline, _ = await _turn(make_service, "term-delta")
    terminal = _tool(timeline, "t-delta").terminal
    assert render_screen(terminal.output) == "building 100%\nerror: missing file"
    assert terminal.exit_code == 2 and _tool(timeline, "t-delta").status == "failed"


async def test_v2_updates_split_utf8_and_escape_sequences_and_signal_exit(make_service):
    _, _, timeline, _ = await _turn(make_service, "term-v2")
    terminal = _tool(timeline, "t-v2").terminal
    assert terminal.output == "h\u00e9llo \x1b[31mred\x1b[0m\n"
    assert render_screen(terminal.output) == "h\u00e9llo red"
    assert (terminal.cwd, terminal.signal, terminal.exit_code) == ("/v2", "SIGKILL", None)


async def test_output_before_the_card_is_parked_and_unknown_ids_drop_nothing_else(make_service):
    _, _, timeline, _ = await _turn(make_service, "term-early")
    other = _tool(timeline, "t-other")
    assert (other.title, other.status) == ("other (still applied)", "completed")
    terminal = _tool(timeline, "t-early").terminal
    assert (terminal.output, terminal.exit_code, terminal.cwd) == ("early output\n", 0, "/late")


async def test_terminal_create_runs_bash_on_a_pty_with_a_byte_limit(make_service, tmp_path):
    service, envelopes, timeline, _result = await _turn(make_service, "term-create")
    report = json.loads(envelopes.text())
    assert report["status"] == {"exitCode": 0}
    assert report["truncated"] is True and report["bytes"] <= 1000
    assert report["tail"].strip().endswith("done")
    card = _tool(timeline, "t-create").terminal  # the card embedding the client's terminal shows it
    assert card is not None and card.exited and card.exit_code == 0
    assert "\u00e9t\u00e9-400" in card.output and "done" in render_screen(card.output)
    assert len(service.terminals) == 0  # released


async def test_terminal_kill_keeps_the_output_and_reports_sigkill(make_service):
    _, envelopes, timeline, _ = await _turn(make_service, "term-kill")
    report = json.loads(envelopes.text())
    assert report["status"] == {"signal": "SIGKILL"}
    assert "started" in report["output"]["output"]
    assert report["output"]["exitStatus"] == {"signal": "SIGKILL"}
    assert _tool(timeline, "t-kill").terminal.signal == "SIGKILL"


async def test_terminal_cwd_outside_the_workspace_is_refused(make_service):
    _, envelopes, _, _ = await _turn(make_service, "term-outside")
    response = json.loads(envelopes.text())
    assert "error" in response and "outside the session's workspace" in json.dumps(response["error"])


async def test_client_terminals_end_when_the_app_quits(make_service, tmp_path):
    service, _envelopes, _, _ = await _turn(make_service, "term-hold")
    pid = await _held_pid(tmp_path / "held.pid")
    assert process_alive(pid) and len(service.terminals) == 1
    await service.shutdown()
    await until(lambda: not process_alive(pid), 30)


async def test_client_terminals_end_when_their_session_closes(make_service, tmp_path):
    service, _, timeline, _ = await _turn(make_service, "term-hold")
    pid = await _held_pid(tmp_path / "held.pid")
    assert process_alive(pid)
    await service.close_session(timeline.session_key)
    await until(lambda: not process_alive(pid), 30)
    assert len(service.terminals) == 0


async def test_the_demo_agent_exercises_deltas_v2_and_a_client_terminal(make_service, monkeypatch):
    from tests.conftest import demo_agent_argv

    monkeypatch.setenv("CLAWQT_DEMO_DELAY_MS", "0")
    service, envelopes = make_service(demo_agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    for prompt in ("stream the build as deltas", "show the v2 updates", "run it in my terminal"):
        result = await pipeline.prompt(timeline.session_key, prompt)
        assert result.stop_reason == "end_turn", prompt
    terminals = {
        t.terminal.terminal_id: t.terminal
        for t in timeline.items.values()
        if t.kind == "tool" and t.terminal is not None
    }
    deltas = next(t for i, t in terminals.items() if i.startswith("demo-deltas"))
    assert deltas.exit_code == 2 and "100%" in render_screen(deltas.output).splitlines()[0]
    v2 = next(t for i, t in terminals.items() if i.startswith("demo-v2"))
    assert v2.signal == "SIGTERM" and render_screen(v2.output) == "h\u00e9llo from ACP v2"
    client = next(t for i, t in terminals.items() if i.startswith("term-"))
    assert client.exited and client.exit_code == 0 and "line 60" in render_screen(client.output)
    summary = envelopes.text()
    assert '"truncated": true' in summary and '"exitCode": 0' in summary


async def test_a_stopped_turn_s_terminal_left_running_is_killed_after_a_grace_output_kept(
    make_service, tmp_path
):
    """Like fast-agent, the agent answers `cancelled` without killing its terminal: ClawQt gives it the
    grace, then kills it itself, and the card keeps the output and says why it ended."""
    from app.main.sessions.stop_grace import STOP_GRACE_S

    service, _ = make_service(scripted_agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "term-stop"))
    pid = await _held_pid(tmp_path / "stop.pid")
    assert await service.cancel(timeline.session_key)
    stopped_at = time.monotonic()
    assert (await running).stop_reason == "cancelled"
    assert process_alive(pid)  # the agent gets its grace first
    await until(lambda: not process_alive(pid), STOP_GRACE_S + 30)
    assert time.monotonic() - stopped_at >= STOP_GRACE_S - 0.1
    terminal = _tool(timeline, "t-stop").terminal
    await until(lambda: terminal.exited, 30)
    assert (terminal.signal, terminal.note) == ("SIGKILL", "killed after Stop")
    assert "started" in render_screen(terminal.output)


async def test_a_finished_turn_s_terminals_are_not_killed_by_a_later_stop(
    make_service, tmp_path, monkeypatch
):
    """The kill after Stop is for the stopped turn's own terminals only."""
    monkeypatch.setattr("app.main.sessions.stop_grace.STOP_GRACE_S", 0.2)
    service, _ = make_service(scripted_agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    await pipeline.prompt(timeline.session_key, "term-hold")
    held = await _held_pid(tmp_path / "held.pid")
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "silent"))
    await asyncio.sleep(0.2)  # the silent turn is under way before the Stop
    assert await service.cancel(timeline.session_key)
    await running
    await asyncio.sleep(0.8)  # well past the (shortened) grace
    assert process_alive(held) and len(service.terminals) == 1
