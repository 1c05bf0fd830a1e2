"""The four terminal tools an agent may call (seed 000's contracts), decided on the owner side.

Every call names a capability (`context_token`) that the user's own message minted for one chat; each
call re-checks it (expiry, binding to the chat, the terminal's pin) and the terminal's sharing mode at
that moment, and a long poll checks both again after waiting. The tools can read, type and ask for a
terminal; they cannot change sharing, pins or human recency (no such call exists on this side).

These coroutines run on the owner's event loop (the Qt thread); the loopback MCP server
(`mcp_server.py`) hands each call over from its own thread. Answers are plain dicts in the
seed's wire names; refusals raise `ToolRefused` with an HTTP-like status and a stable code.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from app.contract.errors import HostError
from app.contract.user_terminals import UserTerminalInfo
from app.main.core.paths import within
from app.main.participation.bearers import SessionBearers
from app.main.participation.capabilities import CapabilityStore, Refusal
from app.main.participation.tools_api import ToolRefused
from app.main.terminals.output_log import DEFAULT_READ_BYTES
from app.main.terminals.text import plain_text
from app.main.terminals.user import UserTerminals

DEFAULT_WAIT_MS = 0
MAX_WAIT_MS = 20_000


# An open_terminal answer waits this long for the user before saying "pending" (the agent retries
# with the same requestId).
OPEN_WAIT_SECONDS = 10.0
# requestId -> terminal, kept for retries this long
REQUEST_RETENTION_SECONDS = 3600.0
MAX_REQUESTS_KEPT = 1024
REQUEST_ID_CHARS = 128
COMMAND_CHARS = 8000
CWD_CHARS = 4096
INPUT_CHARS = 16 * 1024
AGENT_MODES = ("shared", "status-only")
_STATES = {
    "pending": "pending",
    "running": "started",
    "exited": "started",
    "failed": "failed",
    "expired": "expired",
}


@dataclass
class _Request:
    terminal_id: str
    session_key: str
    at: float


class ProposalDoor(Protocol):
    """Terminal-action proposals reached as a tool (app/main/proposals/service.py: the same pipeline)."""

    async def propose_via_tool(self, session_key: str, payload: object) -> dict[str, Any]: ...


class TerminalTools:
    """The tools over the user's terminals (`UserTerminals`) and the capabilities (`CapabilityStore`).

    `agent_label(session_key)` names the chat's agent on the participation banner; `install_secret` is
    the bearer the agent side was configured with once (OpenClaw); `session_of_bearer` maps a
    per-session bearer (given to agents in `session/new`) to its chat. All calls run on the owner loop."""

    def __init__(
        self,
        terminals: UserTerminals,
        capabilities: CapabilityStore,
        agent_label: Callable[[str], str],
        install_secret: str | Callable[[], str],
        session_bearers: SessionBearers | None = None,
        clock: Callable[[], float] = time.monotonic,
        proposals: ProposalDoor | None = None,
    ) -> None:
        self._terminals = terminals
        self._capabilities = capabilities
        self._agent_label = agent_label
        self._install_secret = install_secret
        self._bearers = session_bearers or SessionBearers()
        self._clock = clock
        self._requests: OrderedDict[tuple[str, str], _Request] = OrderedDict()
        self.proposals = proposals  # the second door to the proposals (None: they are off)

    # --- who may call at all ------------------------------------------------------------------------
    def admits_bearer(self, token: str) -> bool:
        if not isinstance(token, str) or not token:
            return False
        secret = self._install_secret if isinstance(self._install_secret, str) else self._install_secret()
        if hmac.compare_digest(token.encode("utf-8", "replace"), secret.encode()):
            return True
        if self._bearers.known(token):
            return True
        return self._capabilities.check(token, None).allowed

    def context_token_for_bearer(self, token: str) -> str | None:
        """The capability a per-session bearer stands for right now (None: the user has not sent a
        message in that chat within the capability's lifetime, or the bearer is not a session's)."""
        session_key = self._bearers.session_of(token)
        if session_key is None:
            return token if self._capabilities.check(token, None).allowed else None
        return self._capabilities.current_token(session_key)

    def _session_of(self, token: object, pin: str | None) -> str:
        check = self._capabilities.check(token, pin)
        if check.refusal is None and check.session_key is not None:
            return check.session_key
        if check.refusal is Refusal.OTHER_CHAT:
            raise ToolRefused(
                403,
                "pinned-to-another-chat",
                "The user pinned this terminal to another chat; this chat cannot use it.",
            )
        if check.refusal is Refusal.EXPIRED:
            raise ToolRefused(
                401,
                "capability-expired",
                "The terminal capability expired; it is renewed when the user sends a message.",
            )
        raise ToolRefused(
            401,
            "capability-unknown",
            "No valid contextToken: use the one from the latest message's terminal context.",
        )

    def _terminal(self, token: object, terminal_id: object) -> tuple[str, UserTerminalInfo]:
        if not isinstance(terminal_id, str) or not terminal_id:
            raise ToolRefused(
                422, "terminal-id-required", "terminalId is required: name the terminal to act on."
            )
        self._session_of(token, None)  # a bad token is refused before saying whether a terminal exists
        info = self._terminals.info(terminal_id)
        if info is None:
            raise ToolRefused(
                404, "no-such-terminal", f"There is no terminal {terminal_id!r} shared with you."
            )
        session_key = self._session_of(token, info.pinned_session)
        return session_key, info

    @staticmethod
    def _require_shared(info: UserTerminalInfo, for_input: bool) -> None:
        if info.sharing == "off":
            raise ToolRefused(403, "paused", "The user paused sharing of this terminal.")
        if for_input and info.sharing == "status-only":
            raise ToolRefused(
                403, "status-only", "This terminal is shared as status only: you may not type into it."
            )

    def _visible(self, session_key: str, info: UserTerminalInfo) -> bool:
        if info.pinned_session is not None and info.pinned_session != session_key:
            return False
        return info.sharing != "off" or (info.opened_by_agent and info.pinned_session == session_key)

    @staticmethod
    def _summary(info: UserTerminalInfo) -> dict[str, Any]:
        return {
            "terminalId": info.terminal_id,
            "title": info.title,
            "cwd": info.cwd,
            "status": info.state,
            "exitCode": info.exit_code,
            "agentMode": info.sharing,
            "openedByAgent": info.opened_by_agent,
            "pinnedToThisChat": info.pinned_session is not None,
        }

    # --- the tools ----------------------------------------------------------------------------------
    async def list_terminals(self, context_token: str) -> dict[str, Any]:
        session_key = self._session_of(context_token, None)
        self._terminals.expire_overdue()
        visible = [info for info in self._terminals.terminals() if self._visible(session_key, info)]
        recent = [
            info.terminal_id
            for info in self._terminals.by_human_recency()
            if self._visible(session_key, info)
        ]
        return {"sessions": [self._summary(info) for info in visible], "recentTerminalIds": recent}

    async def open_terminal(
        self,
        context_token: str,
        request_id: str,
        title: str | None = None,
        command: str | None = None,
        cwd: str | None = None,
        agent_mode: str = "shared",
    ) -> dict[str, Any]:
        session_key = self._session_of(context_token, None)
        if not isinstance(request_id, str) or not 1 <= len(request_id) <= REQUEST_ID_CHARS:
            raise ToolRefused(422, "invalid-request-id", "requestId must be 1 to 128 characters.")
        self._forget_old_requests()
        self._terminals.expire_overdue()
        known = self._requests.get((session_key, request_id))
        if known is None:
            terminal_id = self._new_request(session_key, title, command, cwd, agent_mode)
            known = self._requests[(session_key, request_id)] = _Request(
                terminal_id, session_key, self._clock()
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + OPEN_WAIT_SECONDS
        while True:
            info = self._terminals.info(known.terminal_id)
            state = _STATES.get(info.state, "failed") if info is not None else "expired"
            left = deadline - loop.time()
            if state != "pending" or left <= 0:
                break
            await self._terminals.changed(known.terminal_id, min(left, 1.0))
            self._terminals.expire_overdue()
        self._terminals.agent_activity(known.terminal_id, "status", self._agent_label(session_key))
        return {"requestId": request_id, "state": state, "terminalId": known.terminal_id}

    def _new_request(
        self, session_key: str, title: object, command: object, cwd: object, agent_mode: object
    ) -> str:
        if agent_mode not in AGENT_MODES:
            raise ToolRefused(422, "invalid-agent-mode", 'agentMode must be "shared" or "status-only".')
        command = "" if command is None else command
        title = "" if title is None else title
        if not isinstance(command, str) or len(command) > COMMAND_CHARS or "\0" in command:
            raise ToolRefused(
                422, "invalid-command", f"command must be text of at most {COMMAND_CHARS} characters."
            )
        if not isinstance(title, str):
            raise ToolRefused(422, "invalid-title", "title must be text.")
        folder = self._folder(cwd)
        try:
            return self._terminals.agent_request(
                session_key,
                title.strip()[:80],
                command,
                folder,
                agent_mode,  # type: ignore[arg-type]
            )
        except HostError as error:
            raise ToolRefused(409, error.code, str(error)) from error

    def _folder(self, cwd: object) -> str:
        root = self._terminals.workspace_root
        if cwd is None or cwd == "":
            return root
        if not isinstance(cwd, str) or len(cwd) > CWD_CHARS or "\0" in cwd:
            raise ToolRefused(422, "invalid-cwd", "cwd must be a folder path.")
        real = os.path.realpath(os.path.join(root, os.path.expanduser(cwd)))
        if not within(real, root):
            raise ToolRefused(403, "cwd-outside-workspace", f"cwd must be inside the workspace {root}.")
        if not os.path.isdir(real):
            raise ToolRefused(422, "invalid-cwd", f"{cwd} is not a folder.")
        return real

    def _forget_old_requests(self) -> None:
        now = self._clock()
        while self._requests:
            oldest = next(iter(self._requests.values()))
            if now - oldest.at < REQUEST_RETENTION_SECONDS and len(self._requests) <= MAX_REQUESTS_KEPT:
                break
            self._requests.popitem(last=False)

    async def read_terminal(
        self,
        context_token: str,
        terminal_id: str | None = None,
        after_sequence: int | None = None,
        max_bytes: int | None = None,
        wait_ms: int | None = None,
    ) -> dict[str, Any]:
        if terminal_id is None:
            terminal_id = self._most_recent(context_token)
        session_key, info = self._terminal(context_token, terminal_id)
        self._require_shared(info, for_input=False)
        if after_sequence is not None and (
            not isinstance(after_sequence, int) or isinstance(after_sequence, bool)
        ):
            raise ToolRefused(422, "invalid-after-sequence", "afterSequence must be an integer.")
        budget = DEFAULT_READ_BYTES if max_bytes is None else max_bytes
        if not isinstance(budget, int) or isinstance(budget, bool):
            raise ToolRefused(422, "invalid-max-bytes", "maxBytes must be an integer.")
        wait = 0 if wait_ms is None else wait_ms
        if not isinstance(wait, int) or isinstance(wait, bool) or wait < 0:
            raise ToolRefused(422, "invalid-wait", "waitMs must be a whole number of milliseconds.")
        wait = min(wait, MAX_WAIT_MS)
        log = self._terminals.output_log(terminal_id)
        if wait and log is not None and after_sequence is not None and info.sharing == "shared":
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait / 1000  # waiting is real time; the clock is for expiry
            while log.last_sequence <= after_sequence and info.state in ("running", "pending"):
                left = deadline - loop.time()
                if left <= 0:
                    break
                await self._terminals.changed(terminal_id, left)
                # after waiting, the same checks again: the user may have paused, pinned or closed it
                _session, info = self._terminal(context_token, terminal_id)
                self._require_shared(info, for_input=False)
                log = self._terminals.output_log(terminal_id)
                if log is None:
                    break
        if log is None:
            raise ToolRefused(
                404, "no-such-terminal", f"There is no terminal {terminal_id!r} shared with you."
            )
        read = log.read(after_sequence, budget)
        answer: dict[str, Any] = {
            "terminalId": terminal_id,
            "status": info.state,
            "exitCode": info.exit_code,
            "nextSequence": read.next_sequence,
            "agentMode": info.sharing,
            "output": plain_text(read.output),
            "truncated": read.truncated,
            "hasMore": read.has_more,
            "historyGap": read.history_gap,
            "excludedOutput": read.excluded_output,
        }
        if read.status_only:
            answer["statusOnly"] = True
        activity = "status" if read.status_only else "read"
        self._terminals.agent_activity(terminal_id, activity, self._agent_label(session_key))  # type: ignore[arg-type]
        return answer

    def _most_recent(self, context_token: str) -> str:
        session_key = self._session_of(context_token, None)
        for info in self._terminals.by_human_recency():
            if self._visible(session_key, info) and info.sharing != "off":
                return info.terminal_id
        raise ToolRefused(404, "no-shared-terminal", "The user shares no terminal with this chat.")

    async def send_terminal_input(
        self,
        context_token: str,
        terminal_id: str | None,
        text: str | None = None,
        interrupt: bool = False,
    ) -> dict[str, Any]:
        session_key, info = self._terminal(context_token, terminal_id)
        self._require_shared(info, for_input=True)
        if interrupt is not False and interrupt is not True:
            raise ToolRefused(422, "invalid-input", "interrupt must be true or false.")
        if interrupt and text:
            raise ToolRefused(422, "invalid-input", "Send either text or interrupt, not both.")
        if not interrupt and (not isinstance(text, str) or not text):
            raise ToolRefused(422, "invalid-input", "text (or interrupt: true) is required.")
        if text is not None and (not isinstance(text, str) or len(text) > INPUT_CHARS or "\0" in text):
            raise ToolRefused(422, "invalid-input", f"text must be at most {INPUT_CHARS} characters, no NUL.")
        if info.state != "running":
            raise ToolRefused(409, "not-running", f"The terminal is {info.state}; it takes no input.")
        data = b"\x03" if interrupt else str(text).encode("utf-8", "surrogatepass")
        if not self._terminals.agent_write(info.terminal_id, data):
            raise ToolRefused(409, "not-running", "The terminal's process has ended; it takes no input.")
        self._terminals.agent_activity(info.terminal_id, "input", self._agent_label(session_key))
        return {"sent": True}

    async def propose_terminal_actions(self, context_token: str, payload: object) -> dict[str, Any]:
        """The same validation and card as the proposal CLI, for agents that prefer tools."""
        session_key = self._session_of(context_token, None)
        if self.proposals is None:
            raise ToolRefused(409, "proposals-off", "Terminal-action proposals are off in this ClawQt.")
        return await self.proposals.propose_via_tool(session_key, payload)
