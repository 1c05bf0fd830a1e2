"""The agent's questions (ACP `elicitation/create`) through the chat service, with the scripted agent as
a real subprocess: a form answered only once every field passes (the agent gets typed values), declined,
cancelled by Stop; hostile forms refused in words (the agent gets invalid params, the card says why); a
link whose host is shown as the browser resolves it, completed by the agent; an agent that dies or
withdraws while its question waits: the card ends, nothing hangs."""

from __future__ import annotations

import asyncio
import json

from tests.conftest import scripted_agent_argv


def _answered(text: str) -> dict:
    return json.loads(text.split("answered: ", 1)[1])


async def _asked(envelopes, count: int = 1):
    """The `count`th question asked, once it was."""
    return (await envelopes.wait_for(lambda log: log.of_kind("question_asked")[count - 1 :]))[0]


async def test_a_form_goes_only_once_every_field_passes_and_the_agent_gets_typed_values(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "ask-form"))
    asked = await _asked(envelopes)
    form = asked.form
    assert asked.session_key == key and form.title == "Deployment details"
    assert form.description == "Before I deploy, a few details."
    kinds = {f.name: f.kind for f in form.fields}
    assert kinds == {
        "name": "text", "email": "text", "ticket": "text", "day": "text", "replicas": "integer",
        "budget": "number", "notify": "boolean", "region": "choice", "tier": "choice", "checks": "choices",
    }  # fmt: skip
    questions = service.io.questions
    wrong = {
        "name": "ab",
        "email": "nobody",
        "ticket": "ops 12",
        "replicas": "12",
        "region": "mars",
        "checks": [],
    }
    problems = questions.answer(asked.request_id, "accept", wrong)
    assert set(problems) == {"name", "email", "ticket", "replicas", "region", "checks"}
    await asyncio.sleep(0.2)  # an absence has no event: nothing went to the agent
    assert not running.done() and not envelopes.of_kind("question_ended")
    good = {
        "name": "clawqt", "email": "ops@example.com", "ticket": "OPS-12", "day": "2026-12-05",
        "replicas": "3", "budget": "2.5", "notify": False, "region": "us-east", "tier": "m",
        "checks": ["lint", "tests"], "stray": "not a field",
    }  # fmt: skip
    assert questions.answer(asked.request_id, "accept", good) == {}
    assert (await running).stop_reason == "end_turn"
    sent = _answered(envelopes.text(key))
    assert sent == {
        "action": "accept",
        "content": {
            "name": "clawqt", "email": "ops@example.com", "ticket": "OPS-12", "day": "2026-12-05",
            "replicas": 3, "budget": 2.5, "notify": False, "region": "us-east", "tier": "m",
            "checks": ["lint", "tests"],
        },
    }  # fmt: skip
    [ended] = envelopes.of_kind("question_ended")
    assert ended.reason == "answered" and ("Tier", "Medium") in ended.answers
    assert ("Checks to run", "Lint, Tests") in ended.answers and ("Notify the team", "No") in ended.answers
    assert questions.answer(asked.request_id, "accept", good) == {
        "": "This question was already answered or withdrawn."
    }


async def test_a_declined_question_and_one_stop_cancels(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "ask-short"))
    asked = await _asked(envelopes)
    assert service.io.questions.answer(asked.request_id, "decline", {}) == {}
    await running
    assert _answered(envelopes.text(key)) == {"action": "decline"}
    running = asyncio.create_task(service.prompt(key, "ask-short"))
    await _asked(envelopes, 2)
    assert service.pending_permissions == 1 and not service.idle  # a question waits for the user too
    await service.cancel(key)
    await running
    assert envelopes.of_kind("question_ended")[-1].reason == "cancelled"
    assert '"action": "cancel"' in envelopes.text(key)


async def test_hostile_forms_are_refused_in_words_and_the_agent_is_told_why(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    key = (await service.new_session()).session_key
    await service.prompt(key, "ask-deep")
    await service.prompt(key, "ask-many")
    text = envelopes.text(key)
    assert "refused: -32602 “outer” is a kind of field a form cannot hold (object)." in text
    assert "refused: -32602 “Pick” offers 10,000 choices; ClawQt shows at most 1,000." in text
    deep, many = envelopes.of_kind("question_asked")
    assert deep.form is None and "cannot hold" in deep.refused and "10,000" in many.refused
    assert [e.reason for e in envelopes.of_kind("question_ended")] == ["refused", "refused"]


async def test_a_link_shows_the_host_the_browser_reaches_and_ends_when_the_agent_says_done(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "ask-link https://\u0430pple.com/login"))
    asked = await _asked(envelopes)
    assert asked.host == "xn--pple-43d.com" and "mixing alphabets (Cyrillic, Latin)" in asked.host_warning
    assert service.io.questions.answer(asked.request_id, "accept", {}) == {}
    await running
    assert _answered(envelopes.text(key)) == {"action": "accept"}
    ended = await envelopes.wait_for(
        lambda log: [e for e in log.of_kind("question_ended") if e.reason == "completed"]
    )
    assert ended[0].request_id == asked.request_id
    await service.prompt(key, "ask-link javascript:alert(1)")
    assert (
        "refused: The agent asked to open a link that is not a web address (javascript)."
        in envelopes.text(key)
    )


async def test_a_question_of_an_agent_that_died_or_withdrew_ends_its_card(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    key = (await service.new_session()).session_key
    await service.prompt(key, "ask-withdrawn")
    assert "withdrawn: -32800" in envelopes.text(key)
    assert envelopes.of_kind("question_ended")[-1].reason == "agent-withdrew"
    running = asyncio.create_task(service.prompt(key, "ask-then-die"))
    asked = await _asked(envelopes, 2)
    result = await asyncio.gather(running, return_exceptions=True)
    assert isinstance(result[0], Exception)  # the turn failed with the agent
    assert envelopes.of_kind("question_ended")[-1].reason == "agent-exited"
    problems = service.io.questions.answer(asked.request_id, "accept", {"why": "late"})
    assert problems == {"": "This question was already answered or withdrawn."}  # said, not lost in a hang
