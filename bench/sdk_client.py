"""The bare ACP SDK client that `pipeline` and `replay_load` measure ClawQt against. Kept apart from
`common.py`: importing the SDK (its pydantic schema) would load it into every benchmark process, and
the app itself never loads it (the memory benchmark would bill the window for it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import acp

from bench.common import SCRIPTED_AGENT


class CountingClient(acp.Client):
    """The bare SDK client: counts session updates and does nothing else."""

    def __init__(self) -> None:
        self.count = 0
        self.target = 0
        self.reached: asyncio.Event = asyncio.Event()

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.count += 1
        if self.target and self.count >= self.target:
            self.reached.set()

    async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
        raise acp.RequestError.method_not_found("session/request_permission")


async def with_sdk_client(
    body: Callable[[Any, CountingClient], Awaitable[float]], argv: tuple[str, ...] = SCRIPTED_AGENT
) -> float:
    """Spawn the agent, connect the bare SDK client, run `body`, tear down."""
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=64 * 1024 * 1024,
    )
    client = CountingClient()
    conn = acp.connect_to_agent(client, proc.stdin, proc.stdout)
    try:
        await conn.initialize(protocol_version=1)
        return await body(conn, client)
    finally:
        await conn.close()
        proc.kill()
        await proc.wait()
