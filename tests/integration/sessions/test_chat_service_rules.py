"""Every main-side rule of chat-timeline.md ("Main side"), each pinned by a test named after it, run
against the scripted agent as a real subprocess over stdio."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.contract.errors import CapabilityMissing, LoadFailed, PromptRefused
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


async def test_live_prompt_context_survives_switching_sessions(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "background"))
    await envelopes.wait_for(lambda log: log.text(first.session_key))
    second = await service.new_session()
    assert service.active_session_key == second.session_key
    await running
    text = envelopes.text(first.session_key)
    assert text.count("bg") == 30  # nothing of the first session's stream was dropped while away
    first_updates = [e for e in envelopes.updates() if e.session_key == first.session_key]
    assert all(e.generation == first.generation and not e.historical for e in first_updates)


async def test_returning_to_a_live_prompt_reuses_its_generation_without_load(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "background"))
    await envelopes.wait_for(lambda log: log.text(first.session_key))
    await service.new_session()
    back = await service.activate_session(first.session_key)
    assert back.resumed_live and back.generation == first.generation and back.updates == ()
    assert service.active_session_key == first.session_key
    await running


async def test_after_settlement_returning_means_a_normal_load(make_service):
    service, _ = make_service(scripted_agent_argv())
    first = await service.new_session()
    await service.prompt(first.session_key, "hello")
    await service.new_session()
    back = await service.activate_session(first.session_key)
    assert not back.resumed_live
    assert back.generation > first.generation


async def test_historical_flag_is_sticky_until_the_first_live_prompt(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    loaded = await service.load_session("past-9")
    await service.set_mode(loaded.session_key, "b")
    mode_update = await envelopes.wait_for(lambda log: log.updates("current_mode_update"))
    assert mode_update[-1].historical
    await service.prompt(loaded.session_key, "hello")
    assert not envelopes.updates("agent_message_chunk")[-1].historical


async def test_updates_for_unknown_sessions_are_dropped_and_counted(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    assert "lost" not in envelopes.text()
    assert service.io.ignored_updates >= 2  # unknown session + malformed params
    codes = {e.code for e in envelopes.of_kind("diagnostic")}
    assert "update-dropped" in codes and "update-malformed" in codes


async def test_permission_request_becomes_an_envelope_answered_by_the_renderer(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert request.session_key == session.session_key
    assert [o["optionId"] for o in request.options] == ["allow", "deny"]
    assert request.tool_call["toolCallId"] == "t-perm"
    assert service.answer_permission(request.request_id, "allow")
    assert not service.answer_permission(request.request_id, "deny")  # answered once
    await running
    assert "outcome: allow" in envelopes.text()
    resolved = envelopes.of_kind("permission_resolved")[-1]
    assert (resolved.outcome, resolved.option_id) == ("selected", "allow")


async def test_permission_answer_must_be_one_of_the_options(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert not service.answer_permission(request.request_id, "not-an-option")
    assert service.answer_permission(request.request_id, "deny")
    await running
    assert "outcome: deny" in envelopes.text()


async def test_permission_auto_cancelled_during_a_load(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    result = await service.load_session("perm-load")
    texts = [u.notification["update"].get("content", {}).get("text") for u in result.updates]
    assert "permission during load: cancelled" in texts
    assert not envelopes.of_kind("permission_request")


async def test_permission_auto_cancelled_on_cancel(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert await service.cancel(session.session_key)
    result = await running
    assert result.stop_reason == "cancelled"
    assert envelopes.of_kind("permission_resolved")[-1].reason == "cancelled"
    assert service.pending_permissions == 0


async def test_permission_auto_cancelled_when_no_prompt_is_live(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    # outside any prompt: routed straight into the handler as the agent would
    outcome = await service.handle_permission_request("acp-77", {"toolCallId": "x"}, [{"optionId": "a"}])
    assert outcome is None
    assert not envelopes.of_kind("permission_request")


async def test_permission_auto_cancelled_on_child_exit(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    service.connection._process.proc.kill()
    with pytest.raises(Exception):  # noqa: B017 - AgentUnavailable, asserted below
        await running
    await envelopes.wait_for(lambda log: log.of_kind("permission_resolved"))
    assert envelopes.of_kind("permission_resolved")[-1].reason == "agent-exited"


async def test_permission_auto_cancelled_on_prompt_settlement(make_service):
    service, _envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "hello")
    # a late request after settlement has no live prompt and is cancelled at once
    outcome = await service.handle_permission_request("acp-1", {"toolCallId": "late"}, [{"optionId": "a"}])
    assert outcome is None


async def test_cancel_settles_cancelled_keeps_partial_output_and_marks_open_tools(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "slow"))
    await envelopes.wait_for(lambda log: "tick 3" in log.text())
    assert await service.cancel(session.session_key)
    result = await running
    assert result.stop_reason == "cancelled"
    assert "tick 0" in envelopes.text()
    cancelled = envelopes.of_kind("tool_calls_cancelled")
    assert cancelled and cancelled[-1].tool_call_ids == ("t-slow",)
    settled = envelopes.of_kind("prompt_settled")[-1]
    assert settled.stop_reason == "cancelled" and settled.error is None


async def test_cancel_without_a_live_prompt_does_nothing(make_service):
    service, _ = make_service(scripted_agent_argv())
    session = await service.new_session()
    assert not await service.cancel(session.session_key)


async def test_second_prompt_while_one_runs_is_refused(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "slow"))
    await envelopes.wait_for(lambda log: log.text())
    with pytest.raises(PromptRefused) as info:
        await service.prompt(session.session_key, "hello")
    assert info.value.code == "prompt-running"
    await service.cancel(session.session_key)
    await running


async def test_list_sessions_pages_with_the_cursor(make_service):
    service, _ = make_service(scripted_agent_argv())
    pages = []
    cursor = None
    while True:
        page = await service.list_sessions(cursor)
        pages.append(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    keys = [s.session_key for p in pages for s in p.sessions]
    assert len(pages) == 3 and len(keys) == 25 == len(set(keys))
    assert pages[0].sessions[0].title == "Session 0"


async def test_capability_gated_operations_refuse_without_capability(make_service):
    service, _ = make_service(scripted_agent_argv('--caps={"loadSession": false}'))
    await service.start()
    for call in (
        service.load_session("x"),
        service.list_sessions(),
        service.resume_session("x"),
        service.close_session("x"),
        service.delete_session("x"),
    ):
        with pytest.raises(CapabilityMissing):
            await call


async def test_resume_close_and_delete_with_capability(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    resumed = await service.resume_session("past-4")
    assert resumed.session_key == "past-4" and resumed.updates == ()
    await service.close_session("past-4")
    assert service.active_session_key is None
    await service.delete_session("past-5")


async def test_set_mode_and_config_option(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.set_mode(session.session_key, "b")
    await envelopes.wait_for(lambda log: log.updates("current_mode_update"))
    options = await service.set_config_option(session.session_key, "model", "m2")
    assert options[0]["currentValue"] == "m2"
    with pytest.raises(PromptRefused):
        await service.set_mode("never-opened", "b")


async def test_raw_observer_sees_what_the_agent_really_sent(make_service):
    service, _ = make_service(scripted_agent_argv())
    seen: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: seen.append((direction, json.loads(json.dumps(message)))))
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    received = [m for d, m in seen if d == "recv"]
    kinds = [
        m["params"]["update"].get("sessionUpdate") for m in received if m.get("method") == "session/update"
    ]
    assert "future_kind_v9" in kinds  # a newer update kind, as sent
    assert any(m.get("params", {}).get("sessionId") == "nobody-knows-this-session" for m in received)
    assert [m.get("method") for d, m in seen if d == "send"][:3] == [
        "initialize",
        "session/new",
        "session/prompt",
    ]
