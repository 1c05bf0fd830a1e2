"""OpenClaw's image tool in the Gateway transcript, with the record shapes the real gateway writes
(captured from tests/e2e/test_openclaw_image_generation.py): a call through Tool Search, a background
start, the undisplayed completion turn whose reply delivers the files; what is credited to which turn,
what is left out, and the main side reading again until a started generation delivered."""

from __future__ import annotations

import asyncio
import json

from app.contract.envelopes import TranscriptSupplementEnvelope
from app.main.openclaw.supplement import OpenClawSupplements
from app.main.openclaw.transcript import transcript_turns

PICTURE = "/state/media/tool-image-generation/image-1---7eb7.png"
OUTGOING = "/api/chat/media/outgoing/agent%3Amain%3Ak/9210/full"


def user(ts: int, text: str, **extra) -> dict:
    return {"role": "user", "timestamp": ts, "content": [{"type": "text", "text": text}], **extra}


def search_call(call_id: str, target: str = "openclaw:core:image_generate") -> dict:
    block = {"type": "toolCall", "id": call_id, "name": "tool_call", "arguments": {"id": target, "args": {}}}
    return {"role": "assistant", "timestamp": 2_000, "content": [block], "stopReason": "toolUse"}


def search_result(call_id: str, details: dict, tool: str = "image_generate") -> dict:
    wrapped = {"tool": {"id": f"openclaw:core:{tool}", "name": tool}, "result": {"details": details}}
    text = json.dumps(wrapped, indent=2)
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "tool_call", "timestamp": 2_500,
            "content": [{"type": "text", "text": text}]}  # fmt: skip


def started(task: str) -> dict:
    return {"async": True, "status": "started", "taskId": task, "runId": f"tool:image_generate:{task}"}


def completion(ts: int, task: str, delivered: list[str], **provenance) -> list[dict]:
    """The turn OpenClaw runs when a background generation finished: an undisplayed internal user
    record and a reply that delivers the files."""
    source = {
        "kind": "inter_session",
        "sourceSessionKey": f"image_generate:{task}",
        "sourceTool": "image_generate",
    }
    text = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\n[Internal task completion event]"
    record = user(ts, text, display=False, provenance={**source, **provenance})
    reply = {
        "role": "assistant", "timestamp": ts + 500, "content": [{"type": "text", "text": "Here it is."}],
        "openclawDelivery": {"mediaUrls": delivered},
        "openclawDisplayContent": [{"type": "image", "url": OUTGOING, "alt": "image-1.png"}],
    }  # fmt: skip
    return [record, reply]


def drawing_turn(task: str = "t1") -> list[dict]:
    return [
        user(1_000, "[Working directory: /w]\n\nplease draw a red square"),
        search_call("call_draw_2"),
        search_result("call_draw_2", started(task)),
        {
            "role": "assistant",
            "timestamp": 3_000,
            "content": [{"type": "text", "text": "I started drawing it."}],
        },
    ]


def test_a_background_generations_files_are_the_images_of_the_turn_that_started_it():
    messages = [*drawing_turn(), *completion(5_000, "t1", [PICTURE]), user(9_000, "thanks")]
    drawn, thanks = transcript_turns(messages)  # the completion turn is not a turn of the timeline
    assert drawn.user_text == "please draw a red square"
    assert drawn.images == (PICTURE,) and drawn.media == () and drawn.waiting == ()
    assert drawn.duration_s == 2.0  # the turn's own records, not the completion's
    assert thanks.user_text == "thanks" and thanks.images == ()


def test_a_started_generation_without_its_completion_is_waiting():
    (drawn,) = transcript_turns(drawing_turn())
    assert drawn.waiting == ("t1",) and drawn.images == ()


def test_a_completion_recorded_before_its_reply_still_waits():
    """The Gateway writes the completion's user record first and its reply (with the files) after: read
    in between, the generation still waits (the real gateway under load: the picture was lost)."""
    record, _reply = completion(5_000, "t1", [PICTURE])
    (drawn,) = transcript_turns([*drawing_turn(), record])
    assert drawn.waiting == ("t1",) and drawn.images == ()


def test_the_live_read_waits_for_a_completions_reply():
    async def scenario() -> None:
        record, reply = completion(5_000, "t1", [PICTURE])
        transcript = Transcript([*drawing_turn(), record])
        supplements, emitted, tasks = _supplements(transcript)
        _asked_to_draw(supplements)
        await asyncio.sleep(0.1)  # a few of its 10 ms polls, each finding the completion without a reply
        assert emitted == [] and not tasks[0].done()
        transcript.messages.append(reply)
        await asyncio.wait_for(tasks[0], 5)
        (envelope,) = emitted
        assert envelope.turns[0].images == (PICTURE,)

    asyncio.run(scenario())


