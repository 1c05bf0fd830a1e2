"""What the fast-agent tests share beyond their fixtures (conftest.py): the passthrough model's tool
call, reading the timeline a window would show, and one turn with its permission requests answered."""

from __future__ import annotations

import asyncio
import json

from app.renderer.timeline.items import MessageSegment, PermissionItem, ToolCall
from app.renderer.timeline.parts import MarkdownPart


def call_tool(tool: str, **arguments: object) -> str:
    return f"***CALL_TOOL {tool} {json.dumps(arguments)}"


def texts_of(timeline, role: str) -> list[str]:
    return [
        "".join(p.text for p in item.parts if isinstance(p, MarkdownPart))
        for item in (timeline.items[i] for i in timeline.order)
        if isinstance(item, MessageSegment) and item.role == role
    ]


def tools_of(timeline) -> list[ToolCall]:
    return [timeline.items[i] for i in timeline.order if isinstance(timeline.items[i], ToolCall)]


def permissions_of(timeline) -> list[PermissionItem]:
    return [timeline.items[i] for i in timeline.order if isinstance(timeline.items[i], PermissionItem)]


def option_of(request, kind: str) -> str:
    return next(o["optionId"] for o in request.options if o["kind"] == kind)


async def run_turn(service, envelopes, pipeline, key: str, text: str, answers: tuple[str, ...] = ()):
    """One prompt through the pipeline, answering its permission requests with options of these kinds
    in order; returns the result and the requests."""
    asked = len(envelopes.of_kind("permission_request"))
    running = asyncio.create_task(pipeline.prompt(key, text))
    requests = []
    for kind in answers:
        wanted = asked + len(requests) + 1
        found = await envelopes.wait_for(
            lambda log, n=wanted: (
                log.of_kind("permission_request") if len(log.of_kind("permission_request")) >= n else None
            )
        )
        request = found[wanted - 1]
        requests.append(request)
        assert service.answer_permission(request.request_id, option_of(request, kind))
    result = await asyncio.wait_for(running, 20)
    assert len(envelopes.of_kind("permission_request")) == asked + len(answers), "unexpected permission"
    return result, requests
