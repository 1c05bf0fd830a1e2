"""Stopping an agent no chat needs: one that has no chat on screen, no turn running and nothing asked of
the user is stopped (parked: its process ends, its chats stay listed) a while after its last chat was
left, and starts again when one of its chats needs it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.main.core.background_tasks import BackgroundTasks

if TYPE_CHECKING:
    from app.main.sessions.service import ChatService

IDLE_STOP_S = 600.0  # an agent with no chat on screen, no turn and nothing asked is stopped after this


class IdleStops:
    """One timer per agent not shown; `shown` says which agent's chat is on screen now."""

    def __init__(
        self,
        services: dict[str, ChatService],
        shown: Callable[[], str],
        background: BackgroundTasks,
        stop_after_s: float = IDLE_STOP_S,
    ) -> None:
        self.stop_after_s = stop_after_s
        self._services = services  # the hub's own, read when a timer fires
        self._shown = shown
        self._background = background
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def watch(self, agent_id: str) -> None:
        """Stop `agent_id` after `stop_after_s` if by then it still has no chat on screen and nothing
        running or asked."""
        if agent_id == self._shown() or agent_id not in self._services:
            return
        self.cancel(agent_id)
        loop = asyncio.get_running_loop()
        self._timers[agent_id] = loop.call_later(self.stop_after_s, self._expired, agent_id)

    def cancel(self, agent_id: str) -> None:
        timer = self._timers.pop(agent_id, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        """Quit: no timer fires any more."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _expired(self, agent_id: str) -> None:
        self._timers.pop(agent_id, None)
        service = self._services.get(agent_id)
        if agent_id == self._shown() or service is None or not service.connection.is_ready:
            return
        if not service.idle:
            self.watch(agent_id)  # a turn or a question still runs: look again later
            return
        minutes = max(1, round(self.stop_after_s / 60))
        why = f"stopped: no chat needed it for {minutes} min; it starts again when one does"
        self._background.spawn(service.park(why), f"park-{agent_id}")
