"""ClawQt against fast-agent (PyPI `fast-agent-mcp`), a real ACP agent nobody here wrote, with its
`passthrough` model: it echoes the prompt, and calls a real tool when the prompt reads
`***CALL_TOOL <tool> <json args>`, so client terminals (terminal/*) and file requests (fs/*) run without
an LLM. `--shell` gives it the `execute` tool, which it runs in ClawQt's terminals.

Everything goes through ChatService and the renderer's headless pipeline (the timeline a window would
show). fast-agent is installed once into `<repo>/.cache/fast-agent/` with a Python >= 3.12 the machine
has (tests/fast_agent_support.py); when there is none, or the install fails, every test here FAILS
with instructions instead of skipping.

What fast-agent sends that differs from the protocol's happy path (each pinned below):
- `execute` asks permission BEFORE its tool call exists, for `toolCallId: "pending"`; a rejected call
  then appears as a tool call that fails at once.
- it never embeds its client terminal in the tool card (no `terminal` content): the card gets the
  output as text with "[Exit code: N]" once the command ended.
- before a write it reads the file (to show a diff), also when the file does not exist yet.
- after Stop it answers `cancelled` but neither kills nor releases its terminal (ClawQt kills it
  after a grace), and it keeps waiting for that terminal's exit.
- a reloaded session replays only messages: tool calls come back as text, not as tool cards.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from app.contract.errors import AgentRequestFailed
from app.renderer.timeline.parts import DiffPart, MarkdownPart
from tests.fast_agent_support import FAST_AGENT_VERSION, ensure_fast_agent
from tests.integration.real_agents.fast_agent_harness import (
    call_tool,
    permissions_of,
    run_turn,
    texts_of,
    tools_of,
)
from tests.real_agents_support import RealAgentSetupError

pytestmark = pytest.mark.real_agents


def test_without_a_python_3_12_the_install_fails_saying_so(tmp_path, monkeypatch):
    """No python3.12+ on PATH, no pyenv, and an explicit interpreter that is too old: the fixture's
    error (a test FAILURE, never a skip) says what is missing, how to get it, and what was tried."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("PYENV_ROOT", str(empty))
    monkeypatch.setenv("HOME", str(empty))
    monkeypatch.setenv(
        "CLAWQT_FAST_AGENT_PYTHON", sys.executable if sys.version_info < (3, 12) else "/nonexistent"
    )
    with pytest.raises(RealAgentSetupError) as missing:
        ensure_fast_agent(tmp_path / "cache" / "fast-agent")
    message = str(missing.value)
    assert message.startswith("No Python >= 3.12 was found on this machine")
    assert "pyenv install 3.12" in message and "CLAWQT_FAST_AGENT_PYTHON" in message
    assert "Tried: " in message and os.environ["CLAWQT_FAST_AGENT_PYTHON"] in message
    assert not (tmp_path / "cache" / "fast-agent").exists()


async def test_starts_with_its_identity_capabilities_mode_and_commands(start):
    service, envelopes, pipeline = start()
    info = await service.start()
    assert (info.name, info.version, info.protocol_version) == ("fast-agent-acp", FAST_AGENT_VERSION, 1)
    assert info.supports("loadSession")
    assert info.supports("sessionCapabilities", "list") and info.supports("sessionCapabilities", "resume")
    assert not info.supports("sessionCapabilities", "close")
    # an agent-handled sign-in method is offered although nothing needs it with the passthrough model
    assert [m["id"] for m in info.auth_methods] == ["fast-agent-ai-secrets"]
    assert envelopes.of_kind("agent_state")[-1].state == "ready"

    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert service.active_session_key == key  # a generic agent: the key is fast-agent's session id
    commands = await envelopes.wait_for(lambda _: [c["name"] for c in timeline.meta.commands])
    assert {"tools", "status", "model"} <= set(commands)
    # it lists a sign-in method, but the chat opened: no sign-in is asked for
    assert envelopes.of_kind("agent_state")[-1].state == "ready"

    # a slash command runs inside the agent, without the model. /tools shows that ClawQt's `fs`
    # capability made fast-agent read and write files through the client (ACP Filesystem), not
    # through its own local tools (without it: "_(Shell)_", and an extra edit_file)
    result, _ = await run_turn(service, envelopes, pipeline, key, "/tools")
    assert result.stop_reason == "end_turn"
    listing = envelopes.text(key)
    assert "**read\\_text\\_file** _(ACP Filesystem)_" in listing, listing
    assert "**write\\_text\\_file** _(ACP Filesystem)_" in listing, listing
    assert "**execute**" in listing and "edit\\_file" not in listing, listing


