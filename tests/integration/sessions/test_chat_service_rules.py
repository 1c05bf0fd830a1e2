"""The main-side rules of chat-timeline.md ("Main side") for starting, sessions, loads and prompts,
each pinned by a test named after it, run against the scripted agent as a real subprocess over stdio
(test_chat_service_turns.py: switching chats mid-turn, permissions, cancel, capabilities)."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.contract.errors import LoadFailed, PromptRefused
from tests.conftest import scripted_agent_argv


async def test_client_capabilities_declare_fs_terminal_and_terminal_output_meta(make_service, tmp_path):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    log_text = (tmp_path / "agent-stderr.log").read_text()
    line = next(x for x in log_text.splitlines() if x.startswith("client capabilities:"))
    caps = json.loads(line.split(":", 1)[1])
    assert caps["fs"] == {"readTextFile": True, "writeTextFile": True}
    assert caps["terminal"] is True
    assert caps["_meta"] == {"terminal_output": True, "terminal_output_delta": True}
    assert caps["session"] == {"configOptions": {"boolean": {}}}  # switches, set with type "boolean"
    assert caps["elicitation"] == {"form": {}, "url": {}}  # the agent's questions: forms and links


async def test_concurrent_actions_share_one_initialize(make_service):
    service, envelopes = make_service(scripted_agent_argv("--init-delay=0.3"))
    await asyncio.gather(service.start(), service.start(), service.new_session())
    starts = [e for e in envelopes.of_kind("agent_state") if e.state == "starting"]
    assert len(starts) == 1
    assert service.connection.generation_of_child == 1


async def test_starting_state_is_shown_while_initialize_runs(make_service):
    service, envelopes = make_service(scripted_agent_argv("--init-delay=0.5"))
    task = asyncio.create_task(service.start())
    await envelopes.wait_for(lambda log: any(e.state == "starting" for e in log.of_kind("agent_state")))
    assert not task.done()
    info = await task
    assert info.name == "scripted"
    assert envelopes.of_kind("agent_state")[-1].state == "ready"


async def test_new_session_key_is_acp_id_for_generic_agents(make_service):
    service, _ = make_service(scripted_agent_argv())
    result = await service.new_session()
    assert result.session_key == "acp-1"
    assert result.created


async def test_new_session_key_is_proposed_key_for_openclaw(make_service):
    service, _ = make_service(scripted_agent_argv("--name=openclaw-acp"))
    result = await service.new_session()
    assert result.session_key.startswith("agent:main:clawqt-")
    assert service.machine.acp_ids[result.session_key] == "acp-1"


async def test_session_id_is_rewritten_to_the_key_in_envelopes(make_service):
    service, envelopes = make_service(scripted_agent_argv("--name=openclaw-acp"))
    session = await service.new_session()
    await service.prompt(session.session_key, "hello")
    updates = envelopes.updates("agent_message_chunk")
    assert updates and all(e.notification["sessionId"] == session.session_key for e in updates)
    assert envelopes.text() == "Hello world"


async def test_updates_during_new_session_come_back_with_the_result(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    result = await service.new_session()
    kinds = [u.notification["update"]["sessionUpdate"] for u in result.updates]
    assert kinds == ["available_commands_update"]
    assert not envelopes.updates()  # not also forwarded one by one


async def test_load_returns_replay_as_one_batch_marked_historical(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    result = await service.load_session("past-1")
    kinds = [u.notification["update"]["sessionUpdate"] for u in result.updates]
    assert kinds == ["user_message_chunk", "agent_message_chunk", "brand_new_kind"]
    assert all(u.historical and u.generation == result.generation for u in result.updates)
    assert not envelopes.updates()


async def test_unknown_update_kinds_and_fields_and_meta_are_preserved(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "meta")
    notification = envelopes.updates("agent_message_chunk")[-1].notification
    assert notification["update"]["futureField"] == {"x": 1}
    assert notification["update"]["_meta"] == {"vendor": {"k": "v"}}
    assert notification["_meta"] == {"envelope": True}


async def test_generation_increases_with_each_load(make_service):
    service, _ = make_service(scripted_agent_argv())
    first = await service.new_session()
    second = await service.load_session("past-1")
    third = await service.new_session()
    assert first.generation < second.generation < third.generation
    assert service.active_generation == third.generation


async def test_failed_load_restores_previous_session_and_generation(make_service):
    service, _ = make_service(scripted_agent_argv())
    first = await service.new_session()
    with pytest.raises(LoadFailed):
        await service.load_session("fail-load")
    assert service.active_session_key == first.session_key
    assert service.active_generation == first.generation
    result = await service.prompt(first.session_key, "hello")
    assert result.stop_reason == "end_turn"


async def test_queued_load_still_runs_after_an_earlier_one_fails(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    failing = asyncio.create_task(service.load_session("fail-load"))
    queued = asyncio.create_task(service.load_session("past-2"))
    with pytest.raises(LoadFailed):
        await failing
    result = await queued
    assert result.session_key == "past-2"
    assert service.active_session_key == "past-2"


async def test_loads_are_serialized(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    slow = asyncio.create_task(service.load_session("slow-load"))
    fast = asyncio.create_task(service.load_session("past-3"))
    slow_result, fast_result = await asyncio.gather(slow, fast)
    assert slow_result.generation < fast_result.generation
    assert service.active_session_key == "past-3"
    first_kind = fast_result.updates[0].notification["update"]["sessionUpdate"]
    assert first_kind == "user_message_chunk"


async def test_prompt_refused_before_any_load(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    with pytest.raises(PromptRefused) as info:
        await service.prompt("acp-1", "hello")
    assert info.value.code == "no-session"


async def test_prompt_refused_for_a_session_that_is_not_active(make_service):
    service, _ = make_service(scripted_agent_argv())
    first = await service.new_session()
    await service.new_session()
    with pytest.raises(PromptRefused) as info:
        await service.prompt(first.session_key, "hello")
    assert info.value.code == "session-not-active"


async def test_prompt_refused_while_a_load_runs(make_service):
    service, _ = make_service(scripted_agent_argv())
    session = await service.new_session()
    loading = asyncio.create_task(service.load_session("slow-load"))
    await asyncio.sleep(0.1)  # the slow load is under way (it answers after 0.5 s)
    with pytest.raises(PromptRefused) as info:
        await service.prompt(session.session_key, "hello")
    assert info.value.code == "load-running"
    await loading


async def test_prompt_refused_when_cwd_differs_from_the_session_cwd(make_service, tmp_path):
    service, _ = make_service(scripted_agent_argv())
    other = tmp_path / "elsewhere"
    other.mkdir()
    session = await service.new_session(cwd=str(tmp_path))
    with pytest.raises(PromptRefused) as info:
        await service.prompt(session.session_key, "hello", cwd=str(other))
    assert info.value.code == "cwd-mismatch"
    ok = await service.prompt(session.session_key, "hello", cwd=str(tmp_path))
    assert ok.stop_reason == "end_turn"


async def test_prompt_blocks_trim_text_and_meta_carries_key_and_message_id(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "  echo-meta please  \n", client_message_id="user:abc")
    echoed = json.loads(envelopes.text())
    assert echoed["prompt"] == [{"type": "text", "text": "echo-meta please"}]
    assert echoed["meta"] == {"sessionKey": session.session_key, "messageId": "user:abc"}


async def test_slash_commands_are_sent_with_prefix_cwd_false(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    # the scripted agent replies with its own default to "/status": echo via meta-checking prompt
    await service.prompt(session.session_key, "echo-meta")
    assert "prefixCwd" not in json.loads(envelopes.text())["meta"]
    from app.main.files.prompt_blocks import build_prompt_meta

    assert build_prompt_meta("k", "m", "/status")["prefixCwd"] is False
    assert build_prompt_meta("k", "m", "  /help")["prefixCwd"] is False
    assert "prefixCwd" not in build_prompt_meta("k", "m", "status /x")


async def test_empty_prompt_is_one_empty_text_block():
    from app.main.files.prompt_blocks import build_prompt_blocks

    assert build_prompt_blocks("   ") == [{"type": "text", "text": ""}]


async def test_images_become_image_blocks_and_files_resource_links(tmp_path):
    from app.main.files.prompt_blocks import PromptAttachment, PromptCapabilities, build_prompt_blocks

    image = tmp_path / "pic.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    doc = tmp_path / "notes.txt"
    doc.write_text("hi")
    caps = PromptCapabilities(image=True, embedded_context=False)
    blocks = build_prompt_blocks("look", (PromptAttachment(str(image)), PromptAttachment(str(doc))), caps)
    assert blocks[0] == {"type": "text", "text": "look"}
    assert blocks[1]["type"] == "image" and blocks[1]["mimeType"] == "image/png"
    assert blocks[1]["uri"] == image.resolve().as_uri() and blocks[1]["data"]
    assert blocks[2] == {
        "type": "resource_link",
        "uri": doc.resolve().as_uri(),
        "name": "notes.txt",
        "mimeType": "text/plain",
        "size": 2,
    }


async def test_small_text_files_are_embedded_only_when_the_agent_allows(tmp_path):
    from app.main.files.prompt_blocks import (
        MAX_EMBED_BYTES,
        PromptAttachment,
        PromptCapabilities,
        build_prompt_blocks,
    )

    doc = tmp_path / "notes.md"
    doc.write_text("# hi\n")
    big = tmp_path / "big.txt"
    big.write_text("x" * (MAX_EMBED_BYTES + 1))
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\x00\x01")
    attachments = (PromptAttachment(str(doc)), PromptAttachment(str(big)), PromptAttachment(str(binary)))
    embedded = build_prompt_blocks("", attachments, PromptCapabilities(embedded_context=True))
    assert embedded[0] == {
        "type": "resource",
        "resource": {"uri": doc.resolve().as_uri(), "mimeType": "text/markdown", "text": "# hi\n"},
    }
    assert embedded[1]["type"] == "resource_link" and embedded[2]["type"] == "resource_link"
    linked = build_prompt_blocks("", attachments, PromptCapabilities(embedded_context=False))
    assert [b["type"] for b in linked] == ["resource_link"] * 3


async def test_an_image_for_an_agent_without_image_support_is_refused_clearly(tmp_path):
    from app.contract.errors import PromptRefused
    from app.main.files.prompt_blocks import PromptAttachment, PromptCapabilities, build_prompt_blocks

    image = tmp_path / "shot.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    with pytest.raises(PromptRefused) as caught:
        build_prompt_blocks("see", (PromptAttachment(str(image)),), PromptCapabilities(image=False))
    assert "does not accept images" in str(caught.value) and "shot.png" in str(caught.value)
    assert caught.value.code == "attachment-image-unsupported"


async def test_attachment_limits_give_clear_errors(tmp_path):
    from app.contract.errors import PromptRefused
    from app.main.files.prompt_blocks import (
        MAX_ATTACHMENTS,
        PromptAttachment,
        build_prompt_blocks,
        check_attachment,
    )

    doc = tmp_path / "a.txt"
    doc.write_text("a")
    with pytest.raises(PromptRefused, match="at most"):
        build_prompt_blocks("", tuple(PromptAttachment(str(doc)) for _ in range(MAX_ATTACHMENTS + 1)))
    huge = tmp_path / "huge.png"
    with open(huge, "wb") as handle:
        handle.truncate(30 * 1024 * 1024)
    with pytest.raises(PromptRefused, match="the limit is 20 MB"):
        check_attachment(str(huge))
    import os

    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(PromptRefused, match="not a regular file"):
        check_attachment(str(tmp_path / "pipe"))
    with pytest.raises(PromptRefused, match="no longer exists"):
        check_attachment(str(tmp_path / "gone.txt"))
