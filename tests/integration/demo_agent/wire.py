"""The demo agent (`python -m app demo-agent`) as its wire tests drive it: a real subprocess on real stdio,
the Python SDK's client side, and every raw message the agent sent kept through a connection observer
(the SDK drops `_meta` and unknown fields from the models it hands to the client)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import acp
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    RequestPermissionResponse,
    TextContentBlock,
)

from tests.paths import REPO

NO_PERMISSION = "none"  # a client told this fails the test when the agent asks


@dataclass
class WireClient:
    """A minimal ACP client: collects updates, answers permission requests as told, keeps raw messages."""

    permission: str = "allow"  # an option id, "cancelled", or NO_PERMISSION
    updates: list[tuple[str, Any]] = field(default_factory=list)
    permission_requests: list[dict[str, Any]] = field(default_factory=list)
    raw: list[dict[str, Any]] = field(default_factory=list)

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append((session_id, update))

    async def request_permission(
        self, session_id: str, tool_call: Any, options: list[Any], **kwargs: Any
    ) -> RequestPermissionResponse:
        if self.permission == NO_PERMISSION:
            raise AssertionError("no permission is asked in these turns")
        self.permission_requests.append({"tool_call": tool_call, "options": options})
        if self.permission == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.permission)
        )

    def observe(self, event: StreamEvent) -> None:
        if event.direction == StreamDirection.INCOMING:
            self.raw.append(event.message)

    def raw_updates(self, session_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        found = [
            m["params"]["update"]
            for m in self.raw
            if m.get("method") == "session/update" and m["params"]["sessionId"] == session_id
        ]
        return [u for u in found if kind is None or u["sessionUpdate"] == kind]

    def text(self, session_id: str) -> str:
        return "".join(
            u["content"].get("text", "") for u in self.raw_updates(session_id, "agent_message_chunk")
        )


@dataclass
class Agent:
    proc: asyncio.subprocess.Process
    conn: acp.core.ClientSideConnection
    client: WireClient
    initialize: dict[str, Any] = field(default_factory=dict)  # the agent's answer, as sent

    async def start(self, cwd: Path) -> str:
        """A new session in `cwd`; returns its id."""
        response = await within(self.conn.new_session(cwd=str(cwd)))
        return response.session_id

    async def say(self, session_id: str, text: str) -> str:
        response = await within(self.conn.prompt(session_id=session_id, prompt=[text_block(text)]))
        return response.stop_reason

    async def ask(self, session_id: str, text: str, context: str | None = None) -> tuple[str, str]:
        """One prompt (the user's words, then the hidden block as ClawQt sends it); its stop reason and
        the reply's text."""
        before = len(self.client.text(session_id))
        blocks = [text_block(text)] + ([text_block(context)] if context is not None else [])
        response = await within(self.conn.prompt(session_id=session_id, prompt=blocks), 60)
        return response.stop_reason, self.client.text(session_id)[before:]


def text_block(text: str) -> TextContentBlock:
    return TextContentBlock(type="text", text=text)


async def within(awaitable: Awaitable[Any], seconds: float = 10.0) -> Any:
    return await asyncio.wait_for(awaitable, seconds)


async def start_agent(
    data_dir: Path, stderr_log: Path, client: WireClient, capabilities: ClientCapabilities | None = None
) -> Agent:
    """The demo agent started in its own process group and initialized (its answer kept)."""
    env = {**os.environ, "CLAWQT_DEMO_DELAY_MS": "0", "CLAWQT_DATA_DIR": str(data_dir)}
    with open(stderr_log, "ab") as stderr:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "app",
            "demo-agent",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env=env,
            cwd=REPO,
            start_new_session=True,
        )
    conn = acp.connect_to_agent(client, proc.stdin, proc.stdout, observers=[client.observe])
    agent = Agent(proc, conn, client)
    try:
        await within(conn.initialize(protocol_version=acp.PROTOCOL_VERSION, client_capabilities=capabilities))
    except BaseException:
        await end(agent)
        raise
    agent.initialize = next(m["result"] for m in client.raw if m.get("id") == 0 and "result" in m)
    return agent


async def end(agent: Agent) -> None:
    """The connection closed and the agent's process group killed if it still runs."""
    with contextlib.suppress(Exception):
        await agent.conn.close()
    if agent.proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(agent.proc.pid, signal.SIGKILL)
        await agent.proc.wait()


async def stop(agent: Agent) -> None:
    """End the agent the polite way (stdin EOF) and check it exits cleanly."""
    await agent.conn.close()
    assert agent.proc.stdin is not None
    agent.proc.stdin.close()
    assert await within(agent.proc.wait(), 5) == 0