async def test_its_one_mode_is_offered_and_an_unknown_mode_is_refused_in_its_own_words(start):
    service, _, _ = start()
    opened = await service.new_session()
    assert opened.created
    assert opened.modes is not None and opened.modes["currentModeId"] == "agent"
    assert [m["id"] for m in opened.modes["availableModes"]] == ["agent"]
    await service.set_mode(opened.session_key, "agent")
    # -32602 "Invalid params" with the reason in its data: the reason is what the user reads
    with pytest.raises(AgentRequestFailed) as refused:
        await service.set_mode(opened.session_key, "no-such-mode")
    assert str(refused.value).startswith("Invalid mode id")
    assert "-32602" in str(refused.value.details)


async def test_prompt_is_answered_by_an_update_before_the_turn_settles(start):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    result, _ = await run_turn(service, envelopes, pipeline, key, "hello from clawqt")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(key) == "hello from clawqt"  # passthrough: the prompt comes back
    kinds = [e.kind for e in envelopes.items if e.kind in ("session_update", "prompt_settled")]
    assert kinds.index("prompt_settled") > max(
        i
        for i, e in enumerate(e for e in envelopes.items if e.kind in ("session_update", "prompt_settled"))
        if e.kind == "session_update" and e.notification["update"]["sessionUpdate"] == "agent_message_chunk"
    )
    # its title comes as a session_info_update from the first prompt
    assert timeline.meta.title == "hello from clawqt"
    await run_turn(service, envelopes, pipeline, key, "second")
    assert texts_of(timeline, "user") == ["hello from clawqt", "second"]
    assert texts_of(timeline, "assistant") == ["hello from clawqt", "second"]


async def test_execute_asks_permission_first_and_runs_in_a_client_terminal(start, workspace):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key

    # rejected: the permission names a tool call that does not exist yet ("pending")...
    result, (request,) = await run_turn(
        service, envelopes, pipeline, key, call_tool("execute", command="echo never"), ("reject_once",)
    )
    assert result.stop_reason == "end_turn"
    assert request.tool_call["toolCallId"] == "pending"
    assert (request.tool_call["kind"], request.tool_call["rawInput"]) == (
        "execute",
        {"command": "echo never"},
    )
    assert {o["kind"] for o in request.options} == {
        "allow_once",
        "allow_always",
        "reject_once",
        "reject_always",
    }
    # ... and the tool call appears after the answer, already failed; nothing ran
    (rejected,) = tools_of(timeline)
    assert rejected.status == "failed" and rejected.tool_call_id != "pending"
    assert "declined permission" in envelopes.text(key)
    assert envelopes.of_kind("terminal_output") == [] and len(service.terminals) == 0
    (answered,) = permissions_of(timeline)
    assert (answered.status, answered.selected_option) == ("selected", "reject_once")

    # allowed: fast-agent runs `/bin/sh -lc CMD` in a ClawQt terminal, in the session's folder
    command = "pwd; printf 'one\\ntwo\\n'; exit 3"
    result, _ = await run_turn(
        service, envelopes, pipeline, key, call_tool("execute", command=command), ("allow_once",)
    )
    assert result.stop_reason == "end_turn"
    outputs = envelopes.of_kind("terminal_output")
    assert len({e.terminal_id for e in outputs}) == 1 and all(e.session_key == key for e in outputs)
    shown = "".join(e.data for e in outputs)
    assert shown.splitlines() == [str(workspace), "one", "two"]
    assert (outputs[-1].exited, outputs[-1].exit_code, outputs[-1].signal) == (True, 3, None)
    assert len(service.terminals) == 0  # released by the agent
    # the card: fast-agent does not embed the terminal; it reports the output and exit code as text
    ran = tools_of(timeline)[-1]
    assert (ran.tool_kind, ran.status, ran.terminal_ids) == ("execute", "failed", ())
    card_text = "".join(p.text for p in ran.output_parts if isinstance(p, MarkdownPart))
    assert "one" in card_text and "[Exit code: 3]" in card_text


