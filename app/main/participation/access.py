"""The `terminal_access` host part: how the current agent reaches the user's terminals, and the one
action that changes it (connecting OpenClaw with its own `openclaw mcp set`, after the user agreed)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.contract.envelopes import AgentInfo
from app.contract.user_terminals import ConnectOutcome, TerminalAccessState
from app.main.openclaw.mcp_connect import mcp_set_argv, openclaw_cli, run_mcp_set, shown_command
from app.main.participation.service import TerminalParticipation

GATEWAY_SETTLE_SECONDS = 2.0


class TerminalAccess:
    def __init__(
        self,
        participation: TerminalParticipation,
        agent_argv: tuple[str, ...],
        agent_info: Callable[[], AgentInfo | None],
    ) -> None:
        self._participation = participation
        self._agent_argv = agent_argv
        self._agent_info = agent_info

    def _command(self) -> list[str] | None:
        cli = openclaw_cli(self._agent_argv)
        if cli is None or self._participation.url is None:
            return None
        return mcp_set_argv(cli, self._participation.agent_config())

    def state(self) -> TerminalAccessState:
        participation = self._participation
        info = self._agent_info()
        name = info.name if info is not None else ""
        command = self._command()
        shown = shown_command(command, participation.install_secret) if command else ""
        if participation.problem:
            delivery = "unavailable"
        elif openclaw_cli(self._agent_argv) is not None:  # the URL is known once `prepare` started it
            delivery = "connected" if name and participation.connected(name) else "connect"
        elif info is not None and info.supports("mcpCapabilities", "http"):
            delivery = "per-session"
        else:
            delivery = "unavailable"
        return TerminalAccessState(participation.url, participation.problem, name, delivery, shown)  # type: ignore[arg-type]

    async def prepare(self) -> TerminalAccessState:
        """Start the server if it is not running (the command to show names its URL), then the state."""
        await self._participation.start()
        return self.state()

    async def connect_openclaw(self) -> ConnectOutcome:
        await self._participation.start()
        command = self._command()
        info = self._agent_info()
        if command is None or info is None:
            return ConnectOutcome(False, "The agent is not OpenClaw, or terminal access is not running.")
        result = await run_mcp_set(command, self._agent_argv)
        if result.ok:
            # the running gateway applies the change within about a second; a turn started meanwhile
            # fails inside OpenClaw, so "connected" is said once it had that time
            await asyncio.sleep(GATEWAY_SETTLE_SECONDS)
            self._participation.mark_connected(info.name)
        return ConnectOutcome(result.ok, result.output)
