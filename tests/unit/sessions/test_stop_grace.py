"""Stop on an agent that never answers `session/cancel`: the session machine ends the turn itself when
told (`settle_unconfirmed`), `StopGrace` tells it after the grace, and the window's footer says the agent
did not confirm. The real agent subprocess: tests/integration/sessions/test_stop_unconfirmed.py."""

from __future__ import annotations

import asyncio

from app.contract.envelopes import PromptSettledEnvelope
from app.main.sessions.machine import SessionMachine
from app.main.sessions.stop_grace import StopGrace
from app.renderer.present.presenter import footer_entry
from tests.unit.sessions.test_machine import _new, _permission, _prompt, _update
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent


def stopped_turn() -> SessionMachine:
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "m1", now=10.0)
    machine.on_recv(_permission(50, "acp-a"))
    machine.on_send({"method": "session/cancel", "params": {"sessionId": "acp-a"}})
    return machine


def test_without_stop_the_machine_never_ends_a_turn_itself():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "m1")
    assert machine.settle_unconfirmed("acp-a", 20.0).envelopes == [] and machine.live


def test_an_unconfirmed_stop_settles_once_drops_the_late_updates_and_absorbs_the_late_answer():
    machine = stopped_turn()
    machine.on_recv(_update("acp-a", "tool_call", toolCallId="t1", status="in_progress"))
    step = machine.settle_unconfirmed("acp-a", 15.5)
    [*cancelled, settled] = step.envelopes
    assert isinstance(settled, PromptSettledEnvelope)
    assert (settled.stop_reason, settled.stopped, settled.unconfirmed, settled.elapsed_s) == (
        "cancelled", True, True, 5.5,
    )  # fmt: skip
    assert [e.tool_call_ids for e in cancelled] == [("t1",)]
    assert not machine.live and not machine.live_by_acp
    assert machine.settle_unconfirmed("acp-a", 16.0).envelopes == []  # once
    late = machine.on_recv(_update("acp-a"))
    assert late.envelopes == [] and late.ignored[0].code == "update-dropped"
    answer = machine.on_recv({"id": 2, "result": {"stopReason": "end_turn"}})
    assert answer.envelopes == [] and [i.code for i in answer.ignored] == ["prompt-late-answer"]
    assert machine.on_recv(_update("acp-a")).envelopes  # after its answer, the session's updates show


def test_the_next_prompt_after_an_unconfirmed_stop_gets_its_own_updates():
    machine = stopped_turn()
    machine.settle_unconfirmed("acp-a", 12.0)
    machine.check_prompt("acp-a", None, load_queued=False, agent_gone=False)  # not refused
    _prompt(machine, 3, "acp-a", "m2")
    [routed] = machine.on_recv(_update("acp-a")).envelopes
    assert routed.generation == machine.live["acp-a"].generation


def grace(machine: SessionMachine, seen: list) -> StopGrace:
    class Terminals:
        def end_turn_terminals(self, turn_id: str, note: str) -> int:
            seen.append(("terminals", turn_id))
            return 0

    return StopGrace(machine, lambda step: seen.extend(step.envelopes + step.ignored), Terminals(), 0.05)


async def test_the_grace_runs_out_answer_returns_none_and_the_late_answer_reaches_the_machine():
    machine, seen = stopped_turn(), []
    stop_grace = grace(machine, seen)
    answer: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
    waiting = asyncio.create_task(stop_grace.answer("acp-a", 2, answer))
    await asyncio.sleep(0)  # one turn of the loop: the task starts
    stop_grace.stopped("acp-a", "m1")
    assert await asyncio.wait_for(waiting, 2) is None
    assert [e.unconfirmed for e in seen if isinstance(e, PromptSettledEnvelope)] == [True]
    answer.set_result({"stopReason": "end_turn"})
    await asyncio.sleep(0.01)  # the late answer is handled
    assert any(getattr(i, "code", "") == "prompt-late-answer" for i in seen)


async def test_an_answer_within_the_grace_is_returned_and_nothing_is_settled():
    machine, seen = stopped_turn(), []
    stop_grace = grace(machine, seen)
    stop_grace.grace_s = 5.0

    async def agent_answers() -> dict:
        await asyncio.sleep(0.05)  # the agent's answer comes a moment later
        return {"stopReason": "cancelled"}

    waiting = asyncio.create_task(stop_grace.answer("acp-a", 2, agent_answers()))
    await asyncio.sleep(0)  # one turn of the loop: the task starts
    stop_grace.stopped("acp-a", "m1")
    assert await waiting == {"stopReason": "cancelled"}
    assert not [e for e in seen if isinstance(e, PromptSettledEnvelope)] and machine.live


async def test_abandoning_the_wait_cancels_the_request():
    machine, seen = stopped_turn(), []
    request: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
    waiting = asyncio.create_task(grace(machine, seen).answer("acp-a", 2, request))
    await asyncio.sleep(0)  # one turn of the loop: the task starts
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert request.cancelled()


async def test_the_turn_s_terminals_end_after_the_grace_once_and_quit_cancels_what_is_still_timed(
    monkeypatch,
):
    monkeypatch.setattr("app.main.sessions.stop_grace.STOP_GRACE_S", 0.01)
    machine, seen = stopped_turn(), []
    stop_grace = grace(machine, seen)
    stop_grace.stopped("acp-a", "m1")
    stop_grace.stopped("acp-a", "m1")  # Esc then Stop: one clean-up
    await asyncio.sleep(0.05)  # the clean-up runs
    assert seen.count(("terminals", "m1")) == 1
    stop_grace.stopped("acp-a", "m2")
    stop_grace.close()
    await asyncio.sleep(0.05)  # time for what must not happen to show: an absence has no event
    assert ("terminals", "m2") not in seen


def test_the_footer_says_the_agent_did_not_confirm():
    h = Harness()
    h.optimistic("user:1", "q")
    settled = PromptSettledEnvelope(KEY, GEN, "user:1", "cancelled", None, 6.0, True, unconfirmed=True)
    h(agent("partial"), settled)
    footer = footer_entry(h.timeline, h.timeline.grouping.groups[1], now=0.0)
    assert footer["timing"] == "Stopped after 6 s (the agent did not confirm)"
