"""ClawQt against the ACP SDKs' own example agents, run as their authors wrote them:

- the Python SDK's `examples/echo_agent.py` and `examples/agent.py`, taken at test time from the sdist of
  the `agent-client-protocol` version ClawQt runs on (the wheel has no examples) and run with this
  interpreter;
- the TypeScript SDK's example agent, `dist/examples/agent.js` of the npm `@agentclientprotocol/sdk`
  1.9.0 (the newest release that ships its examples compiled; 2.x leaves them out), run with Node.

tests/real_agents_support.py installs them into `<repo>/.cache/`; a failed install FAILS these tests with
instructions, it never skips them. Everything goes through ChatService and the renderer's headless
pipeline. The examples are small: what they cannot do (tools, terminals, files, load) is asserted as
what ClawQt does with an agent that does not offer it.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.contract.attachments import PromptAttachment
from app.contract.errors import CapabilityMissing
from app.renderer.timeline.items import MessageSegment, PermissionItem, ToolCall
from app.renderer.timeline.parts import AttachmentPart, MarkdownPart
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.real_agents_support import (
    TS_SDK_VERSION,
    InstalledAgent,
    ensure_python_sdk_examples,
    ensure_ts_sdk_example,
    installed_or_fail,
    installed_sdk_version,
)

pytestmark = pytest.mark.real_agents

log = logging.getLogger(__name__)


@pytest.fixture(scope="session")
def python_examples() -> dict[str, InstalledAgent]:
    examples = installed_or_fail("the Python ACP SDK's example agents", ensure_python_sdk_examples)
    first = next(iter(examples.values()))
    log.info("python sdk examples %s: %s", first.version, "installed" if first.installed_now else "cached")
    return examples


@pytest.fixture(scope="session")
def ts_example() -> InstalledAgent:
    agent = installed_or_fail("the TypeScript ACP SDK's example agent", ensure_ts_sdk_example)
    log.info("ts sdk example %s (%s): %s", agent.version, agent.runtime, agent.installed_now)
    return agent


@pytest.fixture
def run(make_service, workspace):
    """`run(agent)` -> (service, envelopes, pipeline, raw wire log) for an installed example agent."""

    def start(agent: InstalledAgent):
        service, envelopes = make_service(agent.argv, cwd=str(workspace))
        wire: list[tuple[str, dict]] = []
        service.observe_raw(lambda direction, message: wire.append((direction, dict(message))))
        return service, envelopes, HeadlessPipeline(service), wire

    return start


def _sent_methods(wire) -> list[str]:
    return [m["method"] for d, m in wire if d == "send" and "method" in m]


def _texts(timeline, role: str) -> list[str]:
    return [
        "".join(p.text for p in item.parts if isinstance(p, MarkdownPart))
        for item in (timeline.items[i] for i in timeline.order)
        if isinstance(item, MessageSegment) and item.role == role
    ]


def _tools(timeline) -> dict[str, ToolCall]:
    return {item.tool_call_id: item for item in timeline.items.values() if isinstance(item, ToolCall)}


async def _cannot_load_or_list(service, key: str, wire) -> None:
    """No `loadSession` / `sessionCapabilities.list`: ClawQt refuses before sending anything."""
    with pytest.raises(CapabilityMissing, match="does not support loading sessions"):
        await service.load_session(key)
    with pytest.raises(CapabilityMissing, match="does not support listing sessions"):
        await service.list_sessions()
    assert not {"session/load", "session/list"} & set(_sent_methods(wire))


# --- the Python SDK's echo_agent.py ------------------------------------------------------------------
async def test_python_echo_agent_is_named_after_its_command_and_its_meta_is_kept(run, python_examples):
    service, envelopes, pipeline, wire = run(python_examples["echo_agent.py"])
    info = await service.start()
    # no agentInfo, no agentCapabilities: named after the script, and nothing optional is offered
    assert (info.name, info.version, info.protocol_version, info.capabilities) == ("echo_agent", None, 1, {})
    assert service.agent_label == "echo_agent"
    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert len(key) == 32 and timeline.meta.commands == [] and timeline.meta.mode is None

    result = await pipeline.prompt(key, "hello echo")
    assert result.stop_reason == "end_turn"
    assert _texts(timeline, "assistant") == ["hello echo"]
    # `_meta` at three levels (params, update, content block) reaches the renderer untouched
    (chunk,) = envelopes.updates("agent_message_chunk")
    assert chunk.notification["_meta"] == {"source": "echo_agent"}
    assert chunk.notification["update"]["_meta"] == {"echo": True}
    assert chunk.notification["update"]["content"]["_meta"] == {"echo": True}

    # it answers at once: there is never a live turn to stop, and Stop then sends nothing
    assert await service.cancel(key) is False
    assert "session/cancel" not in _sent_methods(wire)
    await _cannot_load_or_list(service, key, wire)
    assert envelopes.of_kind("permission_request") == [] and envelopes.of_kind("terminal_output") == []


# --- the Python SDK's agent.py -----------------------------------------------------------------------
async def test_python_example_agent_streams_client_sent_and_echoes_attachments_back(
    run, python_examples, workspace
):
    agent = python_examples["agent.py"]
    assert agent.version == installed_sdk_version()  # the examples of the SDK ClawQt itself runs on
    service, envelopes, pipeline, wire = run(agent)
    info = await service.start()
    assert (info.name, info.title, info.version) == ("example-agent", "Example Agent", "0.1.0")
    assert info.capabilities == {}  # it implements session/load, but does not announce it
    opened = await service.new_session()
    assert (opened.session_key, opened.modes) == ("0", None)  # sequential ids, per agent process
    timeline = pipeline.store.load(opened)[0]
    key = opened.session_key

    result = await pipeline.prompt(key, "hello example")
    assert result.stop_reason == "end_turn"
    chunks = [e.notification["update"]["content"]["text"] for e in envelopes.updates("agent_message_chunk")]
    assert chunks == ["Client sent:", "hello example"]  # two updates, one reply
    assert _texts(timeline, "assistant") == ["Client sent:hello example"]

    # every prompt block comes back as agent content: an attached file returns as a resource_link
    # in the AGENT's message, which the renderer shows as an attachment card of that message
    notes = workspace / "notes.md"
    notes.write_text("# notes\n")
    result = await service.prompt(key, "with a file", attachments=(PromptAttachment(str(notes)),))
    assert result.stop_reason == "end_turn"
    (sent,) = [m for d, m in wire if d == "send" and m.get("method") == "session/prompt"][-1:]
    link = sent["params"]["prompt"][1]
    assert (link["type"], link["uri"], link["name"]) == ("resource_link", notes.as_uri(), "notes.md")
    echoed = [e.notification["update"]["content"] for e in envelopes.updates("agent_message_chunk")][-2:]
    assert echoed[0]["text"] == "with a file" and echoed[1] == link
    reply = timeline.items[timeline.order[-1]]
    assert isinstance(reply, MessageSegment) and reply.role == "assistant"
    cards = [p.attachment for p in reply.parts if isinstance(p, AttachmentPart)]
    assert [(c.name, c.uri, c.mime_type) for c in cards] == [("notes.md", notes.as_uri(), link["mimeType"])]

    # no modes offered; a mode change is still answered (it accepts any id); no load, no list
    await service.set_mode(key, "anything")
    await _cannot_load_or_list(service, key, wire)
    assert envelopes.of_kind("permission_request") == []
    # the agent changed no file; the one announcement is the user's notes.md, written between turns
    (files,) = envelopes.of_kind("file_changes")
    assert service.files.changes(key, files.turn_id) == []
    assert [view.name for view in service.files.outside(key, files.turn_id)] == ["notes.md"]


# --- the TypeScript SDK's example agent ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("option_id", "closing"),
    [
        ("allow", "Perfect! I've successfully updated the configuration."),
        ("reject", "I understand you prefer not to make that change."),
    ],
    ids=["allow", "reject"],
)
async def test_ts_example_streams_tools_and_asks_permission_for_its_edit(run, ts_example, option_id, closing):
    assert ts_example.version == TS_SDK_VERSION
    service, envelopes, pipeline, wire = run(ts_example)
    info = await service.start()
    # no agentInfo (the builder's name is not sent): named after the script, agent.js
    assert (info.name, info.version, info.capabilities) == ("agent", None, {"loadSession": False})
    timeline = await pipeline.new_session()
    key = timeline.session_key

    turn = asyncio.create_task(pipeline.prompt(key, "please change the config"))
    await envelopes.wait_for(lambda log: log.updates("agent_message_chunk"))
    assert not turn.done()  # the reply streams while the turn runs (the agent pauses 1 s per step)
    (request,) = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    # its own option ids and names, and a tool call whose locations differ from the card's
    assert [(o["optionId"], o["kind"], o["name"]) for o in request.options] == [
        ("allow", "allow_once", "Allow this change"),
        ("reject", "reject_once", "Skip this change"),
    ]
    assert request.tool_call["toolCallId"] == "call_2"
    assert request.tool_call["locations"] == [{"path": "/home/user/project/config.json"}]
    tools = _tools(timeline)
    assert tools["call_1"].status == "completed" and tools["call_1"].tool_kind == "read"
    assert (tools["call_2"].tool_kind, tools["call_2"].status) == ("edit", "pending")
    assert tools["call_2"].locations == [{"path": "/project/config.json"}]
    assert service.answer_permission(request.request_id, option_id)
    result = await asyncio.wait_for(turn, 10)

    assert result.stop_reason == "end_turn"
    assert _texts(timeline, "assistant")[-1].strip().startswith(closing)
    (answered,) = [timeline.items[i] for i in timeline.order if isinstance(timeline.items[i], PermissionItem)]
    assert (answered.status, answered.selected_option) == ("selected", option_id)
    updates_2 = [
        e.notification["update"].get("status")
        for e in envelopes.updates("tool_call_update")
        if e.notification["update"]["toolCallId"] == "call_2"
    ]
    # allowed: completed; rejected: the example sends nothing more for the tool call
    assert updates_2 == (["completed"] if option_id == "allow" else [])
    # its edit is simulated: no fs/* request, so no file change, no terminal
    assert not [m for d, m in wire if d == "recv" and m.get("method", "").startswith(("fs/", "terminal/"))]
    assert (
        envelopes.of_kind("file_changes") == [] and service.files.changes(key, result.client_message_id) == []
    )
    await _cannot_load_or_list(service, key, wire)


async def test_ts_example_stops_mid_stream_with_cancelled(run, ts_example):
    service, envelopes, pipeline, _ = run(ts_example)
    timeline = await pipeline.new_session()
    key = timeline.session_key
    turn = asyncio.create_task(pipeline.prompt(key, "go"))
    await envelopes.wait_for(lambda log: log.updates("agent_message_chunk"))
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(turn, 30)
    assert result.stop_reason == "cancelled"  # at its next 1 s step (not cancelled: a full turn)
    assert _texts(timeline, "assistant") == [
        "I'll help you with that. Let me start by reading some files to understand the current situation."
    ]  # the partial reply stays
    await asyncio.sleep(1.2)  # past its next 1 s step: an absence has no event to wait for
    assert len(envelopes.updates("agent_message_chunk")) == 1  # and nothing comes in after the Stop


async def test_ts_example_stopped_during_its_permission_answers_end_turn(run, ts_example):
    """The example returns early when its permission is cancelled and answers `end_turn`, not the
    `cancelled` the protocol asks for: ClawQt still marks the open tool call cancelled (Stop was sent)."""
    service, envelopes, pipeline, _ = run(ts_example)
    timeline = await pipeline.new_session()
    key = timeline.session_key
    turn = asyncio.create_task(pipeline.prompt(key, "go"))
    (request,) = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(turn, 5)

    assert result.stop_reason == "end_turn"
    resolved = envelopes.of_kind("permission_resolved")
    assert [(e.request_id, e.outcome, e.reason) for e in resolved] == [
        (request.request_id, "cancelled", "cancelled")
    ]
    (cancelled,) = envelopes.of_kind("tool_calls_cancelled")
    assert cancelled.tool_call_ids == ("call_2",)
    assert _tools(timeline)["call_2"].status == "cancelled"
    assert service.answer_permission(request.request_id, "allow") is False
    settled = envelopes.of_kind("prompt_settled")[-1]
    assert settled.stopped and timeline.timings[settled.client_message_id].stopped  # its footer: "Stopped"
