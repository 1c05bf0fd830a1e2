"""The policy that restarts OpenClaw's bridge when it stays without its gateway: what starts a check,
waiting for a gateway that is down, leaving a bridge that reconnected by itself alone, one restart per
cooldown, and a failed restart said. (The real gateway and bridge: tests/e2e/test_openclaw_recovery*.)"""

from __future__ import annotations

import asyncio

from app.contract.errors import AgentUnavailable, HostError
from app.main.sessions.bridge_recovery import BridgeRecovery


class World:
    """The gateway, the bridge and the clock as the recovery sees them."""

    def __init__(self, gateway_up: bool = True, bridge_connected: bool = False) -> None:
        self.gateway_up = gateway_up
        self.bridge_connected = bridge_connected
        self.restarts = 0
        self.restart_error: HostError | None = None
        self.envelopes: list = []
        self.tasks: list[asyncio.Future] = []
        self.now = 0.0

    async def reachable(self) -> bool:
        return self.gateway_up

    async def request(self, method: str, params: dict) -> dict:
        assert method == "session/list"
        if not self.bridge_connected:
            raise HostError("Gateway not connected.")
        return {"sessions": []}

    async def restart(self) -> None:
        self.restarts += 1
        if self.restart_error is not None:
            raise self.restart_error
        self.bridge_connected = True

    def recovery(self) -> BridgeRecovery:
        recovery = BridgeRecovery(
            self.reachable, self.request, self.restart, self.envelopes.append,
            lambda work: self.tasks.append(asyncio.ensure_future(work)), clock=lambda: self.now,
        )  # fmt: skip
        recovery.poll_s = recovery.grace_s = 0.0
        return recovery

    async def settle(self) -> None:
        await asyncio.gather(*self.tasks)

    def phases(self) -> list[str]:
        return [e.phase for e in self.envelopes]


def run(scenario) -> None:
    asyncio.run(scenario())


def test_a_bridge_still_without_its_gateway_is_restarted_and_the_chat_named():
    async def scenario():
        world = World()
        world.recovery().failed(HostError("Gateway not connected."), "agent:main:a")
        await world.settle()
        assert world.restarts == 1 and world.phases() == ["restarting", "restarted"]
        assert world.envelopes[-1].session_key == "agent:main:a"

    run(scenario)


def test_other_failures_start_nothing_and_a_bridge_that_reconnected_is_left_alone():
    async def scenario():
        world = World()
        recovery = world.recovery()
        recovery.failed(HostError("The agent refused: bad params"), None)
        assert world.tasks == []
        world.bridge_connected = True
        recovery.failed(HostError("Gateway disconnected: 1006:."), None)
        await world.settle()
        assert world.restarts == 0 and world.phases() == []

    run(scenario)


def test_a_gateway_that_is_down_is_waited_for_then_the_bridge_restarted():
    async def scenario():
        world = World(gateway_up=False)
        recovery = world.recovery()
        recovery.failed(HostError("Gateway disconnected: 1006:."), None)
        await asyncio.sleep(0.05)  # time for what must not happen to show: an absence has no event
        assert world.restarts == 0  # the bridge is right while the gateway is down
        world.gateway_up = True
        await world.settle()
        assert world.restarts == 1

    run(scenario)


def test_one_restart_per_cooldown_and_a_failed_restart_is_said():
    async def scenario():
        world = World()
        world.restart_error = AgentUnavailable("The agent openclaw exited with code 1 during initialize.")
        recovery = world.recovery()
        recovery.failed(HostError("Gateway not connected."), None)
        await world.settle()
        assert (
            world.phases() == ["restarting", "failed"] and "exited with code 1" in world.envelopes[-1].message
        )
        recovery.failed(HostError("Gateway not connected."), None)  # within the cooldown
        assert len(world.tasks) == 1
        world.now += 31.0
        recovery.failed(HostError("Gateway not connected."), None)
        await world.settle()
        assert world.restarts == 2

    run(scenario)
