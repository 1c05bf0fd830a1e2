"""A chat ended with its agent (`session/close`, `session/delete`, each only when the agent declared
it): its turn stopped first, then everything ClawQt held for it let go - its terminals, its file
record, its terminal access, its waiting proposal cards - before the agent is asked."""

from __future__ import annotations

from typing import Protocol

from app.main.agents.connection import AgentConnection
from app.main.sessions.extras import ProposalsExtras, SessionExtras
from app.main.sessions.file_host import AgentFileHost
from app.main.sessions.io import SessionIO
from app.main.sessions.machine import SessionMachine
from app.main.sessions.requests import require
from app.main.sessions.terminal_host import ClientTerminalHost


class Ending(Protocol):
    """What of the chat service ending a chat uses (service.py's ChatService)."""

    connection: AgentConnection
    terminals: ClientTerminalHost
    files: AgentFileHost
    participation: SessionExtras | None
    proposals: ProposalsExtras | None
    machine: SessionMachine
    io: SessionIO

    def is_live(self, session_key: str) -> bool: ...

    async def cancel(self, session_key: str) -> bool: ...


async def end_session(service: Ending, method: str, session_key: str, what: str) -> None:
    await service.connection.ensure_ready()
    require(service.connection.info, "sessionCapabilities", method.split("/")[1], what=what)
    if service.is_live(session_key):
        await service.cancel(session_key)
    service.terminals.close_session(session_key)
    service.files.forget_session(session_key)
    if service.participation is not None:
        service.participation.session_ended(session_key)
    if service.proposals is not None:  # the chat is gone: its waiting cards end session_replaced
        service.proposals.session_closed(session_key)
    acp_id = service.machine.acp_ids.get(session_key, session_key)
    await service.io.request(method, {"sessionId": acp_id})
