"""One list of sessions over several agents, page by page: the first page of every running agent that
lists its sessions, newest first, followed by the chats remembered from earlier runs whose agent was
not asked; then the rest of each agent's list, one page per call. The cursor the renderer gets back is
what each agent has left (JSON pairs of agent id and that agent's own cursor)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from app.contract.envelopes import SessionPage, SessionSummary
from app.contract.errors import HostError
from app.main.sessions.chat_memory import ChatMemory

if TYPE_CHECKING:
    from app.main.sessions.service import ChatService

PageOf = Callable[[str, str | None], Awaitable[SessionPage]]  # (agent id, its own cursor) -> its page


def pending_agents(cursor: str, known: Callable[[str], bool]) -> list[tuple[str, str | None]]:
    """What a cursor says each agent has left (agents no longer configured dropped)."""
    try:
        pending = [(str(a), c if isinstance(c, str) else None) for a, c in json.loads(cursor)]
    except (ValueError, TypeError) as exc:
        raise HostError("That list of sessions cannot be continued.", code="bad-cursor") from exc
    return [(a, c) for a, c in pending if known(a)]


async def list_pages(
    cursor: str | None, listing: list[str], page_of: PageOf, memory: ChatMemory, known: Callable[[str], bool]
) -> tuple[SessionPage, list[tuple[str, SessionSummary]]]:
    """The next page over the agents (`listing`: those asked on a first call) and, for each chat
    listed, the agent it belongs to."""
    pending = [(agent_id, None) for agent_id in listing] if cursor is None else pending_agents(cursor, known)
    sessions: list[SessionSummary] = []
    owners: list[tuple[str, SessionSummary]] = []
    left: list[tuple[str, str | None]] = []
    for index, (agent_id, own_cursor) in enumerate(pending):
        if cursor is not None and index > 0:
            left.append((agent_id, own_cursor))  # one more page at a time
            continue
        page = await page_of(agent_id, own_cursor)
        owners += [(agent_id, summary) for summary in page.sessions]
        sessions.extend(page.sessions)
        if page.next_cursor:
            left.append((agent_id, page.next_cursor))
    if cursor is None:
        sessions.sort(key=lambda s: s.updated_at or "", reverse=True)
        listed = {agent_id for agent_id, _ in pending}
        sessions += memory.chats(exclude=listed, known={s.session_key for s in sessions})
    return SessionPage(tuple(sessions), json.dumps(left) if left else None), owners


def listing_agents(services: dict[str, ChatService]) -> list[str]:
    """The running agents that list sessions (listing never starts or restarts one)."""
    agents = []
    for agent_id, service in services.items():
        info = service.agent_info
        if service.connection.is_ready and info is not None and info.supports("sessionCapabilities", "list"):
            agents.append(agent_id)
    return agents
