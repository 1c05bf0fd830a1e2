"""The user's terminals, the agents' way in to them, and terminal-action proposals as the renderer
reaches them. Part of the host API (host_api.py); the main side decides every rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.contract.user_terminals import (
    ConnectOutcome,
    SharingName,
    SplitDirection,
    TerminalAccessState,
    UserTerminalEnvelope,
    UserTerminalInfo,
)

UserTerminalListener = Callable[[UserTerminalEnvelope], None]


class UserTerminalsHost(Protocol):
    """The user's own terminals (`app/main/terminals/user.py`): they belong to the user, not to a chat,
    and outlive chat switches. Changes arrive as UserTerminal*Envelopes, synchronously, in order, on the
    event loop thread. Only calls from here change sharing or pins: the agent side has no such call."""

    def terminals(self) -> list[UserTerminalInfo]:
        """Every terminal, in the order they were opened."""
        ...

    def subscribe(self, listener: UserTerminalListener) -> Callable[[], None]: ...

    def output(self, terminal_id: str) -> str:
        """The newest output kept for a view built after it arrived (bounded; "" for an unknown id)."""
        ...

    def open(self, session_key: str | None, generation: int, columns: int, rows: int) -> str:
        """A new shell in that session's folder (the workspace root when the folder is outside it or
        the session is not open at `generation`); its id. HostError when it cannot start."""
        ...

    def split(self, terminal_id: str, direction: SplitDirection, columns: int, rows: int) -> str:
        """A new shell beside `terminal_id` (same folder, same shell), shown as a split pane of it; its
        id. HostError when that terminal is closed or the shell cannot start."""
        ...

    def ready(self, terminal_id: str, columns: int, rows: int) -> None:
        """The panel shows a terminal an agent asked for: only now may its process start."""
        ...

    def refuse(self, terminal_id: str) -> None:
        """The user does not want a terminal an agent asked for: it never runs."""
        ...

    def close(self, terminal_id: str) -> None: ...

    def input(self, terminal_id: str, text: str) -> None:
        """What the user typed or pasted (ignored once the process ended)."""
        ...

    def answer(self, terminal_id: str, text: str) -> None:
        """The panel's emulator answering the program's own query (cursor position, device
        attributes); not the user's input, so human recency does not move."""
        ...

    def resize(self, terminal_id: str, columns: int, rows: int) -> None: ...

    def info(self, terminal_id: str) -> UserTerminalInfo | None: ...

    def focus(self, terminal_id: str) -> None:
        """The user focused this terminal (it becomes the most recently used by a human)."""
        ...

    def set_sharing(self, terminal_id: str, mode: SharingName) -> None:
        """The user's choice on the tab; output that arrives while not shared is never given to an agent."""
        ...

    def pin(self, terminal_id: str, session_key: str | None) -> None:
        """Only that chat's agent may use the terminal (None: every chat's)."""
        ...


class TerminalAccessHost(Protocol):
    """How agents reach the user's terminals (`app/main/participation/access.py`)."""

    def state(self) -> TerminalAccessState: ...

    async def prepare(self) -> TerminalAccessState:
        """Start the loopback server when it is not running yet, then the state (with the command)."""
        ...

    async def connect_openclaw(self) -> ConnectOutcome:
        """Run OpenClaw's own `openclaw mcp set` for ClawQt's server (the user agreed to the shown
        command); the outcome says what it printed."""
        ...


class ProposalsHost(Protocol):
    """Terminal-action proposal cards (`app/main/proposals/service.py`). A card appears and changes through
    `ProposalEnvelope`s (app/contract/proposals.py) on `SessionsHost.subscribe`; only these calls, made
    when the user confirms or cancels a card, can make a proposal act on a terminal."""

    def confirm(self, proposal_id: str, choice: int, action_index: int, run: bool = True) -> bool:
        """The user chose action `action_index` (its position in the choice's `actions`) of the choice
        numbered `choice` (`ProposalChoice.choice`, not its position on the card). The main side claims
        the proposal atomically before it dispatches anything; False when the card can no longer
        dispatch (already decided, superseded, timed out, from another run). `run` False ("Insert in
        terminal", a `send` only): the command is typed without Enter."""
        ...

    def cancel(self, proposal_id: str) -> None:
        """The user dismissed the whole proposal (Esc): it ends `cancelled` unless it already ended."""
        ...
