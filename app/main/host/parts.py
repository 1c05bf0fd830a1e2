"""The host parts that follow the agent whose chat is shown: the inspector (that agent's protocol log)
and the sign-in. They live above the sessions and the replay, so the inspector's Open trace… may load
the replay's modules."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from app.contract.protocol_log import InspectorPage, ReadTrace
from app.contract.sign_in import SignInEnvelope
from app.main.sessions.hub_parts import Agents

if TYPE_CHECKING:
    from app.main.acp.protocol_log import ProtocolLog


class InspectorOfCurrent:
    """The inspector host part: the protocol log of the agent chats are with now (each agent keeps its
    own; switching agents shows the other's)."""

    def __init__(self, hub: Agents) -> None:
        self._hub = hub
        self._watched = False

    @property
    def _log(self) -> ProtocolLog:
        log = self._hub.current_service.protocol_log
        if log.watched != self._watched:  # chats moved to another agent while the inspector is open
            log.watch(self._watched)
        return log

    def read(self, after: int) -> InspectorPage:
        return self._log.read(self._hub.agent_label, after)

    def text(self, seq: int, pretty: bool = False) -> str:
        return self._log.text(seq, pretty)

    async def save_trace(self, path: str) -> int:
        return await self._log.save_trace(path)

    async def save_report_trace(self, path: str) -> tuple[int, str]:
        """A trace for a bug report (bug_trace.py): the number of entries written and its note of
        what was taken out."""
        from app.main.acp.bug_trace import SECRET_NAME, Redactor

        command = self._hub.current_service.connection.command
        # the environment the agent was started with: ClawQt's own (its variables named like a secret)
        # and what the config adds for it
        known = {value: f"env {name}" for name, value in os.environ.items() if SECRET_NAME.search(name)}
        known.update({value: f"agent env {name}" for name, value in command.env})
        redactor = Redactor(known, os.path.expanduser("~"))
        written = await self._log.save_report_trace(path, redactor)
        return written, redactor.summary()

    async def open_trace(self, path: str) -> ReadTrace:
        from app.main.replay.opening import open_trace  # the replay's modules load when first used

        return await open_trace(path)

    def clear(self) -> None:
        self._log.clear()

    def watch(self, watched: bool) -> None:
        self._watched = watched
        self._log.watch(watched)


class SignInOfShown:
    """The sign-in host part: the sign-in of the agent whose chat is shown (each agent signs in on
    its own; the others' panels wait until one of their chats is opened)."""

    def __init__(self, hub: Agents) -> None:
        self._hub = hub

    @property
    def _shown(self) -> Any:
        return self._hub.current_service.sign_in

    @property
    def state(self) -> SignInEnvelope | None:
        return self._shown.state

    async def authenticate(self, method_id: str) -> bool:
        return await self._shown.authenticate(method_id)

    async def use_env(self, method_id: str, values: dict[str, str]) -> bool:
        return await self._shown.use_env(method_id, values)

    async def start_terminal(self, method_id: str) -> None:
        await self._shown.start_terminal(method_id)

    def terminal_input(self, text: str) -> None:
        self._shown.terminal_input(text)

    async def retry(self) -> bool:
        return await self._shown.retry()

    def stop_terminal(self) -> None:
        self._shown.stop_terminal()

    @property
    def can_sign_out(self) -> bool:
        return bool(self._shown.can_sign_out)

    async def sign_out(self) -> None:
        await self._shown.sign_out()
