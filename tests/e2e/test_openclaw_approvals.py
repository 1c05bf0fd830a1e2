"""Gateway exec approvals arrive in ClawQt as permission requests and are answered allow and deny."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt

from app.renderer.pipeline import HeadlessPipeline
from app.renderer.timeline.serialize import item_record

pytestmark = pytest.mark.e2e


async def test_exec_approval_denied_fails_the_tool(make_service, openclaw):
    service, envelopes = make_service(openclaw.agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "please run command now"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request"), timeout=60))[0]
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
        await asyncio.sleep(0.3)
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
