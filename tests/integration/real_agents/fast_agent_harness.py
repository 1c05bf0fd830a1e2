"""What the fast-agent tests share (test_fast_agent.py, test_fast_agent_sessions.py, and the MCP servers'
test with fast-agent): fast-agent installed once (tests/fast_agent_support.py; a failed install FAILS
the tests in words), a workspace folder, `start` to run it there through ChatService and the headless
pipeline; the passthrough model's tool call, reading the timeline a window would show, and one turn
with its permission requests answered. The fixtures reach the tests through this folder's conftest.py."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path

import pytest

from app.renderer.timeline.items import MessageSegment, PermissionItem, ToolCall
from app.renderer.timeline.parts import MarkdownPart
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.fast_agent_support import ensure_fast_agent, fast_agent_args
from tests.real_agents_support import InstalledAgent, installed_or_fail

log = logging.getLogger(__name__)


@pytest.fixture(scope="session")
def fast_agent() -> InstalledAgent:
    """fast-agent installed in .cache/ (on first use), with a Python >= 3.12 of this machine."""
    agent = installed_or_fail("fast-agent", ensure_fast_agent)
    log.info(
        "fast-agent %s (%s): %s in %.3f s",
        agent.version,
        agent.runtime,
        "installed" if agent.installed_now else "cached",
        agent.setup_seconds,
    )
    return agent


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return Path(os.path.realpath(folder))


@pytest.fixture
def start(make_service, fast_agent, workspace, tmp_path):
    """`start(model=..., shell=...)` -> (service, envelopes, pipeline) running fast-agent in `workspace`;
    every agent a test starts shares one fast-agent home (its saved sessions)."""
    home = tmp_path / "fast-agent-home"

    def start_agent(model: str = "passthrough", *, shell: bool = True):
        argv = fast_agent.argv + fast_agent_args(home, model, shell=shell)
        service, envelopes = make_service(argv, cwd=str(workspace))
        return service, envelopes, HeadlessPipeline(service)

    return start_agent


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