def test_completions_are_credited_only_to_the_turn_that_started_their_task():
    messages = [
        *drawing_turn("t1"),
        *completion(5_000, "t9", ["/w/other.png"]),  # a task no turn of this session started
        user(
            6_000,
            "I typed this",
            provenance={"sourceTool": "image_generate", "sourceSessionKey": "image_generate:t1"},
        ),
    ]
    drawn, typed = transcript_turns(messages)
    assert drawn.images == () and drawn.waiting == ("t1",)  # a displayed record completes nothing
    assert typed.user_text == "I typed this" and typed.images == ()
    another_tool = [
        user(1_000, "search"),
        search_call("c1", "openclaw:core:read"),
        search_result("c1", started("t2")),
    ]
    assert transcript_turns(another_tool)[0].waiting == ()  # not the image tool's call


def test_a_foreground_result_through_tool_search_is_the_turns_image():
    details = {"paths": ["/w/fox.png"], "media": {"mediaUrls": ["/w/fox.png"]}}
    messages = [user(1_000, "draw a fox"), search_call("c1"), search_result("c1", details)]
    assert transcript_turns(messages)[0].images == ("/w/fox.png",)
    forged = [user(1_000, "draw a fox"), search_call("c1"), search_result("c1", details, tool="read")]
    assert transcript_turns(forged)[0].images == ()


class Transcript:
    """A Gateway reader answering `sessions.get` with a transcript the test moves on."""

    def __init__(self, messages: list[dict]) -> None:
        self.messages = messages
        self.calls = 0
        self.endpoint = None

    async def call(self, method: str, params: dict) -> dict:
        self.calls += 1
        return {"messages": list(self.messages)}


def _supplements(reader: Transcript) -> tuple[OpenClawSupplements, list, list]:
    """Supplements reading `reader` with short pauses; what they emit and the tasks they spawn."""
    emitted: list = []
    tasks: list = []
    supplements = OpenClawSupplements(
        reader, emitted.append, lambda work: tasks.append(asyncio.ensure_future(work))
    )  # type: ignore[arg-type]
    supplements.retry_s = supplements.poll_s = 0.01
    supplements.live_wait_s = 1.0
    return supplements, emitted, tasks


def _asked_to_draw(supplements: OpenClawSupplements) -> None:
    supplements.after_turn("k", 1, "user:1", [{"type": "text", "text": "please draw a red square"}])


def test_the_live_read_waits_for_a_started_generation_and_gives_its_files_to_the_turn():
    async def scenario() -> None:
        transcript = Transcript(drawing_turn())
        supplements, emitted, tasks = _supplements(transcript)
        _asked_to_draw(supplements)
        await asyncio.sleep(0.1)  # a few of its 10 ms polls
        assert emitted == [] and transcript.calls >= 2  # read again while the generation runs
        transcript.messages += completion(5_000, "t1", [PICTURE])
        await asyncio.wait_for(tasks[0], 5)
        (envelope,) = emitted
        assert isinstance(envelope, TranscriptSupplementEnvelope) and envelope.client_message_id == "user:1"
        assert envelope.turns[0].images == (PICTURE,)

    asyncio.run(scenario())


class BusyGateway(Transcript):
    """A reader whose first `fail` reads fail (a slow answer) and whose transcript gains the turn only
    from read number `turn_from` on (a busy Gateway recording it late)."""

    def __init__(self, messages: list[dict], fail: int = 0, turn_from: int = 1) -> None:
        super().__init__(messages)
        self.fail, self.turn_from = fail, turn_from

    async def call(self, method: str, params: dict) -> dict | None:
        self.calls += 1
        if self.calls <= self.fail:
            return None
        return {"messages": list(self.messages) if self.calls >= self.turn_from else []}


def _live_read(reader: Transcript) -> list:
    """The live read after one prompt, run to its end with short pauses; what it emitted."""

    async def scenario() -> list:
        supplements, emitted, tasks = _supplements(reader)
        _asked_to_draw(supplements)
        await asyncio.wait_for(tasks[0], 5)
        return emitted

    return asyncio.run(scenario())


def test_the_live_read_waits_for_a_turn_the_gateway_records_late():
    done = drawing_turn() + completion(5_000, "t1", [PICTURE])
    reader = BusyGateway(done, turn_from=4)  # three reads find no turn yet
    (envelope,) = _live_read(reader)
    assert envelope.turns[0].images == (PICTURE,) and reader.calls == 4


def test_a_failed_read_does_not_end_the_live_read_or_the_wait_for_a_generation():
    done = drawing_turn() + completion(5_000, "t1", [PICTURE])
    (envelope,) = _live_read(BusyGateway(done, fail=2))  # the first two answers were too slow
    assert envelope.turns[0].images == (PICTURE,)

    async def generation_then_busy() -> list:
        reader = BusyGateway(drawing_turn())
        supplements, emitted, tasks = _supplements(reader)
        _asked_to_draw(supplements)
        await asyncio.sleep(0.05)  # a few of its polls while the generation runs
        reader.fail = reader.calls + 3  # then three slow answers in a row
        reader.messages += completion(5_000, "t1", [PICTURE])
        await asyncio.wait_for(tasks[0], 5)
        return emitted

    (envelope,) = asyncio.run(generation_then_busy())
    assert envelope.turns[0].images == (PICTURE,)


def test_a_gateway_that_stops_answering_ends_the_live_read_with_nothing():
    reader = BusyGateway(drawing_turn(), fail=10_000)
    assert _live_read(reader) == []
    assert reader.calls < 20  # bounded: it gave up