async def test_a_write_is_shown_as_a_diff_and_reverted(start, workspace):
    service, envelopes, pipeline = start()
    wire: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: wire.append((direction, json.loads(json.dumps(message)))))
    timeline = await pipeline.new_session()
    key = timeline.session_key
    notes = workspace / "notes.txt"
    notes.write_text("keep\nold\ntail\n")

    result, (request,) = await run_turn(
        service,
        envelopes,
        pipeline,
        key,
        call_tool("write_text_file", path=str(notes), content="keep\nnew\ntail\n"),
        ("allow_once",),
    )
    assert result.stop_reason == "end_turn"
    assert request.tool_call["kind"] == "edit"
    assert notes.read_text() == "keep\nnew\ntail\n"
    # the tool card shows fast-agent's own diff (it read the file before writing)
    (edit,) = tools_of(timeline)
    assert edit.status == "completed"
    diffs = [p for p in edit.output_parts if isinstance(p, DiffPart)]
    assert [(d.path, d.old_text, d.new_text) for d in diffs] == [
        (str(notes), "keep\nold\ntail\n", "keep\nnew\ntail\n")
    ]
    # ClawQt's own record of the turn's changes: a unified diff with context, and Revert
    turn = result.client_message_id
    assert [(e.session_key, e.turn_id) for e in envelopes.of_kind("file_changes")] == [(key, turn)]
    (change,) = service.files.changes(key, turn)
    assert (change.path, change.name, change.created) == (str(notes), "notes.txt", False)
    assert "-old\n+new\n" in change.diff and " keep\n" in change.diff and " tail\n" in change.diff
    service.files.revert(key, turn, str(notes))
    assert notes.read_text() == "keep\nold\ntail\n"
    assert service.files.changes(key, turn) == []

    # a new file: fast-agent reads it first anyway and is told it does not exist, then writes it
    fresh = workspace / "fresh.txt"
    result, _ = await run_turn(
        service,
        envelopes,
        pipeline,
        key,
        call_tool("write_text_file", path=str(fresh), content="hi\n"),
        ("allow_once",),
    )
    assert result.stop_reason == "end_turn" and fresh.read_text() == "hi\n"
    (read,) = [
        m["id"]
        for d, m in wire
        if d == "recv" and m.get("method") == "fs/read_text_file" and m["params"]["path"] == str(fresh)
    ]
    (answer,) = [m for d, m in wire if d == "send" and m.get("id") == read and "method" not in m]
    assert answer["error"]["code"] == -32002 and "does not exist" in answer["error"]["message"]
    (created,) = service.files.changes(key, result.client_message_id)
    assert created.created and "+hi\n" in created.diff
    service.files.revert(key, result.client_message_id, str(fresh))
    assert not fresh.exists()


async def test_reads_inside_and_a_refused_read_outside_in_words_the_agent_repeats(start, workspace, tmp_path):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    (workspace / "inside.txt").write_text("inside text\n")
    (tmp_path / "secret.txt").write_text("top secret\n")

    await run_turn(
        service,
        envelopes,
        pipeline,
        key,
        call_tool("read_text_file", path=str(workspace / "inside.txt")),
        ("allow_once",),
    )
    assert tools_of(timeline)[-1].status == "completed"
    assert envelopes.text(key) == "inside text\n"

    before = len(envelopes.text(key))
    await run_turn(
        service,
        envelopes,
        pipeline,
        key,
        call_tool("read_text_file", path=str(tmp_path / "secret.txt")),
        ("allow_once",),
    )
    reply = envelopes.text(key)[before:]
    assert "is outside the session folder" in reply  # ClawQt's reason reached the agent's model
    assert tools_of(timeline)[-1].status == "failed"
    assert "top secret" not in json.dumps([repr(e) for e in envelopes.items])
