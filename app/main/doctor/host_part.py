"""The `doctor` host part: a report on an agent from what the window's own connection learned (when
it runs), and a check on a connection of the check's own (check.py)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

from app.contract.doctor import CheckStep, DoctorReport
from app.contract.envelopes import AgentInfo
from app.main.agents.handshake import PROTOCOL_VERSION, initialize_params
from app.main.doctor.check import Check
from app.main.doctor.findings import findings
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService

STDERR_LINES = 40  # of the agent's stderr in a report

MakeService = Callable[[str], ChatService]  # a connection of the check's own to an agent, by id


def declared() -> dict[str, Any]:
    """What ClawQt says in `initialize`, as it sends it."""
    return initialize_params()


def offered(info: AgentInfo) -> dict[str, Any]:
    """What the agent said in `initialize`, as ClawQt kept it."""
    about = {"name": info.name, **({"title": info.title} if info.title else {})}
    if info.version:
        about["version"] = info.version
    return {
        "protocolVersion": info.protocol_version,
        "agentInfo": about,
        "agentCapabilities": info.capabilities,
        "authMethods": list(info.auth_methods),
    }


class Doctor:
    def __init__(self, hub: AgentHub, make_service: MakeService) -> None:
        self._hub = hub
        self._make_service = make_service

    def report(self, agent_id: str) -> DoctorReport | None:
        service = self._hub.started(agent_id)
        info = service.agent_info if service is not None else None
        if service is None or info is None:
            return None
        return self._report(agent_id, info, service.connection.stderr_tail(STDERR_LINES), running=True)

    async def check(
        self, agent_id: str, send_message: bool, progress: Callable[[CheckStep], None]
    ) -> DoctorReport:
        service = self._make_service(agent_id)
        cwd = self._hub.default_cwd or self._hub.profiles[agent_id].cwd or os.getcwd()
        check = Check(service, cwd, progress)
        steps = await check.run(send_message)
        info: AgentInfo | None = check.info
        tail = service.connection.stderr_tail(STDERR_LINES)
        if info is None:  # it never answered initialize
            report = self._bare(agent_id, tail)
        else:
            report = self._report(agent_id, info, tail, running=False)
        return dataclasses.replace(report, steps=tuple(steps))

    def _report(self, agent_id: str, info: AgentInfo, tail: str, running: bool) -> DoctorReport:
        sent = declared()
        return DoctorReport(
            agent_id,
            self._name(agent_id),
            self._hub.profiles[agent_id].command().display,
            running,
            offered(info),
            sent,
            tuple(findings(info, sent["clientCapabilities"], PROTOCOL_VERSION)),
            tail,
        )

    def _bare(self, agent_id: str, tail: str) -> DoctorReport:
        """An agent that never answered initialize: only what ClawQt sent and what it wrote."""
        command = self._hub.profiles[agent_id].command().display
        return DoctorReport(agent_id, self._name(agent_id), command, False, {}, declared(), (), tail)

    def _name(self, agent_id: str) -> str:
        return next((c.name for c in self._hub.choices() if c.agent_id == agent_id), agent_id)
