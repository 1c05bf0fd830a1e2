"""The agent's questions in `clawqt replay`: a recorded session with questions (a form answered, one
declined, a hostile one refused, a link opened and completed) replays through the same routing and
reducer to the live timeline; a trace that ends while a question waits shows it waiting, unanswerable
(replay answers nothing)."""

from __future__ import annotations

import asyncio
import json
import re

from app.main.acp.recorder import TraceRecorder
from app.renderer.timeline.pipeline import HeadlessPipeline
from app.renderer.timeline.serialize import timeline_json
from app.replay import replay_json
from tests.conftest import scripted_agent_argv


def _normalized(session: dict) -> str:
    """Question ids come from main-side tokens (the trace has the wire's): compared without them."""
    kept = {k: v for k, v in session.items() if k not in ("diagnostics", "agentRequests")}
    return re.sub(r'elicitation:[^"]+"', 'elicitation:X"', json.dumps(kept, sort_keys=True))


async def _answer(service, envelopes, answers: list[tuple[str, dict]]) -> None:
    """Answer each question as it comes, in order."""
    for index, (action, values) in enumerate(answers):
        asked = (await envelopes.wait_for(lambda log, n=index: log.of_kind("question_asked")[n:]))[0]
        if not asked.refused:
            assert service.answer_question(asked.request_id, action, values) == {}


async def test_a_recorded_session_with_questions_replays_to_the_live_timeline(make_service, tmp_path):
    trace = tmp_path / "questions.jsonl"
    recorder = TraceRecorder(trace)
    service, envelopes = make_service(scripted_agent_argv(), recorder=recorder)
    pipeline = HeadlessPipeline(service)
    answers = [("accept", {"colour": "teal"}), ("decline", {}), ("refused", {}), ("accept", {})]
    answering = asyncio.create_task(_answer(service, envelopes, answers))
    try:
        timeline = await pipeline.new_session()
        for prompt in ("ask-short", "ask-short", "ask-deep", "ask-link"):
            await pipeline.prompt(timeline.session_key, prompt)
        await envelopes.wait_for(
            lambda log: [e for e in log.of_kind("question_ended") if e.reason == "completed"]
        )
        await answering
    finally:
        await service.shutdown()
        recorder.close()
    live = timeline_json(pipeline.store.timelines[timeline.session_key], 0)
    [replayed] = replay_json(trace)["sessions"]
    assert _normalized(replayed) == _normalized(live)
    questions = [i["question"] for g in live["groups"] for i in g.get("items", []) if i["kind"] == "question"]
    assert [(q["status"], q["reason"]) for q in questions] == [
        ("accept", "answered"), ("decline", "declined"), ("decline", "refused"), ("accept", "answered"),
    ]  # fmt: skip
    assert questions[0]["answers"] == [{"label": "Colour", "value": "teal"}]
    assert questions[2]["refused"].startswith("“outer” is a kind of field") and questions[3]["completed"]


async def test_a_trace_that_ends_while_a_question_waits_replays_it_waiting(make_service, tmp_path):
    trace = tmp_path / "waiting.jsonl"
    recorder = TraceRecorder(trace)
    service, envelopes = make_service(scripted_agent_argv(), recorder=recorder)
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "ask-short"))
    asked = (await envelopes.wait_for(lambda log: log.of_kind("question_asked")))[0]
    recorder.close()  # the recording ends here, the question unanswered
    service.answer_question(asked.request_id, "cancel", {})
    await running
    await service.shutdown()
    [replayed] = replay_json(trace)["sessions"]
    [question] = [
        i["question"] for g in replayed["groups"] for i in g.get("items", []) if i["kind"] == "question"
    ]
    assert question["status"] == "waiting" and question["fields"][0]["label"] == "Colour"
