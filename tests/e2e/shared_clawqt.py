"""Two ClawQt services on the worker's gateway, started once for the headless OpenClaw tests: each start
of `openclaw acp` costs seconds of CPU, and ClawQt reuses one child for all its chats as well. `first`
runs the tests' turns; `second` is a ClawQt that never saw their sessions, the one a reload after a
restart of ClawQt is (the session comes back from the gateway, not from anything the first one holds).
Each test attaches its own envelope log and pipelines, detached after it; a test that needs a service of
its own (its first start, a gate in front of the gateway) still makes one with `make_service`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService
from app.renderer.timeline.pipeline import HeadlessPipeline
from app.renderer.timeline.reducer import Timeline
from tests.conftest import EnvelopeLog
from tests.e2e.gateway import Gateway

SHARED = pytest.mark.asyncio(loop_scope="package")  # a test using them runs where they live


class SharedService:
    """One long-lived service, made by the first test that asks for it (under that test's data dirs,
    never the user's), and the gateway start its bridge connected to."""

    def __init__(self, gateway: Gateway, home: Path, name: str) -> None:
        self.gateway = gateway
        self.home = home
        self.name = name
        self.service: ChatService | None = None
        self._gateway_start = gateway.starts

    async def ready(self) -> ChatService:
        """Started, on the gateway as it runs now: a test that restarted the gateway left the bridge
        waiting for its own next retry, so the bridge starts again."""
        if self.service is None:
            self.service = ChatService(
                AgentCommand(self.gateway.agent_argv(), "flag", "test"),
                cwd=str(self.home),
                log_path=self.home / f"agent-stderr-{self.name}.log",
            )
            self._gateway_start = self.gateway.starts
        elif self._gateway_start != self.gateway.starts:
            self._gateway_start = self.gateway.starts
            await self.service.restart_agent()
        await self.service.start()
        return self.service

    async def close(self) -> None:
        if self.service is not None:
            await self.service.shutdown()


class Attached:
    """A test's view of a shared service: its own envelope log and pipelines."""

    def __init__(self, service: ChatService) -> None:
        self.service = service
        self.envelopes = EnvelopeLog()
        self._detach: list[Callable[[], None]] = [service.subscribe(self.envelopes)]

    def pipeline(self) -> HeadlessPipeline:
        pipeline = HeadlessPipeline(self.service)
        self._detach.append(pipeline.close)
        return pipeline

    def detach(self) -> None:
        for detach in reversed(self._detach):
            detach()
        self._detach.clear()


def supplemented(key: str) -> Callable[[EnvelopeLog], list[Any]]:
    """A predicate for `wait_for`: the transcript supplements for the session `key` so far."""
    return lambda log: [e for e in log.of_kind("transcript_supplement") if e.session_key == key]


async def reloaded_with_supplement(fresh_clawqt: Attached, key: str) -> Timeline:
    """The session loaded by a ClawQt that never saw it (as after a restart of ClawQt), once its
    transcript supplement arrived; that ClawQt's timeline."""
    reloaded = await fresh_clawqt.pipeline().load_session(key)
    await fresh_clawqt.envelopes.wait_for(supplemented(key), timeout=15)
    return reloaded
