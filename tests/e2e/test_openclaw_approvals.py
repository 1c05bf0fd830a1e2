"""Gateway exec approvals arrive in ClawQt as permission requests and are answered allow and deny."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt

from app.renderer.timeline.serialize import item_record
from tests.e2e.shared_clawqt import SHARED

pytestmark = pytest.mark.e2e


@SHARED
async def test_exec_approval_denied_fails_the_tool(clawqt):
    service, envelopes = clawqt.service, clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    running = asyncio.create_task(pipeline.prompt(key, "please run command now"))
    asked = lambda log: [e for e in log.of_kind("permission_request") if e.session_key == key]  # noqa: E731
    request = (await envelopes.wait_for(asked, timeout=60))[0]
    kinds = {o["kind"] for o in request.options}
    assert "allow_once" in kinds and "reject_once" in kinds
    assert request.tool_call.get("kind") == "execute"
    assert "echo approved-run" in str(request.tool_call)
    deny = next(o["optionId"] for o in request.options if o["kind"] == "reject_once")
    assert service.answer_permission(request.request_id, deny)
    result = await asyncio.wait_for(running, 90)
    assert result.stop_reason == "end_turn"
    tools = [i for i in timeline.items.values() if i.kind == "tool"]
    assert tools and tools[-1].status == "failed"
    assert "denied" in str(item_record(tools[-1])).lower()
    permission = next(i for i in timeline.items.values() if i.kind == "permission")
    assert permission.status == "selected" and permission.selected_option == deny


def test_exec_approval_allowed_from_the_window_with_the_keyboard(ui, openclaw):
    async def scenario():
        window = await ui.open(openclaw.agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "please run command now")
        await ui.until(lambda: "permission" in ui.kinds(window), 60)
        await ui.frames(window, 2)
        await ui.screenshot(window, "e2e-04-exec-approval")
        allow = ui.item(window, "permissionOption_allow-once")
        allow.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 90)
        timeline = objects.session.timeline
        tools = [i for i in timeline.items.values() if i.kind == "tool"]
        assert tools and tools[-1].status == "completed"
        assert "approved-run" in str(item_record(tools[-1]))
        assert "The command finished." in str([item_record(i) for i in timeline.items.values()])

    ui.run(scenario(), timeout=150)


def test_an_exec_approval_asked_while_the_user_is_in_another_chat_waits_for_them(ui, openclaw):
    """The approval belongs to the turn still running in the chat the user left: it waits (that chat's
    sidebar row says it needs the user) and, answered after switching back, the command runs. It used
    to be answered `cancelled` at once, or on the switch if it came first: the command never ran."""

    async def scenario():
        window = await ui.open(openclaw.agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "please run command now")
        objects.session.newChat()  # at once: the approval comes while (or just before) the user is away
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 60)
        rows = lambda: {e["key"]: e for e in objects.sessions.entries()}  # noqa: E731
        await ui.until(lambda: rows().get(first, {}).get("needsYou"), 60)
        assert "permission" not in ui.kinds(window)
        await asyncio.sleep(1.0)  # time for what must not happen to show: an absence has no event
        assert rows()[first]["needsYou"] and objects.host.sessions.pending_permissions == 1
        await ui.screenshot(window, "e2e-05-approval-in-another-chat")
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first, 30)
        await ui.until(lambda: "permission" in ui.kinds(window), 30)
        await ui.frames(window, 2)
        allow = ui.item(window, "permissionOption_allow-once")
        allow.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 90)
        timeline = objects.session.timeline
        tools = [i for i in timeline.items.values() if i.kind == "tool"]
        assert tools and tools[-1].status == "completed"
        assert "approved-run" in str(item_record(tools[-1]))
        assert not rows()[first]["needsYou"]

    ui.run(scenario(), timeout=180)
