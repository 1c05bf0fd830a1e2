"""An agent stuck after its transport came back: OpenClaw's `openclaw acp` bridge keeps answering
"Gateway not connected" for tens of seconds after its gateway returns (it retries the gateway on a
backoff of its own), while a new bridge connects at once. ClawQt notices on the first request that
fails for the lost gateway ("Gateway disconnected" mid-turn, "Gateway not connected" after), checks
the gateway itself (its own read-only connection), waits for it while it is really down, gives the
bridge `BRIDGE_GRACE_S` to reconnect by itself, asks the bridge (`session/list`), and restarts it only
when it still has no gateway.

Ownership: the chat service builds one per OpenClaw agent and tells it each failed request; the
restart itself is the service's (`restart_agent`: the old child's sessions end, a new child starts).
Authority: only a refusal naming the lost gateway starts a check; a restart happens only when the
gateway answers, at most once per `RESTART_COOLDOWN_S`; the user hears each step
(`AgentRecoveryEnvelope`): restarting, restarted (the chat shown is reloaded), or failed (Reconnect).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.contract.envelopes import AgentRecoveryEnvelope, Envelope
from app.contract.errors import HostError

log = logging.getLogger(__name__)

NOT_CONNECTED = "gateway not connected"  # the bridge's refusal while it has no gateway
LOST = ("gateway not connected", "gateway disconnected")  # a request failed for the lost gateway
BRIDGE_GRACE_S = 2.0  # the bridge's own reconnect, when the gateway is back, before it is asked
GATEWAY_POLL_S = 1.0  # how often a gateway that is down is asked again (a loopback connect)
GATEWAY_WAIT_S = 300.0  # how long ClawQt waits for a gateway that is down before leaving it be
RESTART_COOLDOWN_S = 30.0

RESTARTING = "OpenClaw's bridge lost its gateway and has not reconnected: ClawQt is restarting it."
RESTARTED = "ClawQt restarted OpenClaw's bridge (it had lost its gateway); the chat is open again."
FAILED = "OpenClaw's bridge lost its gateway and could not be restarted: {error}"


class BridgeRecovery:
    def __init__(
        self,
        reachable: Callable[[], Awaitable[bool]],
        request: Callable[[str, dict[str, Any]], Awaitable[Any]],
        restart: Callable[[], Awaitable[None]],
        emit: Callable[[Envelope], None],
        spawn: Callable[[Any], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._reachable = reachable
        self._request = request
        self._restart = restart
        self._emit = emit
        self._spawn = spawn
        self._clock = clock
        self._checking = False
        self._quiet_until = 0.0
        self.poll_s = GATEWAY_POLL_S
        self.grace_s = BRIDGE_GRACE_S

    def failed(self, error: HostError, session_key: str | None) -> None:
        """A request failed: when it was for the lost gateway, check and restart the bridge if needed."""
        said = str(error).lower()
        if not any(lost in said for lost in LOST) or self._checking or self._clock() < self._quiet_until:
            return
        self._checking = True
        self._spawn(self._recover(session_key))

    async def _recover(self, session_key: str | None) -> None:
        try:
            deadline = self._clock() + GATEWAY_WAIT_S
            while not await self._reachable():
                if self._clock() >= deadline:
                    return  # the gateway stays down: the bridge is right, and says so itself
                await asyncio.sleep(self.poll_s)
            await asyncio.sleep(self.grace_s)
            if await self._bridge_connected():
                return  # it reconnected by itself
            self._quiet_until = self._clock() + RESTART_COOLDOWN_S
            self._emit(AgentRecoveryEnvelope("restarting", RESTARTING, session_key))
            try:
                await self._restart()
            except HostError as exc:
                log.warning("restarting the bridge failed: %s", exc)
                self._emit(AgentRecoveryEnvelope("failed", FAILED.format(error=exc), session_key))
                return
            self._emit(AgentRecoveryEnvelope("restarted", RESTARTED, session_key))
        finally:
            self._checking = False

    async def _bridge_connected(self) -> bool:
        """Whether the bridge reaches its gateway: a session listing it does not refuse for it."""
        try:
            await self._request("session/list", {})
        except HostError as exc:
            return NOT_CONNECTED not in str(exc).lower()
        return True
